/**
 * <prior-note>: one line under the race chart that says where every method starts: from an SFT prior of
 * N oracle episodes (docs/maths.md §9) or from random weights, with a control for N. The chart's
 * iteration-0 point is measured on exactly these weights.
 *
 * N is the `sftEpisodes` setting of the one settings table, parsed by its own parser; a valid change is
 * sent as `config-edit` followed by `staged-settings: apply`, because a new prior means a new race.
 */
import { LitElement, css, html, nothing } from 'lit';
import { fieldSpec, parseField, describeRange, type TrainConfig } from '../../config.ts';
import { priorEpisodes, priorEpochs } from '../../trainer/prior-size.ts';
import { emit, type ConfigEditDetail, type StagedDetail } from '../events.ts';
import { sharedStyles } from '../theme.ts';

export class PriorNote extends LitElement {
  static override properties = {
    config: { attribute: false },
    error: { state: true },
  };

  declare config: TrainConfig | null;
  declare private error: string;

  constructor() {
    super();
    this.config = null;
    this.error = '';
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        font-size: 0.9rem;
      }
      form {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 6px 12px;
      }
      input {
        width: 5.5em;
      }
      .error {
        color: var(--danger);
        flex-basis: 100%;
      }
    `,
  ];

  override render() {
    const c = this.config;
    if (!c) return nothing;
    const n = priorEpisodes(c);
    // Named only where the environment's calibrated prior passes more often than the sftEpochs setting says.
    const passes = priorEpochs(c) === c.sftEpochs ? '' : `, ${priorEpochs(c)} passes over them`;
    const auto = c.sftEpisodes === 'auto' ? html` (<code>auto</code>, calibrated for ${c.env}${passes})` : nothing;
    const text =
      n === 0
        ? html`Every method starts from <b>random weights</b> (no SFT prior).`
        : html`Every method starts from an <b>SFT prior of ${n} oracle episodes</b>${auto}: the same weights for all, and the chart’s iteration 0 is measured on them.`;
    return html`<form @submit=${this.onSubmit} aria-label="SFT prior">
      <span data-prior-episodes=${n}>${text}</span>
      <label>Oracle episodes <input name="sftEpisodes" .value=${String(c.sftEpisodes)} aria-describedby="prior-range" /></label>
      <button type="submit">Restart with this prior</button>
      <span id="prior-range" class="muted">${describeRange(fieldSpec('sftEpisodes')!)}; 0 = random init</span>
      ${this.error ? html`<span class="error" role="alert">${this.error}</span>` : nothing}
    </form>`;
  }

  private onSubmit(e: SubmitEvent): void {
    e.preventDefault();
    const input = (e.currentTarget as HTMLFormElement).elements.namedItem('sftEpisodes') as HTMLInputElement;
    const parsed = parseField(fieldSpec('sftEpisodes')!, input.value.trim());
    if ('error' in parsed) {
      this.error = parsed.error;
      return;
    }
    this.error = '';
    emit<ConfigEditDetail>(this, 'config-edit', { changes: { sftEpisodes: parsed.value as TrainConfig['sftEpisodes'] } });
    emit<StagedDetail>(this, 'staged-settings', { action: 'apply' });
  }
}

customElements.define('prior-note', PriorNote);

declare global {
  interface HTMLElementTagNameMap {
    'prior-note': PriorNote;
  }
}
