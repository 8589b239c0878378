/**
 * <beacon-live-app>: the page. Reads the settings from the URL, owns the training workers (through
 * TrainingController, one worker per raced method), passes state down to the views and turns their
 * events, and the keyboard shortcuts, into worker commands and URL updates.
 *
 * Presenter mode (`present`) is a stage layout of the same views: the race chart and each method's
 * episode large, the tour's narrative, minimal controls and larger text.
 *
 * The URL always holds the settings in effect (the two tables of src/config.ts and
 * src/page/page-settings.ts); settings that wait for a restart join it when the restart happens.
 */
import { LitElement, css, html, nothing } from 'lit';
import { fieldSpec, type ConfigIssue, type TrainConfig } from '../config.ts';
import { raceEntry } from '../methods/variants.ts';
import type { PageSettings } from '../page/page-settings.ts';
import { readPageState, writePageState } from '../page/url-state.ts';
import { applyPreset, availableScenarios } from '../page/scenarios.ts';
import type { ConfigEditDetail, PageSettingDetail, ScenarioSelectDetail, StagedDetail, TrainingCommandDetail } from './events.ts';
import { ShortcutController } from './shortcut-controller.ts';
import { downloadBlob } from './download.ts';
import { TrainingController, type Checkpoints } from './training-controller.ts';
import { DurableRuns } from './durable-runs.ts';
import { raceKey } from '../page/race-key.ts';
import type { RunFile } from '../page/run-file.ts';
import './durable-bar.ts';
import { sharedStyles } from './theme.ts';
import type { MetricChart } from './metric-chart.ts';
import './backend-badge.ts';
import './comparison-chart.ts';
import './explainer-section.ts';
import './method-panel.ts';
import './method-picker.ts';
import './prior-note.ts';
import './scenario-tour.ts';
import './shortcut-help.ts';
import './run-inspector.ts';
import './settings-alert.ts';
import './settings-form.ts';
import './share-export.ts';
import './training-controls.ts';
import { takeEstimatorParam, ESTIMATOR_PARAM } from '../page/estimator-share.ts';
import { failureFromMessage } from '../estimator/failure.ts';
import { savedSourceOf } from '../estimator/saved-source.ts';
import type { EstimatorCode } from '../worker/protocol.ts';
import { codeEntries, EstimatorSession } from './estimator-session.ts';


export class BeaconLiveApp extends LitElement {
  static override properties = {
    config: { state: true },
    staged: { state: true },
    page: { state: true },
    issues: { state: true },
    scenario: { state: true },
    help: { state: true },
  };

  private declare config: TrainConfig;
  private declare staged: Partial<TrainConfig>;
  private declare page: PageSettings;
  private declare issues: ConfigIssue[];
  /** The tour's scenario loaded last (index among the available ones), or -1. */
  private declare scenario: number;
  /** The shortcut help overlay is open. */
  private declare help: boolean;
  private readonly training: TrainingController;
  /** Autosave, resume and run files (durable-runs.ts). */
  private readonly durable: DurableRuns;
  /** Your estimator: the code the custom panel runs, the editor's draft, code awaiting consent. */
  private readonly code = new EstimatorSession();
  private urlTimer: ReturnType<typeof setTimeout> | null = null;

