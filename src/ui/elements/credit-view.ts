/**
 * <credit-view>: the per-step credit of one run, as in the paper's case-study figure: bars of A_traj,
 * A_seg and A for every step (named after the method's own parts: GiGPO's A_E and A_S, critic PPO's
 * GAE advantage Â and return R̂ = Â + V), completed segments shaded, milestones starred, the incomplete tail marked.
 *
 * Takes a `RunCredit` (src/page/credit-data.ts) and draws it to the available width; when three bars per
 * step no longer fit, A_traj (one value per run) is drawn as a line across the run instead. Arrow keys (or the pointer) move a cursor
 * whose values are read out below the chart; the numbers are also available as a table.
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { methodSpec, type Method } from '../../methods/registry.ts';
import type { RunCredit } from '../../page/credit-data.ts';
import { METRIC_DOCS } from '../../page/metric-docs.ts';
import { ColorSchemeController } from '../controllers/color-scheme-controller.ts';
import { canvasToPng, downloadBlob } from '../download.ts';
import { ResizeController } from '../controllers/resize-controller.ts';
import { cssColor, sharedStyles, withAlpha } from '../theme.ts';
import './metric-tip.ts';

/** The names of a method's parts (its registry spec), falling back to BEACON's for parts it lacks. */
function partNames(method: Method) {
  const { parts } = methodSpec(method);
  return { run: parts.run ?? 'A_traj', step: parts.step ?? 'A_seg', reward: parts.reward ?? 'r_t' };
}

/** The three bars per step, named for `method` (GiGPO: A_E and A_S; critic PPO: Â and its returns). */
function bars(method: Method) {
  const n = partNames(method);
  return [
    { key: 'aTraj', label: n.run, color: '--c-atraj', doc: METRIC_DOCS.aTraj.doc },
    { key: 'aSeg', label: n.step, color: '--c-aseg', doc: METRIC_DOCS.aSeg.doc },
    { key: 'a', label: 'A', color: '--c-a', doc: METRIC_DOCS.advantage.doc },
  ] as const;
}

