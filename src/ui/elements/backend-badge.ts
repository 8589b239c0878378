/**
 * <backend-badge>: which tfjs backend trains the policies, with the WebGPU adapter's name or the reason
 * for the fallback, the probe's figures when `auto` chose by measurement, a software adapter named as
 * such, where and why an `auto` race moved to WebGPU (or that the choice was remembered from an earlier
 * visit), and what happened after a lost GPU device.
 *
 * The host carries `data-backend` (webgpu | wasm | cpu) once the worker has chosen: the contract the
 * end-to-end tests read.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { BackendReport } from '../../backend/select.ts';
import type { ProbeOutcome } from '../../page/backend-choice.ts';
import { sharedStyles } from '../theme.ts';
import { emit } from '../events.ts';

const NAMES: Record<BackendReport['backend'], string> = {
  webgpu: 'WebGPU',
  wasm: 'WebAssembly',
  cpu: 'CPU (JavaScript)',
};

export class BackendBadge extends LitElement {
  static override properties = {
    report: { attribute: false },
    advantages: { type: String },
    recovery: { type: String },
    failure: { type: String },
    probe: { attribute: false },
    probing: { type: Boolean },
    measurable: { type: Boolean },
    note: { type: String },
  };

  declare report: BackendReport | null;
  /** Where the advantages are computed ('webgpu-kernels' or 'cpu'); empty until known. */
  declare advantages: string;
  /** After a device loss: what was lost and where training continues. */
  declare recovery: string;
  /** No backend could start (the worker failed). */
  declare failure: string;
  /** How `auto` was decided by measurement, when it was. */
  declare probe: ProbeOutcome | null;
  /** The probe is running. */
  declare probing: boolean;
  /** "Measure again" can run (the race is under `auto`, no measurement under way). */
  declare measurable: boolean;
  /** Under `auto`: "moved to webgpu at iteration 5: 3.1× faster than wasm on this adapter", or empty. */
  declare note: string;

  constructor() {
    super();
    this.report = null;
    this.advantages = '';
    this.recovery = '';
    this.failure = '';
    this.probe = null;
    this.probing = false;
    this.measurable = false;
    this.note = '';
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        min-width: 0;
      }
      .badge {
        display: inline-flex;
        align-items: center;
        gap: 8px;
        max-width: 100%;
        padding: 6px 12px;
        border-radius: 999px;
        border: 1px solid var(--border);
        background: var(--surface);
        font-size: 0.85rem;
      }
      .dot {
        flex: none;
        width: 10px;
        height: 10px;
        border-radius: 50%;
        background: var(--fg-muted);
      }
      .dot.webgpu {
        background: var(--ok);
      }
      .dot.fallback {
        background: var(--warn);
      }
      .name {
        font-weight: 650;
      }
      .kernels {
        padding: 1px 8px;
        border-radius: 999px;
        background: var(--surface-2);
        border: 1px solid var(--border);
        font-size: 0.75rem;
        white-space: nowrap;
      }
      .detail {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        color: var(--fg-muted);
      }
      .reason,
      .note,
      .recovery {
        margin: 6px 4px 0;
        font-size: 0.8rem;
        color: var(--fg-muted);
        overflow-wrap: anywhere;
      }
      .recovery {
        color: var(--fg);
      }
      .probe {
        margin: 6px 4px 0;
        font-size: 0.8rem;
      }
      .probe .figures {
        color: var(--fg-muted);
        font-variant-numeric: tabular-nums;
      }
    `,
  ];

  protected override updated(): void {
    if (this.report) this.dataset.backend = this.report.backend;
    else delete this.dataset.backend;
  }

  override render() {
    const r = this.report;
    if (!r) {
      return html`<span class="badge" role="status"
        ><span class="dot"></span><span class="name">${this.failure ? 'No backend' : this.probing ? 'Measuring backends…' : 'Starting…'}</span
        >${this.failure ? html`<span class="detail">${this.failure}</span>` : this.probing ? html`<span class="detail">timing wasm and this GPU adapter on a throw-away copy</span>` : nothing}</span
      >`;
    }
    const fallback = r.fallbackReason !== undefined;
    const p = this.probe;
    const detail = fallback
      ? 'fallback'
      : r.backend === 'webgpu'
        ? `${r.adapterName ?? 'unknown adapter'}${r.software ? ' (software adapter)' : ''}`
        : p
          ? 'chosen by measurement'
          : this.probing
            ? 'measuring WebGPU in the background'
            : 'as chosen in the settings';
    return html`
      <span class="badge" role="status" title=${this.advantages === 'webgpu-kernels' ? 'Advantages computed by the WGSL kernels on the GPU' : 'Advantages computed by the CPU reference'}>
        <span class="dot ${fallback ? 'fallback' : r.backend === 'webgpu' ? 'webgpu' : ''}"></span>
        <span class="name">${NAMES[r.backend]}</span>
        <span class="detail">${detail}</span>
        ${this.advantages === 'webgpu-kernels' ? html`<span class="kernels">WGSL kernels</span>` : nothing}
      </span>
      ${fallback ? html`<p class="reason">Fallback because ${r.fallbackReason}</p>` : nothing}
      ${
        p
          ? html`<p class="probe">
            <span class="choice">${p.reason}</span><br />
            <span class="figures" data-measured
              >${
                p.measured
                  ? `${p.measured[0].toUpperCase()}${p.measured.slice(1)}${p.adapterName ? ` (adapter: ${p.adapterName}${p.software ? ', software' : ''})` : ''}`
                  : html`One training step: wasm ${ms(p.wasmMs)}, WebGPU${p.adapterName ? ` (${p.adapterName}${p.software ? ', software' : ''})` : ''}
                      ${p.webgpuStoppedAfterMs !== undefined ? `> ${ms(p.webgpuStoppedAfterMs)} (stopped)` : ms(p.webgpuMs)}`
              }</span
            >
            ${this.measurable ? html`<button type="button" class="measure-again" @click=${() => emit(this, 'measure-again', {})}>Measure again</button>` : nothing}
          </p>`
          : nothing
      }
      ${this.note ? html`<p class="note">${this.note[0].toUpperCase()}${this.note.slice(1)}</p>` : nothing}
      ${this.recovery ? html`<p class="recovery" role="alert">${this.recovery}</p>` : nothing}
    `;
  }
}

function ms(x: number | null): string {
  if (x === null) return 'failed';
  return x >= 1000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`;
}

customElements.define('backend-badge', BackendBadge);

declare global {
  interface HTMLElementTagNameMap {
    'backend-badge': BackendBadge;
  }
}
