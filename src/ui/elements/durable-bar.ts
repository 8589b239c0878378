/**
 * <durable-bar>: "Save run" and "Open run", the offer to resume or start fresh after a reload, the
 * notice when autosave cannot work, and the alert naming what is wrong with a bad run file.
 *
 * It reads everything from a DurableRuns controller (durable-runs.ts) and sends its choices up as
 * events. `data-autosaved` holds the lowest iteration autosaved among the panels (for tests and
 * scripts that wait for a save).
 */
import { LitElement, css, html, nothing } from 'lit';
import { RUN_FILE_EXTENSION } from '../../page/run-file.ts';
import type { DurableRuns } from '../controllers/durable-runs.ts';
import { emit } from '../events.ts';
import { sharedStyles, toolbarStyles } from '../theme.ts';

export interface RunOpenDetail {
  file: File;
}

export class DurableBar extends LitElement {
  static override properties = {
    runs: { attribute: false },
    revision: { type: Number },
    labels: { attribute: false },
  };

  declare runs: DurableRuns | null;
  declare revision: number;
  /** Display names of the panels (e.g. "GRPO"). */
  declare labels: Record<string, string>;

  constructor() {
    super();
    this.runs = null;
    this.revision = 0;
    this.labels = {};
  }

  static override styles = [
    sharedStyles,
    toolbarStyles,
    css`
      p {
        margin: 8px 0 0;
        font-size: 0.9rem;
      }
      /*
       * The offer to resume and the autosave notice come after the first paint (once the saved runs have
       * been read): they float at the bottom of the window, so they move nothing on screen.
       */
      .late {
        position: fixed;
        z-index: 40;
        bottom: 16px;
        left: 50%;
        transform: translateX(-50%);
        width: min(44rem, calc(100vw - 24px));
        display: flex;
        flex-direction: column;
        gap: 8px;
      }
      .late p {
        margin: 0;
        padding: 8px 12px;
        border-radius: 10px;
        background: var(--surface);
        box-shadow: 0 6px 24px rgb(0 0 0 / 0.18);
      }
      .late .notice {
        border: 1px solid var(--fg-muted);
      }
      .late .offer {
        border: 1px solid var(--border-strong);
      }
      .file-error {
        padding: 6px 10px;
        border-radius: 8px;
        border: 1px solid var(--danger);
        background: var(--danger-bg);
      }
      input[type='file'] {
        display: none;
      }
    `,
  ];

  protected override willUpdate(): void {
    const saved = Object.values(this.runs?.autosaved ?? {});
    if (saved.length) this.dataset.autosaved = String(Math.min(...saved));
    else delete this.dataset.autosaved;
  }

  override render() {
    const r = this.runs;
    if (!r) return nothing;
    const resumed = r.resumed;
    const at = resumed ? Math.min(...Object.values(resumed)) : 0;
    const name = (p: string) => this.labels[p] ?? p;
    return html`<div class="row" role="group" aria-label="Save and open runs">
        <button type="button" @click=${() => emit(this, 'run-save', {})}>Save run</button>
        <button type="button" @click=${() => this.renderRoot.querySelector('input')!.click()}>Open run</button>
        <input type="file" accept=${RUN_FILE_EXTENSION} aria-label="Run file to open" @change=${this.picked} />
        <span class="status" role="status">${r.fileStatus}</span>
      </div>
      <div class="late">
      ${
        resumed
          ? html`<p class="offer">
            Saved in this browser: ${Object.entries(resumed)
              .map(([p, i]) => `${name(p)} at iteration ${i}`)
              .join(', ')}.
            <button type="button" class="primary" aria-pressed="true" @click=${() => emit(this, 'run-resume', {})}>Resume at iteration ${at}</button>
            <button type="button" @click=${() => emit(this, 'run-fresh', {})}>Start fresh</button>
          </p>`
          : nothing
      }
      ${r.storageNotice ? html`<p class="notice" role="status" data-storage-notice>${r.storageNotice}</p>` : nothing}
      </div>
      ${r.fileError ? html`<p class="file-error" role="alert">${r.fileError}</p>` : nothing}`;
  }

  private picked = (e: Event) => {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    input.value = ''; // the same file can be opened again
    if (file) emit<RunOpenDetail>(this, 'run-open', { file });
  };
}

customElements.define('durable-bar', DurableBar);

declare global {
  interface HTMLElementTagNameMap {
    'durable-bar': DurableBar;
  }
  interface HTMLElementEventMap {
    'run-save': CustomEvent<Record<string, never>>;
    'run-open': CustomEvent<RunOpenDetail>;
    'run-resume': CustomEvent<Record<string, never>>;
    'run-fresh': CustomEvent<Record<string, never>>;
  }
}
