/**
 * A small SVG writer for the study's charts: a figure is a row of panels (lines with mean ± sd bands,
 * grouped bars, stacked areas) and one legend. Scales and path geometry come from d3-scale and
 * d3-shape; this module only lays them out and writes the markup (a string, no DOM).
 *
 * Every series is a `<g class="series" data-series="…">` so that tests and readers can find it, and
 * every band says what it is in its legend entry and its `<title>`.
 */
import { scaleBand, scaleLinear } from 'd3-scale';
import { area, line, stack, type SeriesPoint } from 'd3-shape';

export interface LineSeries {
  label: string;
  color: string;
  /** x of each point (iterations). */
  x: number[];
  mean: (number | null)[];
  /** Half-width of the band around the mean; omitted for no band. */
  sd?: (number | null)[];
}

export interface LinePanel {
  kind: 'line';
  title: string;
  xLabel: string;
  yLabel: string;
  yDomain: [number, number];
  /** Tick labels as percentages (values are shares in [0, 1]). */
  percent?: boolean;
  series: LineSeries[];
}

export interface BarSeries {
  label: string;
  color: string;
  /** One value per category; null draws nothing. */
  values: (number | null)[];
  /** Error bar half-widths (± 1 sd), per category. */
  errors?: (number | null)[];
}

export interface BarPanel {
  kind: 'bar';
  title: string;
  yLabel: string;
  categories: string[];
  percent?: boolean;
  series: BarSeries[];
}

export interface StackPanel {
  kind: 'stack';
  title: string;
  xLabel: string;
  yLabel: string;
  x: number[];
  /** Bottom to top; values are shares that add up to 1 at each x. */
  layers: { label: string; color: string; values: number[] }[];
}

export type Panel = LinePanel | BarPanel | StackPanel;

export interface Figure {
  title: string;
  /** One line under the title: what the marks mean (e.g. "line: mean of 5 seeds; band: ± 1 sd"). */
  subtitle: string;
  panels: Panel[];
}

const PANEL_W = 330;
const PANEL_H = 230;
const M = { top: 28, right: 14, bottom: 42, left: 62 };
/** Narrow figures are widened to this so that titles and legends fit. */
const MIN_WIDTH = 2 * PANEL_W;
const HEADER = 52;
const LEGEND_ROW = 20;
const LEGEND_TOP = 16;

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const r2 = (x: number) => Math.round(x * 100) / 100;
/** Rounds every number in a path to 2 decimals (d3's paths carry full precision). */
const roundPath = (d: string | null) => (d ?? '').replace(/-?\d+\.\d+(e-?\d+)?/g, (n) => String(r2(Number(n))));

function attrs(a: Record<string, string | number>): string {
  return Object.entries(a)
    .map(([k, v]) => ` ${k}="${escapeXml(typeof v === 'number' ? String(r2(v)) : v)}"`)
    .join('');
}

function text(x: number, y: number, content: string, extra: Record<string, string | number> = {}): string {
  return `<text${attrs({ x, y, ...extra })}>${escapeXml(content)}</text>`;
}

function tickLabel(v: number, percent: boolean | undefined): string {
  return percent ? `${Math.round(v * 100)}%` : Number.isInteger(v) ? String(v) : String(r2(v));
}

function yAxis(y: (v: number) => number, ticks: number[], percent: boolean | undefined, w: number): string {
  return ticks
    .map((t) => `<line class="grid"${attrs({ x1: 0, x2: w, y1: y(t), y2: y(t) })}/>` + text(-6, y(t) + 4, tickLabel(t, percent), { 'text-anchor': 'end' }))
    .join('');
}

function axisTitles(panel: { xLabel?: string; yLabel: string }, w: number, h: number): string {
  return (
    (panel.xLabel ? text(w / 2, h + 34, panel.xLabel, { 'text-anchor': 'middle' }) : '') +
    text(-h / 2, -50, panel.yLabel, { 'text-anchor': 'middle', transform: 'rotate(-90)' })
  );
}

