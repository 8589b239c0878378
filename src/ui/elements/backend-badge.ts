/**
 * <backend-badge>: which tfjs backend trains the policies, with the WebGPU adapter's name or the reason
 * for the fallback, the probe's figures when `auto` chose by measurement, a software adapter named as
 * such, where and why an `auto` race moved to WebGPU (or that the choice was remembered from an earlier
 * visit), and what happened after a lost GPU device.
 *
 * The badge keeps one line (a button); its explanation (the fallback's reason, the probe's figures, the
 * notes) opens on demand under it, over the page, so late news never moves what is already on screen.
 * A recovery is also announced to screen readers as an alert.
 *
 * The host carries `data-backend` (webgpu | wasm | cpu) once the worker has chosen: the contract the
 * end-to-end tests read.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { BackendReport } from '../../backend/select.ts';
import type { ProbeOutcome } from '../../page/backend-choice.ts';
import { sharedStyles } from '../theme.ts';
import { emit, type SeedOfferDetail } from '../events.ts';
import type { SeedOffer } from '../../page/seed-offer.ts';

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
    offer: { attribute: false },
    open: { type: Boolean, reflect: true },
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
  /** On WebGPU under `auto`: more seeds for little more than one seed's iteration, measured (src/page/seed-offer.ts); null: none. */
  declare offer: SeedOffer | null;
  /** The explanation under the badge is open. */
  declare open: boolean;

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
    this.offer = null;
    this.open = false;
  }

  static override styles = [
    sharedStyles,
    css`
      /*
       * One line, whatever arrives later: the verdict, a note and a recovery open on demand in an overlay
       * under the badge, so nothing on the page moves when they come.
       */
      :host {
        display: block;
        min-width: 0;
        position: relative;
      }
      .badge {
        display: flex;
        align-items: center;
        gap: 8px;
        width: 100%;
        min-height: 34px;
        padding: 4px 12px;
        border-radius: 999px;
        border: 1px solid var(--border);
        background: var(--surface);
        font-size: 0.85rem;
        font-weight: 400;
        white-space: nowrap;
        text-align: left;
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
        flex: none;
        font-weight: 650;
      }
      .kernels {
        flex: none;
        padding: 1px 8px;
        border-radius: 999px;
        background: var(--surface-2);
        border: 1px solid var(--border);
        font-size: 0.75rem;
      }
      .detail {
        flex: 1 1 auto;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        color: var(--fg-muted);
      }
      /* The disclosure's arrow, drawn by CSS so that the badge's text stays its words alone. */
      .badge::after {
        content: '▾';
        flex: none;
        margin-left: auto;
        color: var(--fg-muted);
      }
      .badge[aria-expanded='true']::after {
        content: '▴';
      }
      .details {
        position: absolute;
        z-index: 30;
        top: calc(100% + 6px);
        left: 0;
        right: 0;
        padding: 10px 14px;
        border-radius: 10px;
        border: 1px solid var(--border-strong);
        background: var(--surface);
        box-shadow: 0 6px 24px rgb(0 0 0 / 0.18);
        font-size: 0.8rem;
        overflow-wrap: anywhere;
      }
      .details[hidden] {
        display: none;
      }
      .details p {
        margin: 0 0 6px;
      }
      .details p:last-child {
        margin-bottom: 0;
      }
      .reason,
      .note {
        color: var(--fg-muted);
      }
      /* The offer of more seeds: beside the badge, visible without opening it. */
      .seed-offer {
        margin-left: 6px;
        min-height: 28px;
        padding: 2px 10px;
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

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('pointerdown', this.outside);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('pointerdown', this.outside);
  }

  /** A press anywhere outside the badge closes its explanation. */
  private outside = (e: PointerEvent) => {
    if (this.open && !e.composedPath().includes(this)) this.open = false;
  };

  private onKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !this.open) return;
    e.stopPropagation();
    this.open = false;
    this.renderRoot.querySelector<HTMLButtonElement>('button.badge')?.focus();
  };

  override render() {
    const { name, detail, dot } = this.summary();
    const line = `${name}${detail ? `: ${detail}` : ''}`;
    return html`<div class="wrap" @keydown=${this.onKey}>
      <button
        type="button"
        class="badge"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="backend-details"
        title=${line}
        @click=${() => (this.open = !this.open)}
      >
        <span class="dot ${dot}"></span>
        <span class="name">${name}</span>
        <span class="detail">${detail}</span>
        ${this.advantages === 'webgpu-kernels' ? html`<span class="kernels">WGSL kernels</span>` : nothing}
      </button>
      ${
        this.offer
          ? html`<button type="button" class="seed-offer" data-seed-offer=${this.offer.seeds} title=${this.offer.detail} @click=${() => emit<SeedOfferDetail>(this, 'seed-offer', { seeds: this.offer!.seeds })}>
              ${this.offer.text}
            </button>`
          : nothing
      }
      <span class="visually-hidden" role="status">${line}</span>
      ${this.recovery ? html`<span class="visually-hidden" role="alert">${this.recovery}</span>` : nothing}
      <div id="backend-details" class="details" role="region" aria-label="About the backend" ?hidden=${!this.open}>${this.explanation()}</div>
    </div>`;
  }

  /** The one line the badge keeps: the backend's name, a few words of detail, the dot's colour. */
  private summary(): { name: string; detail: string; dot: string } {
    const r = this.report;
    if (!r) {
      if (this.failure) return { name: 'No backend', detail: 'could not start', dot: 'fallback' };
      return this.probing ? { name: 'Measuring backends…', detail: 'wasm and this GPU adapter', dot: '' } : { name: 'Starting…', detail: '', dot: '' };
    }
    const fallback = r.fallbackReason !== undefined;
    const dot = fallback || this.recovery ? 'fallback' : r.backend === 'webgpu' ? 'webgpu' : '';
    if (this.recovery) return { name: NAMES[r.backend], detail: 'after a lost GPU device', dot };
    const detail = fallback
      ? 'fallback'
      : r.backend === 'webgpu'
        ? `${r.adapterName ?? 'unknown adapter'}${r.software ? ' (software adapter)' : ''}`
        : this.probe
          ? 'chosen by measurement'
          : this.probing
            ? 'measuring WebGPU…'
            : 'as chosen in the settings';
    return { name: NAMES[r.backend], detail, dot };
  }

  /** What opens on demand: why this backend, the probe's figures, where the race moved, a recovery. */
  private explanation() {
    const r = this.report;
    const p = this.probe;
    if (!r) {
      return html`<p>
        ${this.failure ? html`No backend could start: ${this.failure}` : this.probing ? 'Timing wasm and this GPU adapter on a throw-away copy of the race.' : 'The training workers are choosing their tfjs backend.'}
      </p>`;
    }
    const where =
      this.advantages === 'webgpu-kernels' ? 'Advantages are computed by the WGSL kernels on the GPU.' : 'Advantages are computed by the CPU reference.';
    return html`
      <p>
        Training runs on <b>${NAMES[r.backend]}</b>${r.adapterName ? html` (${r.adapterName}${r.software ? ', a software adapter: its speed says nothing about a GPU' : ''})` : nothing}.
        ${this.advantages ? where : nothing}
      </p>
      ${r.fallbackReason !== undefined ? html`<p class="reason">Fallback because ${r.fallbackReason}</p>` : nothing}
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
          : this.probing
            ? html`<p class="probing">WebGPU is being measured in the background; the race goes on meanwhile.</p>`
            : nothing
      }
      ${this.note ? html`<p class="note">${this.note[0].toUpperCase()}${this.note.slice(1)}</p>` : nothing}
      ${this.recovery ? html`<p class="recovery">${this.recovery}</p>` : nothing}
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
