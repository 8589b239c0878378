/**
 * <comparison-chart>: both methods' success rates on one chart (raw faint, smoothed bold), the target
 * line, and the iteration at which each method's smoothed curve first reached the target.
 */
import { LitElement, css, html } from 'lit';
import type { Method } from '../advantages/types.ts';
import { comparisonColumns } from '../page/chart-data.ts';
import { METRIC_DOCS } from '../page/metric-docs.ts';
import type { MetricHistory } from '../page/metric-history.ts';
import type { ChartMarker, ChartSeries } from './metric-chart.ts';
import { METHOD_LABELS } from './method-panel.ts';
import { sharedStyles } from './theme.ts';
import './metric-chart.ts';
import './metric-tip.ts';

export class ComparisonChart extends LitElement {
  static override properties = {
    histories: { attribute: false },
    revision: { type: Number },
    smoothing: { type: Number },
    target: { type: Number },
  };

  declare histories: Record<Method, MetricHistory> | null;
  declare revision: number;
  declare smoothing: number;
  declare target: number;

  constructor() {
    super();
    this.histories = null;
    this.revision = 0;
    this.smoothing = 0.9;
    this.target = 0.6;
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
    const { columns, crossing } = comparisonColumns(this.histories, this.smoothing, this.target);
    const pctTarget = `${Math.round(this.target * 100)}%`;
    const series: ChartSeries[] = (['grpo', 'beacon'] as const).flatMap((m): ChartSeries[] => [
      { label: `${METHOD_LABELS[m].name} per iteration`, color: METHOD_LABELS[m].color, width: 1, alpha: 0.28, hideInLegend: true },
      { label: METHOD_LABELS[m].name, color: METHOD_LABELS[m].color, width: 2.75, ...(m === 'grpo' ? { dash: [7, 3] } : {}) },
    ]);
    const markers: ChartMarker[] = [{ at: this.target, axis: 'y', label: `target ${pctTarget}`, color: '--fg-muted' }];
    for (const m of ['grpo', 'beacon'] as const) {
      const at = crossing[m];
      if (at !== null) markers.push({ at, axis: 'x', label: `${METHOD_LABELS[m].name} @ ${at}`, color: METHOD_LABELS[m].color });
    }
    const tip = `${METRIC_DOCS.iterationsToTarget.doc} The target is a page setting (target=${this.target}).`;
    return html`<section class="card" aria-label="Comparison of the two methods">
      <metric-chart
        heading="Success rate: GRPO vs BEACON"
        .doc=${`${METRIC_DOCS.success.doc} Both methods train on the same task stream from the same seed.`}
        .series=${series}
        .data=${columns}
        .markers=${markers}
        .revision=${this.revision}
        percent
        y-min="0"
        y-max="1"
        plot-height="230"
        filename="beacon-live-comparison"
      ></metric-chart>
      <ul class="reached" aria-label="Iterations to ${pctTarget} success">
        <li class="muted">Iterations to ${pctTarget} <metric-tip .label=${METRIC_DOCS.iterationsToTarget.label} .doc=${tip}></metric-tip></li>
        ${(['grpo', 'beacon'] as const).map(
          (m) => html`<li data-reached=${m}>
            <span class="dot" style="background: var(${METHOD_LABELS[m].color})"></span>${METHOD_LABELS[m].name}
            <b>${crossing[m] === null ? 'not yet' : `iteration ${crossing[m]}`}</b>
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
