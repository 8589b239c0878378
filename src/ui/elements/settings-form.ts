/**
 * <settings-form>: every training setting of `CONFIG_FIELDS` (but `method`: the page runs both) and the
 * page settings of `PAGE_FIELDS` that are not in the control bar, generated from the two tables, plus
 * the ablation presets of `ABLATIONS`.
 *
 * Values are validated by the tables' own parser; a bad entry is named next to its field and not sent.
 * Valid edits go up as `config-edit` / `page-setting` events. Fields whose change needs a restart show
 * the value waiting for it, and a notice offers to restart now or discard.
 */
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { ABLATIONS, CONFIG_FIELDS, describeRange, parseField, type AblationName, type FieldSpec, type RaceConfig, type TrainConfig } from '../../config.ts';
import { combinedLimitIssues, seedsLimitIssue } from '../../setting-limits.ts';
import { PAGE_DEFAULT_CONFIG } from '../../page/page-defaults.ts';
import { describePageRange, PAGE_FIELDS, parsePageField, type PageFieldSpec, type PageSettings } from '../../page/page-settings.ts';
import { emit, type ConfigEditDetail, type PageSettingDetail, type StagedDetail } from '../events.ts';
import { sharedStyles } from '../theme.ts';
import './metric-tip.ts';

/** Where each setting is shown; a setting missing here still appears, under "Other". */
const GROUPS: { title: string; keys: readonly string[] }[] = [
  { title: 'Task', keys: ['env', 'horizon', 'seed', 'seeds', 'tasksPerIteration', 'groupSize', 'iters'] },
  {
    title: 'BEACON advantage',
    keys: ['gamma', 'lambda', 'rMs', 'successReward', 'normalize', 'segmentBaseline', 'trajectoryTerm', 'randomSegments', 'milestoneDropout', 'variant'],
  },
  {
    title: 'Milestone detector and teacher',
    keys: ['milestoneFalseAlarms', 'looseMilestones', 'milestoneDelay', 'milestoneStride', 'fineMilestones', 'demoNoise'],
  },
  { title: 'GiGPO and critic PPO', keys: ['omega', 'gaeGamma', 'gaeLambda', 'valueCoef', 'shapedRewards'] },
  { title: 'SFT prior', keys: ['sftEpisodes', 'sftEpochs', 'sftLearningRate'] },
  { title: 'Policy and PPO', keys: ['learningRate', 'hiddenSize', 'clipRatio', 'epochs', 'minibatches', 'entropyCoef', 'klCoef', 'maxGradNorm'] },
  { title: 'Runtime and page', keys: ['backend', 'autostart', 'target'] },
];
/**
 * Settings the page does not take (it races several methods) or shows elsewhere: the control bar, the
 * method picker, the presenter button.
 */
const NOT_IN_FORM = ['method', 'speed', 'smoothing', 'methods', 'present'];

const PRESET_LABELS: Record<AblationName | 'none', string> = {
  none: 'Full BEACON (no ablation)',
  gamma1: 'γ = 1: uniform credit in segments (A_seg ≡ 0)',
  gamma0: 'γ = 0: only the milestone step is rewarded',
  randomSegments: 'Random segmentation',
  milestoneDropout: 'Milestone dropout p = 0.5',
  noTrajectoryTerm: 'No trajectory term (A = λ · A_seg)',
  stepMean: 'Released-code segment baseline (stepMean)',
};
const PRESET_KEYS = [...new Set(Object.values(ABLATIONS).flatMap((p) => Object.keys(p)))] as (keyof TrainConfig)[];

type AnySpec = { kind: 'train'; spec: FieldSpec } | { kind: 'page'; spec: PageFieldSpec };

function allSpecs(): Map<string, AnySpec> {
  const m = new Map<string, AnySpec>();
  for (const spec of CONFIG_FIELDS) if (!NOT_IN_FORM.includes(spec.key)) m.set(spec.key, { kind: 'train', spec });
  for (const spec of PAGE_FIELDS) if (!NOT_IN_FORM.includes(spec.key)) m.set(spec.key, { kind: 'page', spec });
  return m;
}

/** The field's doc line as a label: sentence case for words, symbols (γ, λ, N) and names (tfjs) kept. */
function labelOf(doc: string): string {
  return /^[a-z]/.test(doc) && !doc.startsWith('tfjs') ? doc.charAt(0).toUpperCase() + doc.slice(1) : doc;
}

export class SettingsForm extends LitElement {
  static override properties = {
    config: { attribute: false },
    staged: { attribute: false },
    page: { attribute: false },
    errors: { state: true },
  };

  /** The settings the trainers run with. */
  declare config: RaceConfig;
  /** Edited settings that wait for a restart. */
  declare staged: Partial<TrainConfig>;
  declare page: PageSettings;
  declare private errors: Record<string, string>;

