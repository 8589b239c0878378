/**
 * <metric-chart>: one live uPlot chart with a heading, an explained legend and a PNG export.
 *
 * Data flows down: `data` is uPlot's aligned columns (x first, null for gaps) and `revision` says when
 * they changed; the chart calls `setData` only then, so the page's update throttle bounds its redraws.
 * Series colours are CSS custom properties resolved at build time; the chart rebuilds when the colour
 * scheme changes. `stacked` draws the series as cumulative bands (the legend still shows each value).
 * The legend is our own HTML (values at the cursor, else the latest), so each entry can carry a tooltip.
 */
import { LitElement, css, html, nothing, unsafeCSS, type PropertyValues } from 'lit';
import uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css?inline';
import { ColorSchemeController } from '../controllers/color-scheme-controller.ts';
import { canvasToPng, downloadBlob } from '../download.ts';
import { ResizeController } from '../controllers/resize-controller.ts';
import { VisibilityController } from '../controllers/visibility-controller.ts';
import { cssColor, sharedStyles, withAlpha } from '../theme.ts';
import './metric-tip.ts';

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

export type ChartData = ArrayLike<number | null>[];

export class MetricChart extends LitElement {
  static override properties = {
    heading: { type: String },
    doc: { type: String },
    series: { attribute: false },
    data: { attribute: false },
    revision: { type: Number },
    percent: { type: Boolean },
    stacked: { type: Boolean },
    yMin: { type: Number, attribute: 'y-min' },
    yMax: { type: Number, attribute: 'y-max' },
    markers: { attribute: false },
    plotHeight: { type: Number, attribute: 'plot-height' },
    filename: { type: String },
    cursorIdx: { state: true },
  };

  declare heading: string;
  /** Tooltip of the heading. */
  declare doc: string;
  declare series: ChartSeries[];
  declare data: ChartData;
  /** Bump to make the chart re-read `data`. */
  declare revision: number;
  /** Format the y axis and values as percentages (data in 0…1). */
  declare percent: boolean;
  declare stacked: boolean;
  /** Fixed y range; NaN (the default) lets uPlot fit the data. */
  declare yMin: number;
  declare yMax: number;
  declare markers: ChartMarker[];
  declare plotHeight: number;
  /** Base name of the PNG file. */
  declare filename: string;
  declare private cursorIdx: number | null;

  private plot: uPlot | null = null;
  private builtFor = '';
  private readonly scheme = new ColorSchemeController(this, () => this.destroyPlot());
  private readonly resize = new ResizeController(
    this,
    () => this.renderRoot.querySelector('.plot'),
    (w) => this.resized(w),
  );
  /** Off screen the plot keeps its last drawing and `stale` notes that the data moved on since. */
  private readonly onScreen = new VisibilityController(this, (visible) => {
    if (visible) this.catchUp();
  });
  private stale = false;

  constructor() {
    super();
    this.heading = '';
    this.doc = '';
    this.series = [];
    this.data = [[]];
    this.revision = 0;
    this.percent = false;
    this.stacked = false;
    this.yMin = NaN;
    this.yMax = NaN;
    this.markers = [];
    this.plotHeight = 170;
    this.filename = 'chart';
    this.cursorIdx = null;
  }

  static override styles = [
    sharedStyles,
    unsafeCSS(uplotCss),
    css`
      :host {
        display: block;
        min-width: 0;
      }
      header {
        display: flex;
        align-items: center;
        gap: 6px;
        margin-bottom: 4px;
      }
      header h3 {
        flex: 1;
        min-width: 0;
      }
      .png {
        min-height: 28px;
        padding: 2px 8px;
        font-size: 0.75rem;
        font-weight: 600;
        color: var(--fg-muted);
        background: transparent;
        border-color: var(--border);
      }
      .plot {
        position: relative;
        width: 100%;
        min-height: 40px;
      }
      .legend {
        display: flex;
        flex-wrap: wrap;
        gap: 2px 14px;
        margin: 4px 0 0;
        padding: 0;
        list-style: none;
        font-size: 0.8rem;
      }
      .legend li {
        display: inline-flex;
        align-items: center;
        gap: 5px;
        white-space: nowrap;
      }
      .swatch {
        display: inline-block;
        width: 14px;
        height: 0;
        border-top: 3px solid;
        border-radius: 2px;
      }
      .swatch.dashed {
        border-top-style: dashed;
      }
      .value {
        font-variant-numeric: tabular-nums;
        color: var(--fg-muted);
        min-width: 3.5em;
      }
      .u-over {
        cursor: crosshair;
      }
    `,
  ];