  constructor() {
    super();
    // Code in the link (estimator=) waits for consent; the settings are read without it.
    const { rest, value: sharedCode } = takeEstimatorParam(location.search);
    const { config, page, issues } = readPageState(rest);
    this.code.fromLink(sharedCode, issues);
    this.config = config;
    this.page = page;
    this.issues = issues;
    this.staged = {};
    this.scenario = -1;
    this.help = false;
    const state = () => ({ config: this.config, page: this.page });
    this.durable = new DurableRuns(this, () => raceKey(state()), () => writePageState(state()), () => this.page.methods);
    // A race saved in this browser continues where it was (the default; the bar offers a fresh start).
    this.training = new TrainingController(this, async () => {
      const checkpoints = await this.durable.saved();
      return { config: this.config, methods: this.page.methods, running: this.page.autostart, speed: this.page.speed, seeds: this.page.seeds, checkpoints, estimator: await this.startingCode(checkpoints) };
    });
    this.training.onCheckpoint = (m, iteration, bytes) => this.durable.checkpoint(m, iteration, bytes);
    this.addEventListener('run-save', () => void this.saveRun());
    this.addEventListener('run-open', (e) => void this.durable.readRunFile(e.detail.file).then((run) => run && this.openRun(run)));
    this.addEventListener('run-resume', () => this.durable.dismissOffer());
    this.addEventListener('run-fresh', () => {
      void this.durable.startFresh();
      this.restart();
    });
    this.addEventListener('training-command', (e) => this.onCommand(e.detail));
    this.addEventListener('config-edit', (e) => this.onConfigEdit(e.detail));
    this.addEventListener('page-setting', (e) => this.onPageSetting(e.detail));
    this.addEventListener('staged-settings', (e) => this.onStaged(e.detail));
    this.addEventListener('export-charts', () => void this.exportCharts());
    this.addEventListener('scenario-select', (e) => this.loadScenario(e.detail));
    this.addEventListener('help-close', () => (this.help = false));
    this.addEventListener('estimator-apply', (e) => {
      this.code.apply(e.detail.source);
      this.restartCodeEntries(null);
    });
    this.addEventListener('estimator-consent', (e) => {
      const consented = this.code.consent(e.detail.run);
      if (consented) this.restartCodeEntries(consented.checkpoint);
      else this.requestUpdate();
    });
    new ShortcutController(this, {
      togglePause: () => this.onCommand({ command: this.training.running ? 'pause' : 'resume' }),
      step: () => this.onCommand({ command: 'step' }),
      reset: () => this.onCommand({ command: 'reset' }),
      toggleFullscreen: () => void toggleFullscreen(),
      scenario: (index) => this.loadScenario({ index }),
      toggleHelp: () => (this.help = !this.help),
    });
  }

