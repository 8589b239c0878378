/**
 * <scenario-tour>: the guided tour. Shows one scenario (title, narrative, what to look at) with previous
 * and next, and a list to jump to any. Loading one is the page's job: this element sends
 * `scenario-select` with the scenario's index among `scenarios` and computes nothing.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { Scenario } from '../../page/scenarios.ts';
import { emit, type ScenarioSelectDetail } from '../events.ts';
import { sharedStyles } from '../theme.ts';

export class ScenarioTour extends LitElement {
  static override properties = {
    scenarios: { attribute: false },
    index: { type: Number },
    compact: { type: Boolean, reflect: true },
  };

  /** The scenarios available now, in tour order (numbered 1–9 for the keyboard). */
  declare scenarios: readonly Scenario[];
  /** The scenario loaded, or -1 for none. */
  declare index: number;
  /** Presenter mode: the narrative only, larger. */
  declare compact: boolean;

  constructor() {
    super();
    this.scenarios = [];
    this.index = -1;
    this.compact = false;
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .bar {
        display: flex;
        flex-wrap: wrap;
        gap: 8px 12px;
        align-items: center;
      }
      h3 {
        margin: 10px 0 4px;
        font-size: 1.05rem;
      }
      p {
        margin: 0 0 6px;
        max-width: 80ch;
        line-height: 1.5;
      }
      .look {
        color: var(--fg-muted);
      }
      :host([compact]) p {
        max-width: none;
      }
      kbd {
        font: inherit;
        font-size: 0.8em;
        padding: 0 4px;
        border: 1px solid var(--border);
        border-radius: 4px;
      }
    `,
  ];

  override render() {
    const s = this.index >= 0 ? this.scenarios[this.index] : undefined;
    const n = this.scenarios.length;
    return html`<section aria-label="Guided tour" aria-live="polite">
      <div class="bar">
        <button type="button" ?disabled=${n === 0} @click=${() => this.go(this.index <= 0 ? n - 1 : this.index - 1)} aria-label="Previous scenario">◀ Previous</button>
        <label
          >Scenario
          <select @change=${(e: Event) => this.go(Number((e.target as HTMLSelectElement).value))}>
            <option value="-1" ?selected=${this.index < 0} disabled>Choose a scenario…</option>
            ${this.scenarios.map((sc, i) => html`<option value=${i} ?selected=${i === this.index}>${i + 1}. ${sc.title}</option>`)}
          </select></label
        >
        <button type="button" ?disabled=${n === 0} @click=${() => this.go(this.index >= n - 1 ? 0 : this.index + 1)} aria-label="Next scenario">Next ▶</button>
        ${this.compact ? nothing : html`<span class="look">Keys <kbd>1</kbd>–<kbd>${Math.min(9, n)}</kbd> load a scenario, <kbd>?</kbd> lists every shortcut.</span>`}
      </div>
      ${
        s
          ? html`<h3 data-scenario=${s.id}>${this.index + 1}. ${s.title}</h3>
            <p class="narrative">${s.narrative}</p>
            <p class="look"><b>What to look at:</b> ${s.lookAt}</p>`
          : this.compact
            ? html`<p class="look">Choose a scenario (keys <kbd>1</kbd>–<kbd>${Math.min(9, n)}</kbd>): its story and what to look at show here.</p>`
            : nothing
      }
    </section>`;
  }

  private go(index: number): void {
    if (index < 0 || index >= this.scenarios.length) return;
    emit<ScenarioSelectDetail>(this, 'scenario-select', { index });
  }
}

customElements.define('scenario-tour', ScenarioTour);

declare global {
  interface HTMLElementTagNameMap {
    'scenario-tour': ScenarioTour;
  }
}
