/**
 * <settings-alert>: names every URL parameter the page could not use, and what it used instead.
 * A visible role="alert" message, dismissible; nothing in the URL is coerced silently.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { ConfigIssue } from '../../config.ts';
import { sharedStyles } from '../theme.ts';

export class SettingsAlert extends LitElement {
  static override properties = {
    issues: { attribute: false },
    dismissed: { state: true },
  };

  declare issues: ConfigIssue[];
  declare private dismissed: boolean;

  constructor() {
    super();
    this.issues = [];
    this.dismissed = false;
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .alert {
        display: flex;
        gap: 12px;
        align-items: flex-start;
        padding: 12px 16px;
        border-radius: 10px;
        border: 1px solid var(--danger);
        background: var(--danger-bg);
      }
      .alert div {
        flex: 1;
        min-width: 0;
      }
      p {
        margin: 0 0 4px;
        font-weight: 650;
      }
      ul {
        margin: 0;
        padding-left: 1.2em;
        font-size: 0.88rem;
        overflow-wrap: anywhere;
      }
      code {
        font: 0.85em var(--mono);
        font-weight: 700;
      }
    `,
  ];

  override render() {
    if (!this.issues.length || this.dismissed) return nothing;
    const n = this.issues.length;
    return html`<div class="alert" role="alert">
      <div>
        <p>${n === 1 ? 'One URL parameter was not used' : `${n} URL parameters were not used`}; the defaults apply instead:</p>
        <ul>
          ${this.issues.map((i) => html`<li data-field=${i.field}><code>${i.field}</code>: ${i.message}</li>`)}
        </ul>
      </div>
      <button type="button" @click=${() => (this.dismissed = true)} aria-label="Dismiss the URL parameter message">Dismiss</button>
    </div>`;
  }
}

customElements.define('settings-alert', SettingsAlert);

declare global {
  interface HTMLElementTagNameMap {
    'settings-alert': SettingsAlert;
  }
}
