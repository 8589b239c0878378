/**
 * <cost-check>: before a wide race starts on wasm or cpu ("Thousands of runs"), a modal dialog that says
 * what it will cost on this machine (an estimate from what was measured here, src/page/scale-estimate.ts)
 * and lets the visitor run it anyway or keep the race they have. Sends `cost-answer` with `run`.
 * A modal dialog floats over the page: opening it moves nothing.
 */
import { LitElement, css, html } from 'lit';
import type { CostEstimate } from '../../page/scale-estimate.ts';
import { emit } from '../events.ts';
import { sharedStyles } from '../theme.ts';

export interface CostAnswerDetail {
  run: boolean;
}

export class CostCheck extends LitElement {
  static override properties = {
    estimate: { attribute: false },
    heading: { type: String },
  };

  declare estimate: CostEstimate | null;
  /** What is about to load ("Thousands of runs"). */
  declare heading: string;

  constructor() {
    super();
    this.estimate = null;
    this.heading = '';
  }

  static override styles = [
    sharedStyles,
    css`
      dialog {
        max-width: min(36rem, calc(100vw - 32px));
        padding: 18px 20px;
        border-radius: 12px;
        border: 1px solid var(--border-strong);
        background: var(--surface);
        color: var(--fg);
      }
      dialog::backdrop {
        background: rgb(0 0 0 / 0.35);
      }
      h2 {
        margin: 0 0 8px;
        font-size: 1.1rem;
      }
      p {
        margin: 0 0 14px;
        line-height: 1.5;
      }
      .buttons {
        display: flex;
        gap: 10px;
        justify-content: flex-end;
      }
    `,
  ];

  override firstUpdated(): void {
    this.renderRoot.querySelector('dialog')?.showModal();
  }

  override render() {
    const e = this.estimate;
    return html`<dialog aria-labelledby="cost-title" @cancel=${(ev: Event) => this.answer(ev, false)}>
      <h2 id="cost-title">${this.heading}: what it costs here</h2>
      <p data-cost-estimate=${e?.secondsPerIteration ?? ''}>${e?.text ?? ''}</p>
      <p class="muted">On a GPU (WebGPU) the same race plays thousands of runs in a few dispatches per step.</p>
      <div class="buttons">
        <button type="button" @click=${(ev: Event) => this.answer(ev, false)}>Keep the current race</button>
        <button type="button" class="primary" data-cost-run @click=${(ev: Event) => this.answer(ev, true)}>Run it anyway</button>
      </div>
    </dialog>`;
  }

  private answer(ev: Event, run: boolean): void {
    ev.preventDefault();
    this.renderRoot.querySelector('dialog')?.close();
    emit<CostAnswerDetail>(this, 'cost-answer', { run });
  }
}

customElements.define('cost-check', CostCheck);

declare global {
  interface HTMLElementTagNameMap {
    'cost-check': CostCheck;
  }
  interface HTMLElementEventMap {
    'cost-answer': CustomEvent<CostAnswerDetail>;
  }
}