  protected override willUpdate(): void {
    // Your estimator's editor (and CodeMirror with it) and the consent dialog load only when needed.
    if (codeEntries(this.page.methods).length) void import('./estimator-editor.ts');
    if (this.code.pending) void import('./consent-dialog.ts');
    this.toggleAttribute('present', this.page.present);
    // Presenter mode scales the whole page's rem-based type, so that body text is at least 20 px.
    document.documentElement.classList.toggle('present', this.page.present);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Normalise the address bar: bad parameters go, the settings in effect stay.
    this.writeUrl();
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        max-width: 1360px;
        margin: 0 auto;
        padding: 20px clamp(12px, 3vw, 32px) 48px;
      }
      .top {
        display: flex;
        flex-wrap: wrap;
        align-items: flex-start;
        justify-content: space-between;
        gap: 12px 24px;
        margin-bottom: 14px;
      }
      .brand h1 {
        margin: 0;
        font-size: clamp(1.5rem, 3.2vw, 2.1rem);
        font-weight: 750;
        letter-spacing: -0.02em;
      }
      .brand h1 span {
        color: var(--beacon);
      }
      .brand p {
        margin: 4px 0 0;
        color: var(--fg-muted);
        max-width: 62ch;
      }
      backend-badge {
        max-width: min(100%, 460px);
      }
      settings-alert,
      .errors {
        margin-bottom: 14px;
      }
      .controls {
        position: sticky;
        top: 0;
        z-index: 10;
        display: flex;
        flex-direction: column;
        gap: 10px;
        margin-bottom: 18px;
        box-shadow: 0 2px 12px rgb(0 0 0 / 0.06);
      }
      .pair {
        display: grid;
        grid-template-columns: repeat(2, minmax(0, 1fr));
        gap: 18px;
      }
      @media (max-width: 880px) {
        .pair {
          grid-template-columns: minmax(0, 1fr);
        }
        .controls {
          position: static;
        }
      }
      section.block {
        margin-top: 26px;
      }
      /*
       * The sections that change with every batch: off screen, the browser skips their style, layout and
       * paint, so their updates do not relayout and repaint the page (time the training workers need).
       */
      section.live {
        content-visibility: auto;
        contain-intrinsic-size: auto 900px;
      }
      section.block > h2 {
        margin: 0 0 4px;
        font-size: 1.2rem;
      }
      section.block > p.lede {
        margin: 0 0 12px;
        color: var(--fg-muted);
        font-size: 0.9rem;
      }
      .errors {
        padding: 10px 14px;
        border-radius: 10px;
        border: 1px solid var(--danger);
        background: var(--danger-bg);
        font-size: 0.9rem;
      }
      .errors p {
        margin: 0;
      }
      footer {
        margin-top: 32px;
        font-size: 0.8rem;
        color: var(--fg-muted);
      }
      footer a {
        color: inherit;
      }
      .top-actions {
        display: flex;
        flex-direction: column;
        align-items: flex-end;
        gap: 8px;
      }
      .tour {
        margin-bottom: 18px;
      }
      .stage {
        display: grid;
        gap: 18px;
      }
      .stage-top {
        display: grid;
        grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
        gap: 18px;
        align-items: start;
      }
      .stage .episodes {
        display: grid;
        grid-template-columns: repeat(var(--methods, 2), minmax(0, 1fr));
        gap: 18px;
      }
      :host([present]) {
        max-width: none;
        padding: 12px 24px 32px;
      }
      :host([present]) .brand p {
        display: none;
      }
      :host([present]) .controls {
        position: static;
        box-shadow: none;
      }
      @media (max-width: 880px) {
        .stage-top {
        display: grid;
        grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
        gap: 18px;
        align-items: start;
      }
      .stage .episodes {
          grid-template-columns: minmax(0, 1fr);
        }
      }
      .pick {
        margin-bottom: 14px;
      }
    `,
  ];

  override render() {
    const t = this.training;
    const rev = t.revision;
    const state = t.state;
    const methods = t.methods;
    const iterations = state?.iterations ?? Object.fromEntries(methods.map((m) => [m, t.histories[m]?.latest?.iteration ?? 0]));
    const general = t.errors.filter((e) => !e.method);
    const present = this.page.present;
    const scenarios = availableScenarios();
    const badge = html`<backend-badge
      .report=${t.backend?.report ?? null}
      .advantages=${t.backend?.advantages ?? ''}
      .recovery=${t.backend?.recovery ?? ''}
      .failure=${t.crash}
      .probe=${t.probe}
      ?probing=${t.probing}
    ></backend-badge>`;
    const controls = html`<training-controls
      ?ready=${state !== null}
      ?running=${state?.running ?? false}
      ?finished=${state?.finished ?? false}
      .iterations=${iterations}
      .budget=${this.config.iters}
      .speed=${this.page.speed}
      .smoothing=${this.page.smoothing}
    ></training-controls>`;
    const tour = html`<scenario-tour class="tour ${present ? '' : 'card'}" .scenarios=${scenarios} .index=${this.scenario} ?compact=${present}></scenario-tour>`;
    const inspectors = methods.map((m) => html`<run-inspector method=${m} .snapshot=${t.snapshots[m]} .speed=${this.page.speed}></run-inspector>`);
    const comparison = html`<comparison-chart
      .histories=${t.histories}
      .methods=${methods}
      .revision=${rev}
      .smoothing=${this.page.smoothing}
      .target=${this.page.target}
      .plotHeight=${present ? 400 : 230}
      .seedRuns=${t.seedRuns}
    ></comparison-chart>`;
    const panels = html`<section class="block live" aria-labelledby="metrics-title">
      <h2 id="metrics-title">Metrics per method</h2>
      <p class="lede">How much learning signal each method extracts from its samples, iteration by iteration.</p>
      <div class="pair">
        ${methods.map(
          (m) => html`<method-panel
            method=${m}
            .history=${t.histories[m]}
            .seeds=${t.seeds.length}
            .revision=${rev}
            .smoothing=${this.page.smoothing}
            .halted=${t.errors.filter((e) => e.method === m).map((e) => e.message).join(' ')}
          ></method-panel>`,
        )}
      </div>
    </section>`;
    const presentButton = html`<button type="button" class="present-toggle" aria-pressed=${present ? 'true' : 'false'} @click=${() => this.onPageSetting({ changes: { present: !present } })}>
      ${present ? 'Exit presenter mode' : 'Presenter mode'}
    </button>`;
    const errors =
      t.crash || general.length
        ? html`<div class="errors" role="alert">${t.crash ? html`<p>${t.crash}</p>` : nothing}${general.map((e) => html`<p>${e.message}</p>`)}</div>`
        : nothing;
    const help = html`<shortcut-help ?open=${this.help}></shortcut-help>`;
    const codePanels = codeEntries(methods);
    const codeFailure = t.errors.filter((e) => e.method !== undefined && codePanels.includes(e.method)).at(-1);
    const estimator = codePanels.length
      ? html`<section class="block">
          <estimator-editor
            class="card"
            .applied=${this.code.applied}
            .draft=${this.code.draft}
            .failure=${codeFailure ? failureFromMessage(codeFailure.message) : null}
            .shareNote=${this.code.shareParam().note}
          ></estimator-editor>
        </section>`
      : nothing;
    const consent = this.code.pending ? html`<consent-dialog .source=${this.code.pending.source} .origin=${this.code.pending.origin}></consent-dialog>` : nothing;
    const durable = html`<durable-bar .runs=${this.durable} .revision=${this.durable.revision} .labels=${Object.fromEntries(methods.map((m) => [m, raceEntry(m).label]))}></durable-bar>`;

    if (present) {
      return html`
        <header class="top">
          <div class="brand"><h1>Beacon <span>Live</span></h1></div>
          <div class="top-actions">${badge}${presentButton}</div>
        </header>
        <settings-alert .issues=${this.issues}></settings-alert>
        ${errors}
        <div class="controls card">${controls}${durable}</div>
        <main class="stage" style="--methods: ${methods.length}">
          <div class="stage-top">${comparison}${tour}</div>
          <div class="episodes">${inspectors}</div>
        </main>
        ${panels} ${help}
      `;
    }
    return html`
      <header class="top">
        <div class="brand">
          <h1>Beacon <span>Live</span></h1>
          <p>${methods.map((m) => raceEntry(m).label).join(', ').replace(/, ([^,]*)$/, ' and $1')} train the same policy on the same tasks, side by side, in your browser. BEACON adds credit for each milestone a run reaches; watch what that does to learning.</p>
        </div>
        <div class="top-actions">${badge}${presentButton}</div>
      </header>
      <settings-alert .issues=${this.issues}></settings-alert>
      ${errors}
      <div class="controls card">
        ${controls}
        <share-export
          .url=${this.shareUrl()}
          .histories=${t.histories}
          .seedRuns=${t.seedRuns}
          .revision=${rev}
          .config=${this.config}
          .backend=${t.backend ? `${t.backend.report.backend}${t.backend.report.adapterName ? ` (${t.backend.report.adapterName})` : ''}; advantages: ${t.backend.advantages}` : ''}
        ></share-export>
        ${durable}
      </div>
      ${tour}