  override render() {
    const idx = this.cursorIdx ?? lastIndex(this.data);
    const x = this.cursorIdx === null ? null : this.data[0][this.cursorIdx];
    return html`
      <header>
        <h3>${this.heading}</h3>
        ${this.doc ? html`<metric-tip .label=${this.heading} .doc=${this.doc}></metric-tip>` : nothing}
        <button class="png" type="button" @click=${this.exportPng} aria-label="Download ${this.heading} as PNG">PNG</button>
      </header>
      <div class="plot" role="img" aria-label=${this.summary(idx)}></div>
      <ul class="legend" aria-label="${this.heading} legend">
        ${idx === null ? nothing : html`<li class="muted">${x !== null && x !== undefined ? `it ${x}` : 'latest'}</li>`}
        ${this.series.map((s, i) =>
          s.hideInLegend
            ? nothing
            : html`<li>
                <span class="swatch ${s.dash ? 'dashed' : ''}" style="border-color:${this.resolve(s.color)}"></span>
                <span>${s.label}</span>
                <span class="value">${this.valueText(i, this.cursorIdx)}</span>
                ${s.doc ? html`<metric-tip .label=${s.label} .doc=${s.doc}></metric-tip>` : nothing}
              </li>`,
        )}
      </ul>
    `;
  }

  protected override updated(changed: PropertyValues<this>): void {
    const key = this.buildKey();
    if (this.plot && key !== this.builtFor) this.destroyPlot();
    const el = this.renderRoot.querySelector<HTMLElement>('.plot');
    if (!el) return;
    if (!this.plot) {
      const width = this.resize.width || el.clientWidth;
      if (width > 0) this.build(el, width);
      return;
    }
    if (changed.has('revision') || changed.has('data') || changed.has('markers')) {
      this.stale = true;
      if (this.onScreen.visible) this.catchUp();
    }
  }

  /** Draws the latest data if the plot is behind it. */
  private catchUp(): void {
    if (!this.plot || !this.stale) return;
    this.stale = false;
    this.plot.setData(this.plotData() as uPlot.AlignedData, true);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.destroyPlot();
  }

  /** The chart as a PNG: heading, plot and legend values, on the page's background colour. */
  async toPng(): Promise<Blob> {
    if (!this.plot) throw new Error(`${this.heading}: the chart has not been drawn yet`);
    if (this.stale) {
      this.catchUp();
      await null; // uPlot commits a redraw in a microtask
    }
    const src = this.plot.ctx.canvas;
    const ratio = src.width / this.plot.width;
    const pad = 12 * ratio;
    const titleH = 26 * ratio;
    const legendH = 22 * ratio;
    const canvas = document.createElement('canvas');
    canvas.width = src.width + 2 * pad;
    canvas.height = src.height + titleH + legendH + 2 * pad;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = cssColor(this, '--surface', '#fff');
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = cssColor(this, '--fg', '#111');
    ctx.font = `600 ${15 * ratio}px system-ui, sans-serif`;
    ctx.textBaseline = 'top';
    ctx.fillText(this.heading, pad, pad);
    ctx.drawImage(src, pad, pad + titleH);
    ctx.font = `${12 * ratio}px system-ui, sans-serif`;
    let x = pad;
    this.series.forEach((s, i) => {
      if (s.hideInLegend) return;
      const text = `${s.label} ${this.valueText(i, null)}`;
      ctx.fillStyle = this.resolve(s.color);
      ctx.fillRect(x, pad + titleH + src.height + 8 * ratio, 14 * ratio, 3 * ratio);
      ctx.fillStyle = cssColor(this, '--fg', '#111');
      ctx.fillText(text, x + 19 * ratio, pad + titleH + src.height + 3 * ratio);
      x += ctx.measureText(text).width + 36 * ratio;
    });
    return canvasToPng(canvas);
  }

  private resized(width: number): void {
    if (this.plot) this.plot.setSize({ width, height: this.plotHeight });
    else this.requestUpdate();
  }

  private exportPng = async () => {
    downloadBlob(await this.toPng(), `${this.filename}.png`);
  };

  /** Series i's value at the cursor, or without a cursor its latest value (one method may lag by one). */
  private shown(i: number, cursor: number | null): number | null | undefined {
    const col = this.data[i + 1];
    if (!col) return undefined;
    if (cursor !== null) return col[cursor];
    for (let j = col.length - 1; j >= 0; j--) if (col[j] !== null && col[j] !== undefined) return col[j];
    return null;
  }

  /** Series i's value as the legend shows it: with its band's half-width (± sd) when it has one. */
  private valueText(i: number, cursor: number | null): string {
    const v = this.shown(i, cursor);
    const band = this.series[i].band;
    if (!band || v === null || v === undefined) return this.format(v);
    // The band's edges at the same x as the value shown (the latest x where this series has a value).
    const at = cursor ?? lastDefined(this.data[i + 1]);
    const upper = at === null ? undefined : this.data[band.upper + 1]?.[at];
    return upper === null || upper === undefined ? this.format(v) : `${this.format(v)} ± ${this.format(upper - v)}`;
  }

  private resolve(color: string): string {
    return color.startsWith('--') ? cssColor(this, color) : color;
  }

  private format(v: number | null | undefined): string {
    if (v === null || v === undefined || !Number.isFinite(v)) return '–';
    if (this.percent) return `${(v * 100).toFixed(1)}%`;
    const a = Math.abs(v);
    return a !== 0 && (a < 0.01 || a >= 1e5) ? v.toExponential(2) : v.toFixed(a < 10 ? 3 : 1);
  }

