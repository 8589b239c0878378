/**
 * Draws the credit view's canvas (src/ui/elements/credit-view.ts): completed segments shaded, the
 * incomplete tail hatched, the axis, three bars per step (or, when they no longer fit, A_seg and A
 * overlaid and A_traj as one line), milestones starred, step numbers and the cursor. What to draw and
 * where (bars, scale, geometry) comes from src/page/credit-chart.ts.
 */
import type { Method } from '../../methods/registry.ts';
import { CREDIT_HEIGHT, CREDIT_PAD, creditBars, creditScale, formatAxis, type CreditGeometry } from '../../page/credit-chart.ts';
import type { RunCredit } from '../../page/credit-data.ts';
import { withAlpha } from '../theme.ts';

/**
 * Paints `c` on `canvas` at `geometry`, sized for the device pixel ratio; `cursor` is the step framed
 * (−1 for none) and `col` reads a CSS custom property of the element as a colour.
 */
export function paintCredit(
  canvas: HTMLCanvasElement,
  c: RunCredit,
  method: Method,
  geometry: CreditGeometry,
  cursor: number,
  col: (property: string) => string,
): void {
  const { width, group, compact } = geometry;
  const dpr = devicePixelRatio || 1;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${CREDIT_HEIGHT}px`;
  canvas.width = Math.round(width * dpr);
  canvas.height = Math.round(CREDIT_HEIGHT * dpr);
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const fg = col('--fg-muted');
  ctx.fillStyle = col('--surface');
  ctx.fillRect(0, 0, width, CREDIT_HEIGHT);

  const max = creditScale(c);
  const plotH = CREDIT_HEIGHT - CREDIT_PAD.top - CREDIT_PAD.bottom;
  const y = (v: number) => CREDIT_PAD.top + plotH / 2 - (v / max) * (plotH / 2);
  const x = (t: number) => CREDIT_PAD.left + t * group;

  // Segments: alternate shading for completed ones, hatching for the incomplete tail.
  for (const s of c.segments) {
    const x0 = x(s.from);
    const x1 = x(s.to + 1);
    if (s.complete) {
      ctx.fillStyle = withAlpha(col('--seg-shade'), s.k % 2 ? 0.5 : 0.22);
      ctx.fillRect(x0, CREDIT_PAD.top, x1 - x0, plotH);
    } else {
      ctx.save();
      ctx.beginPath();
      ctx.rect(x0, CREDIT_PAD.top, x1 - x0, plotH);
      ctx.clip();
      ctx.strokeStyle = withAlpha(fg, 0.25);
      ctx.lineWidth = 1;
      for (let hx = x0 - plotH; hx < x1; hx += 7) {
        ctx.beginPath();
        ctx.moveTo(hx, CREDIT_PAD.top + plotH);
        ctx.lineTo(hx + plotH, CREDIT_PAD.top);
        ctx.stroke();
      }
      ctx.restore();
      ctx.fillStyle = fg;
      ctx.font = '600 11px system-ui, sans-serif';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'top';
      if (x1 - x0 > 26) ctx.fillText('tail', x0 + 4, CREDIT_PAD.top + 3);
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
    ctx.moveTo(CREDIT_PAD.left, Math.round(y(v)) + 0.5);
    ctx.lineTo(width - CREDIT_PAD.right, Math.round(y(v)) + 0.5);
    ctx.stroke();
    ctx.fillText(formatAxis(v), CREDIT_PAD.left - 6, y(v));
  }
  // Bars: three per step; on long runs, A_seg and A overlaid and A_traj as one line (it is one value per run).
  const colors = creditBars(method).map((b) => col(b.color));
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
    ctx.moveTo(Math.round(x(t + 1)) + 0.5, CREDIT_PAD.top);
    ctx.lineTo(Math.round(x(t + 1)) + 0.5, CREDIT_PAD.top + plotH);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = col('--milestone');
    ctx.font = '14px system-ui, sans-serif';
    ctx.fillText('★', x(t) + group / 2, CREDIT_PAD.top - 10);
  }
  // Step numbers along the bottom.
  ctx.fillStyle = fg;
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  const every = Math.max(1, Math.ceil(28 / group));
  for (let t = 0; t < c.steps; t += every) ctx.fillText(String(t + 1), x(t) + group / 2, CREDIT_PAD.top + plotH + 6);
  // Cursor.
  if (cursor >= 0) {
    ctx.strokeStyle = col('--fg');
    ctx.lineWidth = 1.5;
    ctx.strokeRect(x(cursor) + 0.5, CREDIT_PAD.top + 0.5, group - 1, plotH - 1);
  }
}
