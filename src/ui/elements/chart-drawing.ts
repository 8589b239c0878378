/**
 * The drawing side of <metric-chart> (metric-chart.ts): uPlot's options for a chart's series, axes,
 * bands and markers, and the PNG export's composition (heading, plot, legend values). The data side
 * (values, formats, stacking) is chart-values.ts.
 */
import type uPlot from 'uplot';
import { withAlpha } from '../theme.ts';
import { compactNumber, type ChartX } from './chart-values.ts';

export interface ChartSeries {
  label: string;
  /** A CSS custom property ('--grpo') or a literal colour. */
  color: string;
  width?: number;
  dash?: number[];
  /** Stroke opacity (e.g. 0.3 for a faint raw curve). */
  alpha?: number;
  /** Tooltip text for the legend entry. */
  doc?: string;
  /** Leave out of the legend (e.g. the faint raw curve drawn under its smoothed twin). */
  hideInLegend?: boolean;
  /**
   * A shaded band around this series between two other series (indices into `series`), e.g. mean ± sd
   * over seeds; the legend shows this series' value ± the band's half-width.
   */
  band?: { lower: number; upper: number };
  /** Not stroked: the edge of another series' band. */
  edge?: boolean;
}

export interface ChartMarker {
  /** x of a vertical marker, or y of a horizontal one. */
  at: number;
  axis: 'x' | 'y';
  label: string;
  color: string;
}

/** What the drawing needs to know of a chart, its colours resolved by the element. */
export interface PlotSpec {
  width: number;
  height: number;
  series: ChartSeries[];
  x: ChartX;
  percent: boolean;
  stacked: boolean;
  yMin: number;
  yMax: number;
  /** Read at every draw: the markers may change without a rebuild. */
  markers: () => ChartMarker[];
  /** A series colour ('--grpo' or literal) as a CSS colour. */
  resolve: (color: string) => string;
  fg: string;
  grid: string;
  /** The index of the x value under the cursor, or null when the cursor left. */
  onCursor: (idx: number | null) => void;
}

/** Iterations are whole numbers: ticks never fall between them. */
const X_INCREMENTS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 25000, 50000, 100000];

export function plotOptions(p: PlotSpec): uPlot.Options {
  const fixed = Number.isFinite(p.yMin) && Number.isFinite(p.yMax);
  const axis = { stroke: p.fg, grid: { stroke: p.grid, width: 1 }, ticks: { stroke: p.grid, width: 1 }, font: '11px system-ui, sans-serif' };
  // On an env-steps axis each method has points at its own x values: lines join them across the gaps.
  const spanGaps = p.x === 'env steps';
  return {
    width: p.width,
    height: p.height,
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { size: 6 } },
    scales: {
      x: { time: false },
      y: fixed ? { range: [p.yMin, p.yMax] } : { range: (_u, min, max) => paddedRange(min, max) },
    },
    axes: [
      p.x === 'iterations'
        ? { ...axis, size: 30, space: 48, incrs: X_INCREMENTS }
        : { ...axis, size: 30, space: 60, values: (_u, splits) => splits.map(compactNumber) },
      { ...axis, size: 46, values: (_u, splits) => splits.map((v) => (p.percent ? `${Math.round(v * 100)}%` : compactNumber(v))) },
    ],
    series: [
      {},
      ...p.series.map((s, i): uPlot.Series => {
        const color = p.resolve(s.color);
        if (s.edge) return { label: s.label, stroke: 'transparent', width: 0, points: { show: false }, spanGaps };
        return {
          label: s.label,
          stroke: s.alpha === undefined ? color : withAlpha(color, s.alpha),
          width: s.width ?? 1.5,
          ...(s.dash ? { dash: s.dash } : {}),
          ...(p.stacked && i === 0 ? { fill: withAlpha(color, 0.55) } : {}),
          // Markers only while there are too few points for a line (a single iteration stays visible).
          points: { show: (u: uPlot) => u.data[0].length <= 2 },
          spanGaps,
        };
      }),
    ],
    bands: p.stacked
      ? p.series.slice(1).map((s, i) => ({ series: [i + 2, i + 1] as [number, number], fill: withAlpha(p.resolve(s.color), 0.55) }))
      : p.series.flatMap((s) =>
          s.band ? [{ series: [s.band.upper + 1, s.band.lower + 1] as [number, number], fill: withAlpha(p.resolve(s.color), 0.18) }] : [],
        ),
    hooks: {
      setCursor: [
        (u) => {
          const idx = u.cursor.idx;
          p.onCursor(idx === undefined || idx === null ? null : idx);
        },
      ],
      draw: [(u) => drawMarkers(u, p.markers(), p.resolve)],
    },
  };
}

