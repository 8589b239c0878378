/**
 * <consent-dialog>: code that arrived by link (or in an opened run file) does not run until the
 * visitor has read it and pressed "Run this code". "Don't run" keeps it in the editor, not running.
 * A modal role="dialog" that takes the focus; Escape means "Don't run".
 *
 * Events: `estimator-consent` { run } with the choice.
 */
import { LitElement, css, html } from 'lit';
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
        first: it would run in that panel's worker, away from this page. The page never sends code anywhere.
      </p>
      <pre tabindex="0" aria-label="The code">${this.source}</pre>
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
