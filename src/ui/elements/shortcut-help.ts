/**
 * <shortcut-help>: the keyboard shortcuts overlay (a modal dialog, opened with "?", closed with Escape
 * or its button). The list is the shortcut table of shortcut-controller.ts, so the help cannot drift
 * from what the keys do. Sends `help-close` when closed.
 */
import { LitElement, css, html } from 'lit';
import { SHORTCUTS } from '../controllers/shortcut-controller.ts';
import { emit } from '../events.ts';
import { sharedStyles } from '../theme.ts';

export class ShortcutHelp extends LitElement {
  static override properties = {
    open: { type: Boolean, reflect: true },
  };

  declare open: boolean;

  constructor() {
    super();
    this.open = false;
  }

  static override styles = [
    sharedStyles,
    css`
      dialog {
        border: 1px solid var(--border);
        border-radius: 12px;
        background: var(--surface);
        color: var(--fg);
        padding: 18px 22px;
        max-width: min(92vw, 560px);
      }
      dialog::backdrop {
        background: rgb(0 0 0 / 0.4);
      }
      h2 {
        margin: 0 0 10px;
        font-size: 1.2rem;
      }
      dl {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 6px 16px;
        margin: 0 0 14px;
      }
      dd {
        margin: 0;
      }
      kbd {
        font: inherit;
        padding: 0 6px;
        border: 1px solid var(--border);
        border-radius: 4px;
        background: var(--surface-2);
      }
    `,
  ];

  protected override updated(): void {
    const dialog = this.renderRoot.querySelector('dialog')!;
    if (this.open && !dialog.open) dialog.showModal();
    else if (!this.open && dialog.open) dialog.close();
  }

  override render() {
    return html`<dialog aria-labelledby="help-title" @close=${this.onClose}>
      <h2 id="help-title">Keyboard shortcuts</h2>
      <dl>${SHORTCUTS.map((s) => html`<dt><kbd>${s.keys}</kbd></dt><dd>${s.doc}</dd>`)}</dl>
      <button type="button" class="primary" @click=${() => this.renderRoot.querySelector('dialog')!.close()}>Close</button>
    </dialog>`;
  }

  private onClose = () => {
    if (this.open) emit(this, 'help-close', {});
  };
}

customElements.define('shortcut-help', ShortcutHelp);

declare global {
  interface HTMLElementTagNameMap {
    'shortcut-help': ShortcutHelp;
  }
}
