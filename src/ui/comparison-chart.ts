/**
 * <comparison-chart>: the racing methods' success rates on one chart (raw faint, smoothed bold), the
 * target line, and each method's iterations to the target (src/metrics/iterations-to-target.ts).
 */
import { LitElement, css, html } from 'lit';
import { raceEntry, type RaceEntryName } from '../methods/variants.ts';
import { comparisonColumns } from '../page/chart-data.ts';
import { METRIC_DOCS } from '../page/metric-docs.ts';
import type { MetricHistory } from '../page/metric-history.ts';
import type { ChartMarker, ChartSeries } from './metric-chart.ts';
import { methodColorVar, sharedStyles } from './theme.ts';
import './metric-chart.ts';
import './metric-tip.ts';

export class ComparisonChart extends LitElement {
  static override properties = {
    histories: { attribute: false },
    methods: { attribute: false },
    revision: { type: Number },
    smoothing: { type: Number },
    target: { type: Number },
    plotHeight: { type: Number, attribute: 'plot-height' },
  };

  declare histories: Partial<Record<RaceEntryName, MetricHistory>> | null;
  /** The racing methods, in display order. */
  declare methods: readonly RaceEntryName[];
  declare revision: number;
  declare smoothing: number;
  declare target: number;
  /** Height of the plot in CSS pixels (presenter mode draws it larger). */
  declare plotHeight: number;

  constructor() {
    super();
    this.histories = null;
    this.methods = [];
    this.revision = 0;
    this.smoothing = 0.9;
    this.target = 0.6;
    this.plotHeight = 230;
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .card {
        display: flex;
        flex-direction: column;
        gap: 10px;
      }
      .reached {
        display: flex;
        flex-wrap: wrap;
        gap: 8px 18px;
        margin: 0;
        padding: 0;
        list-style: none;
        font-size: 0.9rem;
      }
      .reached li {
        display: flex;
        align-items: center;
        gap: 6px;
      }
      .reached b {
        font-variant-numeric: tabular-nums;
      }
      .dot {
        width: 10px;
        height: 10px;
        border-radius: 50%;
      }
    `,
  ];

  override render() {
    if (!this.histories) return html``;
    const methods = this.methods.filter((m) => this.histories![m]);
    const { columns, crossing } = comparisonColumns(this.histories, methods, this.smoothing, this.target);
    const pctTarget = `${Math.round(this.target * 100)}%`;
    // Line styles keep the methods apart without colour: solid for the first, then dashes and dots.
    const DASHES: (number[] | undefined)[] = [undefined, [7, 3], [2, 3], [10, 3, 2, 3]];
    const series: ChartSeries[] = methods.flatMap((m, i): ChartSeries[] => {
      const { label } = raceEntry(m);
      const dash = DASHES[i % DASHES.length];
      return [
        { label: `${label} per iteration`, color: methodColorVar(m), width: 1, alpha: 0.28, hideInLegend: true },
        { label, color: methodColorVar(m), width: 2.75, ...(dash ? { dash } : {}) },
      ];
    });
    const markers: ChartMarker[] = [{ at: this.target, axis: 'y', label: `target ${pctTarget}`, color: '--fg-muted' }];
    for (const m of methods) {
      const at = crossing[m];
      if (at != null) markers.push({ at, axis: 'x', label: `${raceEntry(m).label} @ ${at}`, color: methodColorVar(m) });
    }
    const tip = `${METRIC_DOCS.iterationsToTarget.doc} The target is a page setting (target=${this.target}).`;
    return html`<section class="card" aria-label="Comparison of the methods">
      <metric-chart
        heading=${`Success rate: ${methods.map((m) => raceEntry(m).label).join(' vs ')}`}
        .doc=${`${METRIC_DOCS.success.doc} Every method trains on the same task stream from the same seed.`}
        .series=${series}
        .data=${columns}
        .markers=${markers}
        .revision=${this.revision}
        percent
        y-min="0"
        y-max="1"
        plot-height=${this.plotHeight}
        filename="beacon-live-comparison"
      ></metric-chart>
      <ul class="reached" aria-label="Iterations to ${pctTarget} success">
        <li class="muted">Iterations to ${pctTarget} <metric-tip .label=${METRIC_DOCS.iterationsToTarget.label} .doc=${tip}></metric-tip></li>
        ${methods.map(
          (m) => html`<li data-reached=${m}>
            <span class="dot" style="background: var(${methodColorVar(m)})"></span>${raceEntry(m).label}
            <b>${crossing[m] == null ? 'not yet' : `iteration ${crossing[m]}`}</b>
          </li>`,
        )}
      </ul>
    </section>`;
  }
}

customElements.define('comparison-chart', ComparisonChart);

declare global {
  interface HTMLElementTagNameMap {
    'comparison-chart': ComparisonChart;
  }
}