function linePanel(p: LinePanel, w: number, h: number): string {
  const xs = p.series.flatMap((s) => s.x);
  const x = scaleLinear()
    .domain([Math.min(1, ...xs), Math.max(2, ...xs)])
    .range([0, w]);
  const y = scaleLinear().domain(p.yDomain).range([h, 0]).clamp(true);
  let out = yAxis(y, y.ticks(5), p.percent, w);
  out += x
    .ticks(6)
    .map((t) => text(x(t), h + 16, tickLabel(t, false), { 'text-anchor': 'middle' }))
    .join('');
  out += `<line class="axis"${attrs({ x1: 0, x2: w, y1: h, y2: h })}/>`;
  for (const s of p.series) {
    const pts = s.x.map((xv, i) => ({ x: xv, m: s.mean[i], sd: s.sd?.[i] ?? null }));
    let g = '';
    if (s.sd) {
      const band = area<(typeof pts)[number]>()
        .defined((d) => d.m !== null && d.sd !== null)
        .x((d) => x(d.x))
        .y0((d) => y(d.m! - d.sd!))
        .y1((d) => y(d.m! + d.sd!));
      g += `<path class="band"${attrs({ d: roundPath(band(pts)), fill: s.color, 'fill-opacity': 0.18, stroke: 'none' })}><title>${escapeXml(`${s.label}: ± 1 sd`)}</title></path>`;
    }
    const path = line<(typeof pts)[number]>()
      .defined((d) => d.m !== null)
      .x((d) => x(d.x))
      .y((d) => y(d.m!));
    g += `<path class="line"${attrs({ d: roundPath(path(pts)), fill: 'none', stroke: s.color, 'stroke-width': 1.8 })}><title>${escapeXml(`${s.label}: mean`)}</title></path>`;
    out += `<g class="series"${attrs({ 'data-series': s.label })}>${g}</g>`;
  }
  return out + axisTitles(p, w, h);
}

function barPanel(p: BarPanel, w: number, h: number): string {
  const vals = p.series.flatMap((s) => s.values.map((v, i) => [v, s.errors?.[i] ?? 0] as const)).filter(([v]) => v !== null) as [number, number | null][];
  const lo = Math.min(0, ...vals.map(([v, e]) => v - (e ?? 0)));
  const hi = Math.max(p.percent ? 1 : 0.1, ...vals.map(([v, e]) => v + (e ?? 0)));
  const y = scaleLinear().domain([lo, hi]).nice().range([h, 0]);
  const outer = scaleBand().domain(p.categories).range([0, w]).paddingInner(0.2).paddingOuter(0.1);
  const inner = scaleBand()
    .domain(p.series.map((s) => s.label))
    .range([0, outer.bandwidth()])
    .padding(0.08);
  let out = yAxis(y, y.ticks(5), p.percent, w);
  out += p.categories.map((c) => text((outer(c) ?? 0) + outer.bandwidth() / 2, h + 16, c, { 'text-anchor': 'middle' })).join('');
  for (const s of p.series) {
    let g = '';
    s.values.forEach((v, i) => {
      if (v === null) return;
      const cx = (outer(p.categories[i]) ?? 0) + (inner(s.label) ?? 0);
      const top = v >= 0 ? Math.min(y(v), y(0) - 1) : y(0);
      // A zero still shows, as a hairline, so that "0%" and "not measured" (no bar) look different.
      const height = Math.max(1, Math.abs(y(v) - y(0)));
      g += `<rect${attrs({ x: cx, y: top, width: inner.bandwidth(), height, fill: s.color })}><title>${escapeXml(`${s.label}, ${p.categories[i]}: ${tickLabel(v, p.percent)}`)}</title></rect>`;
      const e = s.errors?.[i];
      if (e) {
        const mid = cx + inner.bandwidth() / 2;
        g += `<line class="error"${attrs({ x1: mid, x2: mid, y1: y(v - e), y2: y(v + e), stroke: '#222' })}/>`;
      }
    });
    out += `<g class="series"${attrs({ 'data-series': s.label })}>${g}</g>`;
  }
  out += `<line class="axis"${attrs({ x1: 0, x2: w, y1: y(0), y2: y(0) })}/>`;
  return out + axisTitles(p, w, h);
}