const HEIGHT = 190;
const PAD = { top: 22, bottom: 22, left: 40, right: 8 };
/** Below this width per step, three bars no longer fit: A_traj (constant over the run) becomes a line. */
const MIN_GROUP = 9;

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
        <span>${n.run} <b>${fmt(c.aTraj)}</b> on every step</span>
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
          ${bars(this.method).map((b) => html`<li><i class=${compactTraj && b.key === 'aTraj' ? 'line' : ''} style="background: var(${b.color})"></i>${b.label}${compactTraj && b.key === 'aTraj' ? ' (line)' : ''}<metric-tip .label=${b.label} .doc=${b.doc}></metric-tip></li>`)}
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
              <td>${t + 1}</td><td>${fmt(c.shapedRewards[t])}</td><td>${fmt(c.aTraj)}</td><td>${fmt(c.aSeg[t])}</td><td>${fmt(c.advantages[t])}</td><td>${c.boundaries[t] ? '★' : ''}</td>
            </tr>`,
            )}
          </tbody>
        </table>
      </details>
    `;
  }

  private label(c: RunCredit): string {
    const ms = c.segments.filter((s) => s.complete).map((s) => s.to + 1);
    return `Credit per step of a ${c.steps}-step run: ${partNames(this.method).run} ${fmt(c.aTraj)}; milestones at steps ${ms.length ? ms.join(', ') : 'none'}. Use the arrow keys to read each step.`;
  }

  private readout(c: RunCredit) {
    const t = this.cursor;
    if (t < 0) return html`Point at a step, or focus the chart and use ← →.`;
    const action = this.actions[t] ? ` “${this.actions[t]}”` : '';
    const seg = c.segments.find((s) => t >= s.from && t <= s.to);
    const where = seg ? (seg.complete ? `segment ${seg.k}` : 'incomplete tail') : '';
    const n = partNames(this.method);
    return html`Step ${t + 1}${action} · ${where}${c.boundaries[t] ? ' · ★ milestone' : ''} · ${n.reward} ${fmt(c.shapedRewards[t])} · ${n.run} ${fmt(c.aTraj)} · ${n.step} ${fmt(c.aSeg[t])} · A ${fmt(c.advantages[t])}`;
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
    const { group } = this.geometry(c);
    const t = Math.floor((e.clientX - rect.left - PAD.left) / group);
    this.cursor = t >= 0 && t < c.steps ? t : -1;
  };

  private geometry(c: RunCredit) {
    const width = Math.max(this.resize.width || 320, 200);
    const group = (width - PAD.left - PAD.right) / Math.max(1, c.steps);
    return { width, group, compact: group < MIN_GROUP };
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
    const { width, group, compact } = this.geometry(c);
    const dpr = devicePixelRatio || 1;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${HEIGHT}px`;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(HEIGHT * dpr);
    const ctx = canvas.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const col = (p: string) => cssColor(this, p);
    const fg = col('--fg-muted');
    ctx.fillStyle = col('--surface');
    ctx.fillRect(0, 0, width, HEIGHT);

    let max = Math.abs(c.aTraj);
    for (let t = 0; t < c.steps; t++) max = Math.max(max, Math.abs(c.aSeg[t]), Math.abs(c.advantages[t]));
    max = niceCeil(Math.max(max, 0.05));
    const plotH = HEIGHT - PAD.top - PAD.bottom;
    const y = (v: number) => PAD.top + plotH / 2 - (v / max) * (plotH / 2);
    const x = (t: number) => PAD.left + t * group;

    // Segments: alternate shading for completed ones, hatching for the incomplete tail.
    for (const s of c.segments) {
      const x0 = x(s.from);
      const x1 = x(s.to + 1);
      if (s.complete) {
        ctx.fillStyle = withAlpha(col('--seg-shade'), s.k % 2 ? 0.5 : 0.22);
        ctx.fillRect(x0, PAD.top, x1 - x0, plotH);
      } else {
        ctx.save();
        ctx.beginPath();
        ctx.rect(x0, PAD.top, x1 - x0, plotH);
        ctx.clip();
        ctx.strokeStyle = withAlpha(fg, 0.25);
        ctx.lineWidth = 1;
        for (let hx = x0 - plotH; hx < x1; hx += 7) {
          ctx.beginPath();
          ctx.moveTo(hx, PAD.top + plotH);
          ctx.lineTo(hx + plotH, PAD.top);
          ctx.stroke();
        }
        ctx.restore();
        ctx.fillStyle = fg;
        ctx.font = '600 11px system-ui, sans-serif';
        ctx.textAlign = 'left';
        ctx.textBaseline = 'top';
        if (x1 - x0 > 26) ctx.fillText('tail', x0 + 4, PAD.top + 3);
      }
    }
    // Axis: zero line and ±max ticks.
    ctx.strokeStyle = col('--grid');
    ctx.lineWidth = 1;
    ctx.fillStyle = fg;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const v of [max, max / 2, 0, -max / 2, -max]) {
      ctx.beginPath();
      ctx.moveTo(PAD.left, Math.round(y(v)) + 0.5);
      ctx.lineTo(width - PAD.right, Math.round(y(v)) + 0.5);
      ctx.stroke();
      ctx.fillText(fmtAxis(v), PAD.left - 6, y(v));
    }
    // Bars: three per step; on long runs, A_seg and A overlaid and A_traj as one line (it is one value per run).
    const colors = bars(this.method).map((b) => col(b.color));
    const bar = (left: number, w: number, v: number, color: string) => {
      const y0 = y(0);
      const y1 = y(v);
      ctx.fillStyle = color;
      ctx.fillRect(left, Math.min(y0, y1), w, Math.max(Math.abs(y1 - y0), v === 0 ? 0 : 1));
    };
    if (compact) {
      for (let t = 0; t < c.steps; t++) {
        bar(x(t), Math.max(1, group - 0.5), c.aSeg[t], withAlpha(colors[1], 0.75));
        bar(x(t) + group * 0.25, Math.max(1, group * 0.5), c.advantages[t], colors[2]);
      }
      ctx.strokeStyle = colors[0];
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.moveTo(x(0), y(c.aTraj));
      ctx.lineTo(x(c.steps), y(c.aTraj));
      ctx.stroke();
    } else {
      const inner = Math.max(1, group - Math.max(1, group * 0.22));
      const barW = inner / 3;
      for (let t = 0; t < c.steps; t++) {
        const gx = x(t) + (group - inner) / 2;
        [c.aTraj, c.aSeg[t], c.advantages[t]].forEach((v, i) => bar(gx + i * barW, Math.max(1, barW - 0.5), v, colors[i]));
      }
    }
    // Milestones: a star above the step, a dashed line at the segment's end.
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let t = 0; t < c.steps; t++) {
      if (!c.boundaries[t]) continue;
      ctx.strokeStyle = col('--milestone-line');
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(Math.round(x(t + 1)) + 0.5, PAD.top);
      ctx.lineTo(Math.round(x(t + 1)) + 0.5, PAD.top + plotH);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = col('--milestone');
      ctx.font = '14px system-ui, sans-serif';
      ctx.fillText('★', x(t) + group / 2, PAD.top - 10);
    }
    // Step numbers along the bottom.
    ctx.fillStyle = fg;
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    const every = Math.max(1, Math.ceil(28 / group));
    for (let t = 0; t < c.steps; t += every) ctx.fillText(String(t + 1), x(t) + group / 2, PAD.top + plotH + 6);
    // Cursor.
    if (this.cursor >= 0) {
      ctx.strokeStyle = col('--fg');
      ctx.lineWidth = 1.5;
      ctx.strokeRect(x(this.cursor) + 0.5, PAD.top + 0.5, group - 1, plotH - 1);
    }
  }
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return '–';
  return (v >= 0 ? '+' : '−') + Math.abs(v).toFixed(3);
}

function fmtAxis(v: number): string {
  if (v === 0) return '0';
  return (v > 0 ? '' : '−') + String(+Math.abs(v).toFixed(3));
}

/** The smallest of 1, 2, 2.5, 5 × 10^k that is ≥ v. */
function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

customElements.define('credit-view', CreditView);

declare global {
  interface HTMLElementTagNameMap {
    'credit-view': CreditView;
  }
}
