/**
 * <metric-chart>: one live uPlot chart with a heading, an explained legend and a PNG export.
 *
 * Data flows down: `data` is uPlot's aligned columns (x first, null for gaps) and `revision` says when
 * they changed; the chart calls `setData` only then, so the page's update throttle bounds its redraws.
 * Series colours are CSS custom properties resolved at build time; the chart rebuilds when the colour
 * scheme changes. `stacked` draws the series as cumulative bands (the legend still shows each value).
 * The legend is our own HTML (values at the cursor, else the latest), so each entry can carry a tooltip.
 * The x axis is iterations, or environment steps (`x-axis="env steps"`). The data side is
 * chart-values.ts, the drawing (uPlot's options, the PNG) chart-drawing.ts.
 */
import { LitElement, css, html, nothing, unsafeCSS, type PropertyValues } from 'lit';
import uPlot from 'uplot';
import uplotCss from 'uplot/dist/uPlot.min.css?inline';
import { ColorSchemeController } from '../controllers/color-scheme-controller.ts';
import { canvasToPng, downloadBlob } from '../download.ts';
import { ResizeController } from '../controllers/resize-controller.ts';
import { VisibilityController } from '../controllers/visibility-controller.ts';
import { cssColor, sharedStyles } from '../theme.ts';
import { composePng, plotOptions, type ChartMarker, type ChartSeries } from './chart-drawing.ts';
import { formatValue, formatX, lastDefined, lastIndex, plottedColumns, shownValue, type ChartData, type ChartX } from './chart-values.ts';
import './metric-tip.ts';

export type { ChartMarker, ChartSeries } from './chart-drawing.ts';
export type { ChartData, ChartX } from './chart-values.ts';

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
    xAxis: { type: String, attribute: 'x-axis' },
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
  /** What x is: completed iterations (the default) or environment steps. */
  declare xAxis: ChartX;
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
  /**
   * Off screen the plot keeps its last drawing and `stale` notes that the data moved on since. A chart
   * that has never been on screen is not built at all (a PNG export builds it): below the fold, the
   * page's start builds nothing that the training workers' first seconds must share the cores with.
   */
  private readonly onScreen = new VisibilityController(this, (visible) => {
    if (!visible) return;
    if (this.plot) this.catchUp();
    else this.requestUpdate();
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
    this.xAxis = 'iterations';
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
      /* At least one line before the first point, so that the first values move nothing below. */
      .legend {
        min-height: 1.5em;
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
      /* Wide enough for "no data yet" and "48.5k steps": the entries after it keep their place. */
      .legend li.at {
        min-width: 6.5em;
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
      <div class="plot" role="img" aria-label=${this.summary(idx)} style="min-height: ${this.plotHeight}px"></div>
      <ul class="legend" aria-label="${this.heading} legend">
        <li class="muted at">${idx === null ? 'no data yet' : x !== null && x !== undefined ? formatX(x, this.xAxis) : 'latest'}</li>
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
    if (!this.plot) {
      if (this.onScreen.seen) this.ensurePlot();
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
    const unbuilt = !this.plot;
    if (!this.ensurePlot() || !this.plot) throw new Error(`${this.heading}: the chart has not been drawn yet`);
    if (this.stale || unbuilt) {
      this.catchUp();
      await null; // uPlot commits a redraw in a microtask
    }
    const legend = this.series.flatMap((s, i) => (s.hideInLegend ? [] : [{ text: `${s.label} ${this.valueText(i, null)}`, color: this.resolve(s.color) }]));
    const canvas = composePng(this.plot.ctx.canvas, this.plot.width, this.heading, legend, cssColor(this, '--surface', '#fff'), cssColor(this, '--fg', '#111'));
    return canvasToPng(canvas);
  }

  private resized(width: number): void {
    if (this.plot) this.plot.setSize({ width, height: this.plotHeight });
    else this.requestUpdate();
  }

  private exportPng = async () => {
    downloadBlob(await this.toPng(), `${this.filename}.png`);
  };

  /** Series i's value at the cursor, or without a cursor its latest value. */
  private shown(i: number, cursor: number | null): number | null | undefined {
    return shownValue(this.data, i + 1, cursor);
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
    return formatValue(v, this.percent);
  }

  private summary(idx: number | null): string {
    if (idx === null) return `${this.heading}: no data yet`;
    const parts = this.series.filter((s) => !s.hideInLegend).map((s) => `${s.label} ${this.valueText(this.series.indexOf(s), null)}`);
    return `${this.heading}, latest values after ${this.data[0][idx]} ${this.xAxis === 'iterations' ? 'iterations' : 'environment steps'}: ${parts.join(', ')}`;
  }

  private buildKey(): string {
    return JSON.stringify([this.series, this.percent, this.stacked, this.yMin, this.yMax, this.plotHeight, this.xAxis, this.scheme.version]);
  }

  /** Plotted columns: cumulative sums when stacked. */
  private plotData(): ChartData {
    return plottedColumns(this.data, this.stacked);
  }

  /**
   * Builds the plot if it is not built and can be (laid out with a width, with series to draw: a chart
   * whose series are not known yet would only be built again when they come). True when there is a plot.
   */
  private ensurePlot(): boolean {
    if (this.plot) return true;
    const el = this.renderRoot.querySelector<HTMLElement>('.plot');
    const width = el ? this.resize.width || el.clientWidth : 0;
    if (!el || width <= 0 || this.series.length === 0) return false;
    this.build(el, width);
    return true;
  }

  private build(el: HTMLElement, width: number): void {
    const opts = plotOptions({
      width,
      height: this.plotHeight,
      series: this.series,
      x: this.xAxis,
      percent: this.percent,
      stacked: this.stacked,
      yMin: this.yMin,
      yMax: this.yMax,
      markers: () => this.markers,
      resolve: (c) => this.resolve(c),
      fg: cssColor(this, '--fg-muted', '#666'),
      grid: cssColor(this, '--grid', '#ddd'),
      onCursor: (idx) => (this.cursorIdx = idx),
    });
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

customElements.define('metric-chart', MetricChart);

declare global {
  interface HTMLElementTagNameMap {
    'metric-chart': MetricChart;
  }
}
