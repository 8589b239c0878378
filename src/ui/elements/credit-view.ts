/**
 * <credit-view>: the per-step credit of one run, as in the paper's case-study figure: bars of A_traj,
 * A_seg and A for every step (named after the method's own parts: GiGPO's A_E and A_S, critic PPO's
 * GAE advantage Â and return R̂ = Â + V), completed segments shaded, milestones starred, the incomplete tail marked.
 *
 * Takes a `RunCredit` (src/page/credit-data.ts) and draws it to the available width; when three bars per
 * step no longer fit, A_traj (one value per run) is drawn as a line across the run instead. Arrow keys
 * (or the pointer) move a cursor whose values are read out below the chart; the numbers are also
 * available as a table. The chart's bars, scale and geometry are src/page/credit-chart.ts; the canvas
 * is painted by src/ui/painters/credit-painter.ts.
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { methodSpec, type Method } from '../../methods/registry.ts';
import { creditBars, creditGeometry, formatCredit, partNames, stepAt } from '../../page/credit-chart.ts';
import type { RunCredit } from '../../page/credit-data.ts';
import { METRIC_DOCS } from '../../page/metric-docs.ts';
import { ColorSchemeController } from '../controllers/color-scheme-controller.ts';
import { canvasToPng, downloadBlob } from '../download.ts';
import { ResizeController } from '../controllers/resize-controller.ts';
import { paintCredit } from '../painters/credit-painter.ts';
import { cssColor, sharedStyles } from '../theme.ts';
import './metric-tip.ts';

export class CreditView extends LitElement {
  static override properties = {
    credit: { attribute: false },
    method: { type: String },
    actions: { attribute: false },
    cursor: { state: true },
  };

  declare credit: RunCredit | null;
  declare method: Method;
  /** Text of each step's action, for the readout (optional). */
  declare actions: string[];
  declare private cursor: number;

  private readonly scheme = new ColorSchemeController(this);
  private readonly resize = new ResizeController(
    this,
    () => this.renderRoot.querySelector('.scroll'),
    () => this.requestUpdate(),
  );

  constructor() {
    super();
    this.credit = null;
    this.method = 'beacon';
    this.actions = [];
    this.cursor = -1;
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        min-width: 0;
      }
      .summary {
        display: flex;
        flex-wrap: wrap;
        gap: 2px 14px;
        margin: 0 0 6px;
        font-size: 0.82rem;
        font-variant-numeric: tabular-nums;
      }
      .zero {
        color: var(--warn-fg);
        font-weight: 600;
      }
      .scroll {
        border-radius: 8px;
      }
      canvas {
        display: block;
        cursor: crosshair;
      }
      .legend {
        display: flex;
        flex-wrap: wrap;
        gap: 2px 14px;
        margin: 6px 0 0;
        padding: 0;
        list-style: none;
        font-size: 0.8rem;
      }
      .legend li {
        display: inline-flex;
        align-items: center;
        gap: 5px;
      }
      .legend i {
        display: inline-block;
        width: 10px;
        height: 10px;
        border-radius: 2px;
      }
      .legend i.line {
        width: 14px;
        height: 3px;
      }
      .readout {
        min-height: 1.4em;
        margin: 6px 0 0;
        font-size: 0.8rem;
        color: var(--fg-muted);
        font-variant-numeric: tabular-nums;
      }
      .tools {
        display: flex;
        justify-content: space-between;
        align-items: flex-start;
        gap: 8px;
        flex-wrap: wrap;
      }
      details {
        font-size: 0.8rem;
      }
      table {
        border-collapse: collapse;
        font-variant-numeric: tabular-nums;
      }
      th,
      td {
        padding: 2px 8px;
        text-align: right;
        border-bottom: 1px solid var(--border);
      }
      .png {
        min-height: 28px;
        padding: 2px 8px;
        font-size: 0.75rem;
        color: var(--fg-muted);
        background: transparent;
        border-color: var(--border);
      }
    `,
  ];

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('credit') && this.credit && this.cursor >= this.credit.steps) this.cursor = -1;
  }

  protected override updated(): void {
    this.draw();
  }

  override render() {
    const c = this.credit;
    if (!c) return html`<p class="muted">Waiting for the first batch…</p>`;
    const complete = c.segments.filter((s) => s.complete).length;
    const compactTraj = this.geometry(c).compact;
    const tail = c.segments.find((s) => !s.complete);
    const n = partNames(this.method);
    return html`
      <p class="summary">
        <span>${n.run} <b>${formatCredit(c.aTraj)}</b> on every step</span>
        <span>${complete} completed segment${complete === 1 ? '' : 's'}${tail ? `, tail of ${tail.to - tail.from + 1} step${tail.to === tail.from ? '' : 's'}` : ''}</span>
        <span>CCR (this run) <b>${Number.isFinite(c.ccr) ? c.ccr.toFixed(2) : '–'}</b> <metric-tip .label=${METRIC_DOCS.ccr.label} .doc=${METRIC_DOCS.ccr.doc}></metric-tip></span>
        ${methodSpec(this.method).needs.milestones ? html`<span class="muted">λ = ${c.lambda}</span>` : html`<span class="muted">${methodSpec(this.method).label} has no segment term: ${methodSpec(this.method).formula}</span>`}
        ${c.advantages.every((a) => Math.abs(a) < 1e-6) ? html`<span class="zero">Every step has A = 0: this run teaches the policy nothing.</span>` : nothing}
      </p>
      <div class="scroll">
        <canvas
          tabindex="0"
          role="img"
          aria-label=${this.label(c)}
          @keydown=${this.onKey}
          @pointermove=${this.onPointer}
          @pointerleave=${() => (this.cursor = -1)}
        ></canvas>
      </div>
      <p class="readout" aria-live="polite">${this.readout(c)}</p>
      <div class="tools">
        <ul class="legend" aria-label="Credit legend">
          ${creditBars(this.method).map((b) => html`<li><i class=${compactTraj && b.key === 'aTraj' ? 'line' : ''} style="background: var(${b.color})"></i>${b.label}${compactTraj && b.key === 'aTraj' ? ' (line)' : ''}<metric-tip .label=${b.label} .doc=${b.doc}></metric-tip></li>`)}
          <li><span aria-hidden="true">★</span> milestone<metric-tip .label=${METRIC_DOCS.milestone.label} .doc=${METRIC_DOCS.milestone.doc}></metric-tip></li>
        </ul>
        <button class="png" type="button" @click=${this.exportPng} aria-label="Download the credit view as PNG">PNG</button>
      </div>
      <details>
        <summary>Values as a table</summary>
        <table>
          <thead><tr><th scope="col">step</th><th scope="col">${n.reward}</th><th scope="col">${n.run}</th><th scope="col">${n.step}</th><th scope="col">A</th><th scope="col">milestone</th></tr></thead>
          <tbody>
            ${Array.from(
              { length: c.steps },
              (_, t) => html`<tr>
              <td>${t + 1}</td><td>${formatCredit(c.shapedRewards[t])}</td><td>${formatCredit(c.aTraj)}</td><td>${formatCredit(c.aSeg[t])}</td><td>${formatCredit(c.advantages[t])}</td><td>${c.boundaries[t] ? '★' : ''}</td>
            </tr>`,
            )}
          </tbody>
        </table>
      </details>
    `;
  }

  private label(c: RunCredit): string {
    const ms = c.segments.filter((s) => s.complete).map((s) => s.to + 1);
    return `Credit per step of a ${c.steps}-step run: ${partNames(this.method).run} ${formatCredit(c.aTraj)}; milestones at steps ${ms.length ? ms.join(', ') : 'none'}. Use the arrow keys to read each step.`;
  }

  private readout(c: RunCredit) {
    const t = this.cursor;
    if (t < 0) return html`Point at a step, or focus the chart and use ← →.`;
    const action = this.actions[t] ? ` “${this.actions[t]}”` : '';
    const seg = c.segments.find((s) => t >= s.from && t <= s.to);
    const where = seg ? (seg.complete ? `segment ${seg.k}` : 'incomplete tail') : '';
    const n = partNames(this.method);
    return html`Step ${t + 1}${action} · ${where}${c.boundaries[t] ? ' · ★ milestone' : ''} · ${n.reward} ${formatCredit(c.shapedRewards[t])} · ${n.run} ${formatCredit(c.aTraj)} · ${n.step} ${formatCredit(c.aSeg[t])} · A ${formatCredit(c.advantages[t])}`;
  }

  private onKey = (e: KeyboardEvent) => {
    const c = this.credit;
    if (!c) return;
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, Home: -Infinity, End: Infinity };
    if (!(e.key in moves)) return;
    e.preventDefault();
    const next = this.cursor < 0 ? 0 : this.cursor + moves[e.key];
    this.cursor = Math.max(0, Math.min(c.steps - 1, Number.isFinite(next) ? next : next > 0 ? c.steps - 1 : 0));
  };

  private onPointer = (e: PointerEvent) => {
    const c = this.credit;
    if (!c) return;
    const rect = (e.target as HTMLCanvasElement).getBoundingClientRect();
    this.cursor = stepAt(e.clientX - rect.left, this.geometry(c), c.steps);
  };

  private geometry(c: RunCredit) {
    return creditGeometry(this.resize.width || 320, c.steps);
  }

  private exportPng = async () => {
    const canvas = this.renderRoot.querySelector('canvas');
    if (canvas) downloadBlob(await canvasToPng(canvas), `beacon-live-${this.method}-credit.png`);
  };

  private draw(): void {
    const c = this.credit;
    const canvas = this.renderRoot.querySelector('canvas');
    if (!c || !canvas) return;
    void this.scheme.version;
    paintCredit(canvas, c, this.method, this.geometry(c), this.cursor, (p) => cssColor(this, p));
  }
}

customElements.define('credit-view', CreditView);

declare global {
  interface HTMLElementTagNameMap {
    'credit-view': CreditView;
  }
}