/** Dashed lines across the plot at each marker, labelled (a target line, a method's crossing). */
function drawMarkers(u: uPlot, list: ChartMarker[], resolve: (c: string) => string): void {
  if (!list.length) return;
  const { ctx } = u;
  const r = devicePixelRatio || 1;
  ctx.save();
  ctx.font = `600 ${11 * r}px system-ui, sans-serif`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.setLineDash([5 * r, 4 * r]);
  ctx.lineWidth = 1.5 * r;
  for (const m of list) {
    ctx.strokeStyle = resolve(m.color);
    ctx.fillStyle = resolve(m.color);
    ctx.beginPath();
    if (m.axis === 'x') {
      const x = u.valToPos(m.at, 'x', true);
      if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
      ctx.moveTo(x, u.bbox.top);
      ctx.lineTo(x, u.bbox.top + u.bbox.height);
      ctx.stroke();
      const w = ctx.measureText(m.label).width;
      const tx = x + 4 * r + w > u.bbox.left + u.bbox.width ? x - 4 * r - w : x + 4 * r;
      ctx.fillText(m.label, tx, u.bbox.top + 12 * r + list.indexOf(m) * 14 * r);
    } else {
      const y = u.valToPos(m.at, 'y', true);
      ctx.moveTo(u.bbox.left, y);
      ctx.lineTo(u.bbox.left + u.bbox.width, y);
      ctx.stroke();
      ctx.textAlign = 'right';
      ctx.fillText(m.label, u.bbox.left + u.bbox.width - 4 * r, y - 4 * r);
      ctx.textAlign = 'left';
    }
  }
  ctx.restore();
}

/** One legend entry of the PNG export. */
export interface PngLegendEntry {
  text: string;
  color: string;
}

/** The PNG export's canvas: the heading, the plot's canvas, and one row of legend values. */
export function composePng(
  src: HTMLCanvasElement,
  plotWidth: number,
  heading: string,
  legend: PngLegendEntry[],
  surface: string,
  fg: string,
): HTMLCanvasElement {
  const ratio = src.width / plotWidth;
  const pad = 12 * ratio;
  const titleH = 26 * ratio;
  const legendH = 22 * ratio;
  const canvas = document.createElement('canvas');
  canvas.width = src.width + 2 * pad;
  canvas.height = src.height + titleH + legendH + 2 * pad;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = surface;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = fg;
  ctx.font = `600 ${15 * ratio}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  ctx.fillText(heading, pad, pad);
  ctx.drawImage(src, pad, pad + titleH);
  ctx.font = `${12 * ratio}px system-ui, sans-serif`;
  let x = pad;
  for (const { text, color } of legend) {
    ctx.fillStyle = color;
    ctx.fillRect(x, pad + titleH + src.height + 8 * ratio, 14 * ratio, 3 * ratio);
    ctx.fillStyle = fg;
    ctx.fillText(text, x + 19 * ratio, pad + titleH + src.height + 3 * ratio);
    x += ctx.measureText(text).width + 36 * ratio;
  }
  return canvas;
}

function paddedRange(min: number | null, max: number | null): uPlot.Range.MinMax {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (min === max) return [min - 1, max + 1];
  const pad = (max - min) * 0.08;
  return [min - pad, max + pad];
}
