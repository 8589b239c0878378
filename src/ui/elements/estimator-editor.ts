/**
 * <estimator-editor>: "Your estimator": the code of the custom panel, starter templates, Apply (which
 * restarts only that panel, from the race's prior and seed), the share-link status and the latest
 * failure at its line. The page loads this element (and CodeMirror with it, code-editor.ts) only when
 * the race has Your estimator. It computes nothing: it holds the draft and sends events up.
 *
 * Events: `estimator-apply` { source } when Apply is pressed.
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { ESTIMATOR_TEMPLATES } from '../../estimator/templates.ts';
import type { FailureData } from '../../estimator/failure.ts';
import { emit } from '../events.ts';
import { sharedStyles } from '../theme.ts';
import type { CodeEditor } from './code-editor.ts';

export interface EstimatorApplyDetail {
  source: string;
}

export class EstimatorEditor extends LitElement {
  static override properties = {
    applied: { attribute: false },
    draft: { attribute: false },
    failure: { attribute: false },
    shareNote: { attribute: false },
    editorReady: { state: true },
  };

  /** The code the panel runs now (null: none yet, e.g. code from a link awaiting consent). */
  declare applied: string | null;
  /** The code in the editor. */
  declare draft: string;
  /** The panel's latest failure, shown at its line. */
  declare failure: FailureData | null;
  /** Why the share link leaves the code out (over 6 KB), or ''. */
  declare shareNote: string;
  declare private editorReady: boolean;
  private editor: CodeEditor | null = null;

  constructor() {
    super();
    this.applied = null;
    this.draft = '';
    this.failure = null;
    this.shareNote = '';
    this.editorReady = false;
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .head {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        justify-content: space-between;
        gap: 8px 16px;
        margin-bottom: 8px;
      }
      .templates {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        align-items: center;
        font-size: 0.88rem;
      }
      .code {
        border: 1px solid var(--border);
        border-radius: 8px;
        overflow: hidden;
        min-height: 12rem;
        font-size: 0.85rem;
      }
      .code .cm-editor {
        max-height: 28rem;
      }
      textarea {
        display: block;
        width: 100%;
        min-height: 16rem;
        border: 0;
        padding: 8px;
        font: 0.85rem var(--mono);
        color: var(--fg);
        background: var(--surface);
        resize: vertical;
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 8px 16px;
        align-items: center;
        margin-top: 8px;
        font-size: 0.88rem;
      }
      .failure {
        margin: 8px 0 0;
        padding: 8px 12px;
        border: 1px solid var(--danger);
        background: var(--danger-bg);
        border-radius: 8px;
        font: 0.85rem var(--mono);
        overflow-wrap: anywhere;
      }
    `,
  ];

  protected override firstUpdated(): void {
    const host = this.renderRoot.querySelector<HTMLElement>('.code')!;
    void import('./code-editor.ts').then(
      ({ createCodeEditor }) => {
        host.replaceChildren();
        this.editor = createCodeEditor(host, this.renderRoot as ShadowRoot, this.draft, 'Estimator code', (text) => {
          this.draft = text;
        });
        this.editorReady = true;
        this.editor.showError(this.failureAtLine());
      },
      () => {
        // The editor's chunk did not load (offline without it cached): the plain text area stays.
      },
    );
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('draft')) this.editor?.setText(this.draft);
    if (changed.has('failure')) this.editor?.showError(this.failureAtLine());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.editor?.destroy();
    this.editor = null;
  }

  private failureAtLine(): { line: number; message: string } | null {
    return this.failure?.line === undefined ? null : { line: this.failure.line, message: this.failure.message };
  }

  private useTemplate(source: string): void {
    this.draft = source;
  }

  private apply(): void {
    const source = this.editor?.text ?? this.draft;
    this.draft = source;
    emit<EstimatorApplyDetail>(this, 'estimator-apply', { source });
  }

  override render() {
    const edited = this.applied === null || this.draft !== this.applied;
    return html`
      <div class="head">
        <h2 id="estimator-title">Your estimator</h2>
        <div class="templates" role="group" aria-label="Starter templates">
          <span class="muted">Start from:</span>
          ${ESTIMATOR_TEMPLATES.map((t) => html`<button type="button" @click=${() => this.useTemplate(t.source)}>${t.label}</button>`)}
        </div>
      </div>
      <p class="muted">
        <code>export default function estimate(batch, settings)</code> returns one advantage per step of every run:
        <code>batch.groups[g][i]</code> is run <code>i</code> of group <code>g</code> (reward, success, length, milestones, stateKeys,
        milestonesReached, numMilestones). It runs in the panel's own worker, never on this page, with a 10 s limit per call.
      </p>
      <div class="code">
        <textarea aria-label="Estimator code" spellcheck="false" .value=${this.draft} @input=${(e: Event) => (this.draft = (e.target as HTMLTextAreaElement).value)}></textarea>
      </div>
      <div class="actions">
        <button type="button" class="apply" @click=${() => this.apply()}>Apply</button>
        <span class="muted" data-editor-ready=${this.editorReady ? 'true' : 'false'}>
          ${this.applied === null ? 'Not running yet: press Apply to run this code.' : edited ? 'Edited: Apply restarts only Your estimator, from the same prior and seed.' : 'Running in the Your estimator panel.'}
        </span>
        ${this.shareNote ? html`<span class="share-note">${this.shareNote}</span>` : nothing}
      </div>
      ${this.failure ? html`<p class="failure">${this.failure.message}</p>` : nothing}
    `;
  }
}

customElements.define('estimator-editor', EstimatorEditor);

declare global {
  interface HTMLElementTagNameMap {
    'estimator-editor': EstimatorEditor;
  }
  interface HTMLElementEventMap {
    'estimator-apply': CustomEvent<EstimatorApplyDetail>;
  }
}