      <main>
        ${comparison}
        <prior-note class="card" .config=${this.config}></prior-note>

        <section class="block live" aria-labelledby="batch-title">
          <h2 id="batch-title">Inside the latest batch</h2>
          <p class="lede">One run per method, replayed step by step, with the credit each step received.</p>
          <div class="pair">${inspectors}</div>
        </section>

        ${panels} ${estimator}

        <section class="block" aria-labelledby="settings-title">
          <h2 id="settings-title">Settings</h2>
          <p class="lede">Every setting is part of the link. Changes marked “needs a restart” apply when every method starts again.</p>
          <method-picker class="card pick" .methods=${methods}></method-picker>
          <settings-form class="card" .config=${this.config} .staged=${this.staged} .page=${this.page}></settings-form>
        </section>

        <section class="block">
          <explainer-section .methods=${methods}></explainer-section>
        </section>
      </main>

      <footer>
        <p>
          Beacon Live implements BEACON (milestone-guided policy learning, ZJU REAL lab, 2026) and its baselines on small
          household tasks. Each method trains in a Web Worker of its own with TensorFlow.js; charts by uPlot. Colours: Okabe–Ito palette.
        </p>
      </footer>
      ${help} ${consent}
    `;
  }

  /** For tests and demonstrations: makes the worker lose its GPU device. */
  loseDevice(): void {
    this.training.loseDevice();
  }

  /** The page's link; `withCode`: with Your estimator's code (the Share link), not in the address bar. */
  private shareUrl(withCode = true): string {
    let q = writePageState({ config: this.config, page: this.page });
    const code = withCode && codeEntries(this.page.methods).length ? this.code.shareParam().value : null;
    if (code !== null) q = `${q ? `${q}&` : ''}${ESTIMATOR_PARAM}=${code}`;
    return `${location.origin}${location.pathname}${q ? `?${q}` : ''}`;
  }

  /**
   * The code the custom panels start with: the code their autosaved run carries (the visitor's own),
   * else the applied code, else (nothing awaiting consent) the GRPO starter. Null while code from a
   * link awaits consent.
   */
  private async startingCode(checkpoints: Checkpoints): Promise<EstimatorCode | null> {
    const entries = codeEntries(this.page.methods);
    if (entries.length === 0) return null;
    const saved = checkpoints[entries[0]];
    const source = saved ? await savedSourceOf(saved) : null;
    if (source !== null) this.code.restoreSaved(source);
    if (this.code.applied === null && !this.code.pending) this.code.apply((await import('../estimator/templates.ts')).GRPO_TEMPLATE);
    this.requestUpdate();
    return this.code.code;
  }

  /** Restarts only the panels that run the visitor's code, with the applied code (from `checkpoint`, or iteration 0). */
  private restartCodeEntries(checkpoint: ArrayBuffer | null): void {
    this.training.estimator = this.code.code;
    // As a Reset would: a running or finished race trains the restarted panel; a paused one keeps it paused.
    const state = this.training.state;
    const running = (state?.running ?? this.page.autostart) || (state?.finished ?? false);
    for (const m of codeEntries(this.page.methods)) this.training.restartEntry(m, this.config, running, checkpoint);
    this.requestUpdate();
  }

  /** Writes the settings in effect to the address bar (debounced: sliders send many events). */
  private writeUrl(): void {
    if (this.urlTimer !== null) clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      this.urlTimer = null;
      const url = this.shareUrl(false);
      if (url !== location.href) history.replaceState(null, '', url);
    }, 250);
  }

  /** "Save run": every panel's latest state and the settings, as a run file (src/page/run-file.ts). */
  private async saveRun(): Promise<void> {
    const file = await this.durable.runFile();
    if ('error' in file) {
      this.training.errors = [...this.training.errors, { message: `Save run: ${file.error}` }];
      this.requestUpdate();
      return;
    }
    downloadBlob(new Blob([file.bytes], { type: 'application/octet-stream' }), file.name);
  }

  /** "Open run": the file's settings take effect and every panel continues from its state, paused. */
  private async openRun(run: RunFile): Promise<void> {
    this.config = run.state.config;
    this.page = run.state.page;
    this.staged = {};
    this.scenario = -1;
    const checkpoints: Checkpoints = Object.fromEntries(run.panels.map((p) => [p.panel, p.bytes]));
    // A run file's code runs only after consent; its panel continues from the file once consented.
    for (const m of codeEntries(this.page.methods)) {
      const bytes = checkpoints[m];
      const source = bytes ? await savedSourceOf(bytes) : null;
      if (!bytes || source === null) continue;
      delete checkpoints[m];
      this.code.pending = { source, origin: 'this run file', checkpoint: bytes };
      this.code.draft = source;
      this.code.applied = null;
      this.training.estimator = null;
    }
    this.training.reset(this.config, false, this.page.methods, checkpoints, this.page.seeds);
    this.writeUrl();
  }

  private onCommand({ command }: TrainingCommandDetail): void {
    const t = this.training;
    if (command === 'pause') t.pause();
    else if (command === 'resume') t.resume();
    else if (command === 'step') t.step();
    else this.restart();
  }

  /** Rebuilds both trainers with the settings in effect plus those waiting for a restart. */
  private restart(): void {
    // A race that newly has Your estimator starts it with the GRPO starter (loaded with the editor).
    if (codeEntries(this.page.methods).length && this.code.applied === null && !this.code.pending) {
      void import('../estimator/templates.ts').then(({ GRPO_TEMPLATE }) => {
        this.code.apply(GRPO_TEMPLATE);
        this.restart();
      });
      return;
    }
    this.training.estimator = this.code.code;
    const state = this.training.state;
    this.config = { ...this.config, ...this.staged };
    this.staged = {};
    this.training.reset(this.config, (state?.running ?? this.page.autostart) || (state?.finished ?? false), this.page.methods, {}, this.page.seeds);
    this.writeUrl();
  }

  private onConfigEdit({ changes }: ConfigEditDetail): void {
    const live: Partial<TrainConfig> = {};
    const staged: Partial<TrainConfig> = { ...this.staged };
    for (const [key, value] of Object.entries(changes) as [keyof TrainConfig, never][]) {
      const spec = fieldSpec(key);
      if (!spec) continue;
      if (spec.restart) {
        if (value === this.config[key]) delete staged[key];
        else staged[key] = value;
      } else if (value !== this.config[key]) {
        live[key] = value;
      }
    }
    this.staged = staged;
    if (Object.keys(live).length) {
      this.config = { ...this.config, ...live };
      this.training.settings(live);
      this.writeUrl();
    }
  }

  private onPageSetting({ changes }: PageSettingDetail): void {
    const methodsChanged = changes.methods !== undefined && changes.methods.join() !== this.page.methods.join();
    const seedsChanged = changes.seeds !== undefined && changes.seeds !== this.page.seeds;
    this.page = { ...this.page, ...changes };
    if (changes.speed) this.training.speed(changes.speed);
    if (methodsChanged || seedsChanged) this.restart();
    this.writeUrl();
  }

  /** Loads a scenario of the tour: its settings over the page defaults, then a restart. */
  private loadScenario({ index }: ScenarioSelectDetail): void {
    const scenario = availableScenarios()[index];
    if (!scenario) return;
    const state = applyPreset(scenario.query, { config: this.config, page: this.page });
    if (!state) return;
    this.scenario = index;
    this.config = state.config;
    this.page = state.page;
    this.staged = {};
    this.restart();
  }

  private onStaged({ action }: StagedDetail): void {
    if (action === 'apply') this.restart();
    else this.staged = {};
  }

  /** Downloads every chart of the page as a PNG, one file each. */
  private async exportCharts(): Promise<void> {
    for (const chart of deepQuery<MetricChart>(this.renderRoot, 'metric-chart')) {
      try {
        downloadBlob(await chart.toPng(), `${chart.filename}.png`);
      } catch {
        // A chart with no data yet has nothing to export.
      }
    }
  }
}

/** Full screen on or off; a browser that refuses (no user gesture, not allowed) leaves things as they are. */
async function toggleFullscreen(): Promise<void> {
  try {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await document.documentElement.requestFullscreen();
  } catch {
    // Refused: nothing to undo.
  }
}

/** All elements matching `selector` in `root` and in every shadow root below it. */
function deepQuery<T extends Element>(root: ParentNode, selector: string): T[] {
  const out: T[] = [...root.querySelectorAll<T>(selector)];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) out.push(...deepQuery<T>(el.shadowRoot, selector));
  return out;
}

customElements.define('beacon-live-app', BeaconLiveApp);

declare global {
  interface HTMLElementTagNameMap {
    'beacon-live-app': BeaconLiveApp;
  }
}
