/**
 * <consent-dialog>: code that arrived by link (or in an opened run file) does not run until the
 * visitor has read it and pressed "Run this code". "Don't run" keeps it in the editor, not running.
 * A modal role="dialog" that takes the focus; Escape means "Don't run". Beside the code it says what the
 * code can and cannot do, which is what the estimator sandbox enforces (src/estimator/sandbox-frame.ts:
 * an opaque origin with no connection allowed).
 *
 * Events: `estimator-consent` { run } with the choice.
 */
import { LitElement, css, html } from 'lit';
import { DEFAULT_ESTIMATOR_TIMEOUT_S } from '../../estimator/limits.ts';
import { emit } from '../events.ts';
import { sharedStyles } from '../theme.ts';

export interface EstimatorConsentDetail {
  run: boolean;
}

export class ConsentDialog extends LitElement {
  static override properties = {
    source: { attribute: false },
    origin: { attribute: false },
  };

  /** The code awaiting consent. */
  declare source: string;
  /** Where it came from, for the text: "this link" or "this run file". */
  declare origin: string;

  constructor() {
    super();
    this.source = '';
    this.origin = 'this link';
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        position: fixed;
        inset: 0;
        z-index: 20;
        display: grid;
        place-items: center;
        background: rgb(0 0 0 / 45%);
        padding: 16px;
      }
      [role='dialog'] {
        max-width: min(760px, 100%);
        max-height: 90vh;
        display: flex;
        flex-direction: column;
        gap: 10px;
        background: var(--surface);
        border: 1px solid var(--border);
        border-radius: 12px;
        padding: 18px 20px;
      }
      pre {
        margin: 0;
        overflow: auto;
        padding: 10px 12px;
        border: 1px solid var(--border);
        border-radius: 8px;
        font: 0.82rem var(--mono);
        white-space: pre;
      }
      p {
        margin: 0;
      }
      .body {
        display: flex;
        flex-wrap: wrap;
        gap: 12px;
        min-height: 0;
        overflow: auto;
      }
      .body pre {
        flex: 2 1 320px;
      }
      .rights {
        flex: 1 1 200px;
        font-size: 0.9rem;
      }
      .rights h3 {
        margin: 0 0 4px;
        font-size: 0.95rem;
      }
      .rights ul {
        margin: 0 0 10px;
        padding-left: 1.2em;
      }
      .buttons {
        display: flex;
        gap: 10px;
        justify-content: flex-end;
      }
    `,
  ];

  protected override firstUpdated(): void {
    this.renderRoot.querySelector<HTMLButtonElement>('button.decline')?.focus();
  }

  private choose(run: boolean): void {
    emit<EstimatorConsentDetail>(this, 'estimator-consent', { run });
  }

  override render() {
    return html`<div role="dialog" aria-modal="true" aria-labelledby="consent-title" aria-describedby="consent-text" @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && this.choose(false)}>
      <h2 id="consent-title">Run code from ${this.origin}?</h2>
      <p id="consent-text">
        ${this.origin === 'this link' ? 'This link' : 'This run file'} carries an estimator (JavaScript) for the Your estimator panel. Nothing of it has run. Read it
        first.
      </p>
      <div class="body">
        <pre tabindex="0" aria-label="The code">${this.source}</pre>
        <div class="rights" aria-label="What this code can and cannot do">
          <h3>What it can do</h3>
          <ul>
            <li>Compute on the batch of runs each training step hands it (rewards, milestones, states), and give back that panel's credit per step.</li>
            <li>Use this computer's processor for up to ${DEFAULT_ESTIMATOR_TIMEOUT_S} seconds per step; then it is stopped.</li>
          </ul>
          <h3>What it cannot do</h3>
          <ul>
            <li>Reach the internet or any other address: nothing it computes leaves this browser.</li>
            <li>Read or change your saved runs.</li>
            <li>Change this page, now or on a later visit, or see anything else on it.</li>
          </ul>
        </div>
      </div>
      <div class="buttons">
        <button type="button" class="decline" @click=${() => this.choose(false)}>Don't run</button>
        <button type="button" class="run" @click=${() => this.choose(true)}>Run this code</button>
      </div>
    </div>`;
  }
}

customElements.define('consent-dialog', ConsentDialog);

declare global {
  interface HTMLElementTagNameMap {
    'consent-dialog': ConsentDialog;
  }
  interface HTMLElementEventMap {
    'estimator-consent': CustomEvent<EstimatorConsentDetail>;
  }
}