  constructor() {
    super();
    this.config = PAGE_DEFAULT_CONFIG;
    this.staged = {};
    this.page = Object.fromEntries(PAGE_FIELDS.map((s) => [s.key, s.default])) as unknown as PageSettings;
    this.errors = {};
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .notice {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 8px 12px;
        margin: 0 0 14px;
        padding: 10px 14px;
        border-radius: 10px;
        background: var(--warn-bg);
        border: 1px solid var(--warn);
        font-size: 0.9rem;
      }
      .notice p {
        flex: 1 1 260px;
        margin: 0;
      }
      .preset {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 8px 12px;
        margin: 0 0 16px;
      }
      .preset label {
        font-weight: 600;
        font-size: 0.9rem;
      }
      .preset select {
        flex: 1 1 260px;
        max-width: 420px;
      }
      .groups {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(min(100%, 320px), 1fr));
        gap: 14px;
      }
      fieldset {
        margin: 0;
        padding: 10px 14px 14px;
        border: 1px solid var(--border);
        border-radius: 10px;
        min-width: 0;
      }
      legend {
        padding: 0 6px;
        font-weight: 650;
        font-size: 0.9rem;
      }
      .field {
        display: grid;
        grid-template-columns: 1fr auto;
        align-items: center;
        gap: 2px 10px;
        padding: 6px 0;
        border-bottom: 1px solid var(--border);
      }
      .field:last-child {
        border-bottom: none;
      }
      .field label {
        display: flex;
        flex-direction: column;
        font-size: 0.85rem;
        min-width: 0;
      }
      .field label code {
        font: 0.72rem var(--mono);
        color: var(--fg-muted);
      }
      .control {
        display: flex;
        align-items: center;
        gap: 6px;
      }
      .control input[type='number'] {
        width: 7.5em;
      }
      .control select {
        max-width: 11em;
      }
      .pending {
        grid-column: 1 / -1;
        font-size: 0.75rem;
        color: var(--warn-fg);
      }
      .error {
        grid-column: 1 / -1;
        font-size: 0.78rem;
        color: var(--danger);
      }
      [aria-invalid='true'] {
        border-color: var(--danger);
      }
    `,
  ];

  override render() {
    const specs = allSpecs();
    const placed = new Set(GROUPS.flatMap((g) => g.keys));
    const other = [...specs.keys()].filter((k) => !placed.has(k));
    const groups = other.length ? [...GROUPS, { title: 'Other', keys: other }] : GROUPS;
    const stagedKeys = Object.keys(this.staged);
    const preset = this.currentPreset();
    return html`
      ${
        stagedKeys.length
          ? html`<div class="notice" role="status">
            <p><b>Needs a restart:</b> ${stagedKeys.join(', ')}. Both methods will start again from iteration 0.</p>
            <button class="primary" type="button" @click=${() => this.staged$('apply')}>Restart now</button>
            <button type="button" @click=${() => this.staged$('discard')}>Discard</button>
          </div>`
          : nothing
      }
      <div class="preset">
        <label for="preset">Ablation preset</label>
        <select id="preset" @change=${this.onPreset}>
          ${preset === 'custom' ? html`<option value="custom" selected>Custom settings</option>` : nothing}
          ${(Object.keys(PRESET_LABELS) as (AblationName | 'none')[]).map((k) => html`<option value=${k} ?selected=${preset === k}>${PRESET_LABELS[k]}</option>`)}
        </select>
        <metric-tip
          label="Ablation presets"
          .doc=${'Each preset sets the ablation switches (γ, random segments, milestone dropout, trajectory term, segment baseline) to the paper’s values for that ablation (docs/maths.md §6) and the others to their defaults. Ablations change BEACON only; the GRPO panel stays the plain baseline.'}
        ></metric-tip>
      </div>
      <div class="groups">
        ${groups.map(
          (g) => html`<fieldset>
            <legend>${g.title}</legend>
            ${g.keys.filter((k) => specs.has(k)).map((k) => this.field(specs.get(k)!))}
          </fieldset>`,
        )}
      </div>
    `;
  }

  private field(s: AnySpec) {
    const key = s.spec.key;
    const id = `f-${key}`;
    const restart = s.kind === 'train' && s.spec.restart;
    const running = s.kind === 'train' ? (this.config as Partial<TrainConfig>)[s.spec.key] : this.page[s.spec.key];
    const staged = s.kind === 'train' ? this.staged[s.spec.key] : undefined;
    const value = staged ?? running;
    const range = s.kind === 'train' ? describeRange(s.spec) : describePageRange(s.spec);
    const def = s.kind === 'train' ? (PAGE_DEFAULT_CONFIG as Partial<TrainConfig>)[s.spec.key] : s.spec.default;
    const tip = `${s.spec.doc}. Allowed: ${range}. Default: ${String(def)}. URL key “${key}”. ${restart ? 'Changing it restarts both methods.' : s.kind === 'train' ? 'Takes effect from the next iteration.' : ''}`;
    const error = this.errors[key];
    const k = s.spec.kind;
    let control: TemplateResult | typeof nothing;
    if (k.type === 'enum') {
      control = html`<select id=${id} @change=${(e: Event) => this.edit(s, (e.target as HTMLSelectElement).value)}>
        ${k.values.map((v) => html`<option value=${v} ?selected=${v === value}>${v}</option>`)}
      </select>`;
    } else if (k.type === 'bool') {
      control = html`<input id=${id} type="checkbox" .checked=${value === true} @change=${(e: Event) => this.edit(s, String((e.target as HTMLInputElement).checked))} />`;
    } else if (k.type === 'int' || k.type === 'number') {
      control = html`<input
        id=${id}
        type="number"
        inputmode="decimal"
        min=${k.min}
        max=${k.max}
        step=${k.type === 'int' ? 1 : 'any'}
        .value=${String(value)}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${error ? `${id}-error` : nothing}
        @change=${(e: Event) => this.edit(s, (e.target as HTMLInputElement).value)}
      />`;
    } else {
      control = nothing; // a method list is chosen in <method-picker>
    }
    return html`<div class="field">
      <label for=${id}>${labelOf(s.spec.doc)}<code>${key}</code></label>
      <span class="control">${control}<metric-tip .label=${labelOf(s.spec.doc)} .doc=${tip}></metric-tip></span>
      ${staged !== undefined ? html`<span class="pending">Waiting for a restart (running with ${String(running)})</span>` : nothing}
      ${error ? html`<span class="error" id="${id}-error" role="alert">${error}</span>` : nothing}
    </div>`;
  }

  private edit(s: AnySpec, raw: string): void {
    const key = s.spec.key;
    const parsed = s.kind === 'train' ? parseField(s.spec, raw) : parsePageField(s.spec, raw);
    const tooBig = 'error' in parsed ? undefined : this.tooBigTogether(s, parsed.value);
    if ('error' in parsed || tooBig) {
      this.errors = { ...this.errors, [key]: `${'error' in parsed ? parsed.error : tooBig}; not applied` };
      return;
    }
    const { [key]: _gone, ...rest } = this.errors;
    this.errors = rest;
    if (s.kind === 'train') emit<ConfigEditDetail>(this, 'config-edit', { changes: { [key]: parsed.value } as Partial<TrainConfig> });
    else emit<PageSettingDetail>(this, 'page-setting', { changes: { [key]: parsed.value } as Partial<PageSettings> });
  }

  /** What the edit of `s` to `value` makes too big together with the other settings (setting-limits.ts), if anything. */
  private tooBigTogether(s: AnySpec, value: unknown): string | undefined {
    const config = { ...this.config, ...this.staged, ...(s.kind === 'train' ? { [s.spec.key]: value } : {}) } as RaceConfig;
    const seeds = s.kind === 'page' && s.spec.key === 'seeds' ? (value as number) : this.page.seeds;
    const combined = s.kind === 'train' ? combinedLimitIssues(config)[0]?.message : undefined;
    const seedsTooMany = s.spec.key === 'seeds' || s.spec.key === 'backend' ? seedsLimitIssue(seeds, config.backend) : null;
    return combined ?? seedsTooMany ?? undefined;
  }

  private currentPreset(): AblationName | 'none' | 'custom' {
    const effective = { ...this.config, ...this.staged };
    const matches = (over: Partial<TrainConfig>) =>
      PRESET_KEYS.every((k) => effective[k] === (k in over ? over[k as keyof typeof over] : (PAGE_DEFAULT_CONFIG as Partial<TrainConfig>)[k]));
    if (matches({})) return 'none';
    for (const name of Object.keys(ABLATIONS) as AblationName[]) if (matches(ABLATIONS[name])) return name;
    return 'custom';
  }

  private onPreset = (e: Event) => {
    const name = (e.target as HTMLSelectElement).value as AblationName | 'none' | 'custom';
    if (name === 'custom') return;
    const over: Partial<TrainConfig> = name === 'none' ? {} : ABLATIONS[name];
    const changes = Object.fromEntries(
      PRESET_KEYS.map((k) => [k, k in over ? over[k as keyof typeof over] : (PAGE_DEFAULT_CONFIG as Partial<TrainConfig>)[k]]),
    ) as Partial<TrainConfig>;
    emit<ConfigEditDetail>(this, 'config-edit', { changes });
  };

  private staged$(action: StagedDetail['action']): void {
    emit<StagedDetail>(this, 'staged-settings', { action });
  }
}

customElements.define('settings-form', SettingsForm);

declare global {
  interface HTMLElementTagNameMap {
    'settings-form': SettingsForm;
  }
}