function stackPanel(p: StackPanel, w: number, h: number): string {
  const x = scaleLinear()
    .domain([Math.min(1, ...p.x), Math.max(2, ...p.x)])
    .range([0, w]);
  const y = scaleLinear().domain([0, 1]).range([h, 0]);
  const rows = p.x.map((xv, i) => ({ x: xv, ...Object.fromEntries(p.layers.map((l) => [l.label, l.values[i]])) })) as ({ x: number } & Record<
    string,
    number
  >)[];
  const stacked = stack<(typeof rows)[number]>().keys(p.layers.map((l) => l.label))(rows);
  const shape = area<SeriesPoint<(typeof rows)[number]>>()
    .x((d) => x(d.data.x))
    .y0((d) => y(d[0]))
    .y1((d) => y(d[1]));
  let out = '';
  stacked.forEach((layer, k) => {
    const l = p.layers[k];
    out += `<g class="series"${attrs({ 'data-series': l.label })}><path class="area"${attrs({ d: roundPath(shape(layer)), fill: l.color })}><title>${escapeXml(l.label)}</title></path></g>`;
  });
  out += yAxis(y, y.ticks(5), true, w);
  out += x
    .ticks(6)
    .map((t) => text(x(t), h + 16, tickLabel(t, false), { 'text-anchor': 'middle' }))
    .join('');
  return out + axisTitles(p, w, h);
}

function legendEntries(fig: Figure): { label: string; color: string; band: boolean }[] {
  const seen = new Map<string, { label: string; color: string; band: boolean }>();
  for (const p of fig.panels) {
    const items =
      p.kind === 'stack'
        ? p.layers.map((l) => ({ label: l.label, color: l.color, band: false }))
        : p.kind === 'line'
          ? p.series.map((s) => ({ label: s.label, color: s.color, band: Boolean(s.sd) }))
          : p.series.map((s) => ({ label: s.label, color: s.color, band: false }));
    for (const it of items) if (!seen.has(it.label)) seen.set(it.label, it);
  }
  return [...seen.values()];
}

/** The figure as a standalone SVG document. */
export function renderFigure(fig: Figure, columns = 3): string {
  const cols = Math.min(columns, Math.max(1, fig.panels.length));
  const rows = Math.ceil(fig.panels.length / cols);
  const legend = legendEntries(fig);
  // Legend columns as wide as the longest label (≈ 6.5 px per character at 11 px) so none overlap.
  const colW = Math.max(120, 34 + 6.5 * Math.max(0, ...legend.map((e) => (e.band ? e.label.length + 15 : e.label.length))));
  const perRow = Math.max(1, Math.floor((Math.max(MIN_WIDTH, cols * PANEL_W) - 10) / colW));
  const legendRows = Math.ceil(legend.length / perRow);
  const width = Math.max(MIN_WIDTH, cols * PANEL_W);
  const panelW = width / cols;
  const height = HEADER + rows * PANEL_H + LEGEND_TOP + legendRows * LEGEND_ROW + 12;
  const w = panelW - M.left - M.right;
  const h = PANEL_H - M.top - M.bottom;
  let body = text(10, 20, fig.title, { class: 'title' }) + text(10, 40, fig.subtitle, { class: 'subtitle' });
  fig.panels.forEach((p, i) => {
    const ox = (i % cols) * panelW + M.left;
    const oy = HEADER + Math.floor(i / cols) * PANEL_H + M.top;
    const inner = p.kind === 'line' ? linePanel(p, w, h) : p.kind === 'bar' ? barPanel(p, w, h) : stackPanel(p, w, h);
    body += `<g class="panel"${attrs({ transform: `translate(${ox},${oy})` })}>${text(0, -10, p.title, { class: 'panel-title' })}${inner}</g>`;
  });
  const ly = HEADER + rows * PANEL_H + LEGEND_TOP;
  legend.forEach((e, i) => {
    const lx = 10 + (i % perRow) * colW;
    const yy = ly + Math.floor(i / perRow) * LEGEND_ROW;
    const swatch = e.band
      ? `<rect${attrs({ x: lx, y: yy - 9, width: 18, height: 12, fill: e.color, 'fill-opacity': 0.18 })}/><line${attrs({ x1: lx, x2: lx + 18, y1: yy - 3, y2: yy - 3, stroke: e.color, 'stroke-width': 1.8 })}/>`
      : `<rect${attrs({ x: lx, y: yy - 9, width: 18, height: 12, fill: e.color })}/>`;
    body += `<g class="legend-entry"${attrs({ 'data-series': e.label })}>${swatch}${text(lx + 24, yy + 1, e.band ? `${e.label} (mean ± 1 sd)` : e.label)}</g>`;
  });
  const style =
    'text{font:11px system-ui,sans-serif;fill:#222}.title{font-size:14px;font-weight:600}.subtitle{fill:#555}.panel-title{font-weight:600}.grid{stroke:#e4e4e4}.axis{stroke:#444}';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"${attrs({ width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' })}><title>${escapeXml(fig.title)}</title><style>${style}</style><rect${attrs({ width, height, fill: '#fff' })}/>${body}</svg>\n`;
}