  private summary(idx: number | null): string {
    if (idx === null) return `${this.heading}: no data yet`;
    const parts = this.series.filter((s) => !s.hideInLegend).map((s) => `${s.label} ${this.valueText(this.series.indexOf(s), null)}`);
    return `${this.heading}, latest values after ${this.data[0][idx]} iterations: ${parts.join(', ')}`;
  }

  private buildKey(): string {
    return JSON.stringify([this.series, this.percent, this.stacked, this.yMin, this.yMax, this.plotHeight, this.scheme.version]);
  }

  /** Plotted columns: cumulative sums when stacked. */
  private plotData(): ChartData {
    if (!this.stacked) return this.data;
    const [xs, ...ys] = this.data;
    const out: (number | null)[][] = [];
    let prev: (number | null)[] | null = null;
    for (const col of ys) {
      const cum: (number | null)[] = Array.from({ length: xs.length }, (_, i) => {
        const v = col[i];
        const p: number | null = prev ? prev[i] : 0;
        return v === null || v === undefined || p === null ? null : v + p;
      });
      out.push(cum);
      prev = cum;
    }
    return [xs, ...out];
  }

  private build(el: HTMLElement, width: number): void {
    const fg = cssColor(this, '--fg-muted', '#666');
    const grid = cssColor(this, '--grid', '#ddd');
    const fixed = Number.isFinite(this.yMin) && Number.isFinite(this.yMax);
    const markers = () => this.markers;
    const resolve = (c: string) => this.resolve(c);
    const opts: uPlot.Options = {
      width,
      height: this.plotHeight,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { size: 6 } },
      scales: {
        x: { time: false },
        y: fixed ? { range: [this.yMin, this.yMax] } : { range: (_u, min, max) => paddedRange(min, max) },
      },
      axes: [
        // Iterations are whole numbers: never tick between them.
        {
          stroke: fg,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid, width: 1 },
          font: '11px system-ui, sans-serif',
          size: 30,
          space: 48,
          incrs: X_INCREMENTS,
        },
        {
          stroke: fg,
          grid: { stroke: grid, width: 1 },
          ticks: { stroke: grid, width: 1 },
          font: '11px system-ui, sans-serif',
          size: 46,
          values: (_u, splits) => splits.map((v) => (this.percent ? `${Math.round(v * 100)}%` : compact(v))),
        },
      ],
      series: [
        {},
        ...this.series.map((s, i): uPlot.Series => {
          const color = resolve(s.color);
          if (s.edge) return { label: s.label, stroke: 'transparent', width: 0, points: { show: false }, spanGaps: false };
          return {
            label: s.label,
            stroke: s.alpha === undefined ? color : withAlpha(color, s.alpha),
            width: s.width ?? 1.5,
            ...(s.dash ? { dash: s.dash } : {}),
            ...(this.stacked && i === 0 ? { fill: withAlpha(color, 0.55) } : {}),
            // Markers only while there are too few points for a line (a single iteration stays visible).
            points: { show: (u: uPlot) => u.data[0].length <= 2 },
            spanGaps: false,
          };
        }),
      ],
      bands: this.stacked
        ? this.series.slice(1).map((s, i) => ({ series: [i + 2, i + 1] as [number, number], fill: withAlpha(resolve(s.color), 0.55) }))
        : this.series.flatMap((s) =>
            s.band ? [{ series: [s.band.upper + 1, s.band.lower + 1] as [number, number], fill: withAlpha(resolve(s.color), 0.18) }] : [],
          ),
      hooks: {
        setCursor: [
          (u) => {
            const idx = u.cursor.idx;
            this.cursorIdx = idx === undefined || idx === null ? null : idx;
          },
        ],
        draw: [
          (u) => {
            const list = markers();
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
          },
        ],
      },
    };
    this.plot = new uPlot(opts, this.plotData() as uPlot.AlignedData, el);
    this.stale = false;
    this.builtFor = this.buildKey();
  }

  private destroyPlot(): void {
    this.plot?.destroy();
    this.plot = null;
    this.builtFor = '';
  }
}

const X_INCREMENTS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 25000, 50000, 100000];

function lastDefined(col: ArrayLike<number | null> | undefined): number | null {
  if (!col) return null;
  for (let j = col.length - 1; j >= 0; j--) if (col[j] !== null && col[j] !== undefined) return j;
  return null;
}

function lastIndex(data: ChartData): number | null {
  const n = data[0]?.length ?? 0;
  return n > 0 ? n - 1 : null;
}

function paddedRange(min: number | null, max: number | null): uPlot.Range.MinMax {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (min === max) return [min - 1, max + 1];
  const pad = (max - min) * 0.08;
  return [min - pad, max + pad];
}

function compact(v: number): string {
  const a = Math.abs(v);
  if (a >= 1000) return `${+(v / 1000).toFixed(1)}k`;
  return String(+v.toFixed(a < 1 ? 2 : 1));
}

customElements.define('metric-chart', MetricChart);

declare global {
  interface HTMLElementTagNameMap {
    'metric-chart': MetricChart;
  }
}
