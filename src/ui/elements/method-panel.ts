/**
 * <method-panel>: one method's live view: counters, speed and time split, and its four charts (success,
 * outcome mix, credit-signal ratios, CCR).
 *
 * The host carries `data-method` and `data-iteration` (completed iterations shown), kept current: the
 * contract the end-to-end tests read. Everything shown is read from the history passed down: with
 * several seeds, the mean over seeds of the iterations every seed has completed (src/page/seeds.ts),
 * and the header says how many seeds.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { RaceEntryName } from '../../race/entries.ts';
import { fieldColumns, successColumns } from '../../page/chart-data.ts';
import { METRIC_DOCS } from '../../page/metric-docs.ts';
import type { MetricHistory } from '../../page/metric-history.ts';
import { methodLabel, sharedStyles } from '../theme.ts';
import type { ChartSeries } from './metric-chart.ts';
import './metric-chart.ts';
import './metric-tip.ts';

const OUTCOME_SERIES: ChartSeries[] = [
  { label: 'full', color: '--success', width: 1 },
  { label: 'partial', color: '--partial', width: 1 },
  { label: 'failure', color: '--failure', width: 1 },
];

const RATIO_KEYS = ['sampleUtilization', 'zeroAdvantageRatio', 'contradictoryRatio', 'signalRetention'] as const;
const RATIO_SERIES: ChartSeries[] = [
  { label: 'utilisation', color: '--c-util', width: 2, doc: METRIC_DOCS.sampleUtilization.doc },
  { label: 'zero-A', color: '--c-zero', width: 2, dash: [6, 4], doc: METRIC_DOCS.zeroAdvantageRatio.doc },
  { label: 'contradictory', color: '--c-contra', width: 2, dash: [2, 3], doc: METRIC_DOCS.contradictoryRatio.doc },
  { label: 'retention', color: '--c-retain', width: 1.5, dash: [10, 3, 2, 3], doc: METRIC_DOCS.signalRetention.doc },
];

export class MethodPanel extends LitElement {
  static override properties = {
    method: { type: String },
    history: { attribute: false },
    revision: { type: Number },
    smoothing: { type: Number },
    halted: { type: String },
    fallback: { type: String },
    seeds: { type: Number },
  };

  /** The race entry shown: a method or a named variant of one (src/race/entries.ts). */
  declare method: RaceEntryName;
  declare history: MetricHistory | null;
  /** Bumped by the page when the history grew. */
  declare revision: number;
  /** β of the debiased EMA of the success curve. */
  declare smoothing: number;
  /** Why this method stopped, if it did. */
  declare halted: string;
  /** Why this panel left WebGPU and where it went on (a GPU fault); it trains on, so a status, not an alert. */
  declare fallback: string;
  /** Seeds the history is the mean of. */
  declare seeds: number;

  constructor() {
    super();
    this.method = 'grpo';
    this.history = null;
    this.revision = 0;
    this.smoothing = 0.9;
    this.halted = '';
    this.fallback = '';
    this.seeds = 1;
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        min-width: 0;
      }
      .card {
        display: flex;
        flex-direction: column;
        gap: 14px;
        border-top: 4px solid var(--method-color);
      }
      header {
        display: flex;
        align-items: baseline;
        gap: 10px;
        flex-wrap: wrap;
      }
      header h2 {
        font-size: 1.25rem;
        color: var(--method-ink);
      }
      .overrides {
        flex-basis: 100%;
        color: var(--fg-muted);
        font-size: 0.8rem;
      }
      .formula {
        font-size: 0.85rem;
        color: var(--fg-muted);
      }
      .seeds {
        margin-left: auto;
        font-size: 0.8rem;
        font-weight: 600;
        color: var(--fg-muted);
      }
      dl {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(110px, 1fr));
        gap: 8px;
        margin: 0;
      }
      dl > div {
        padding: 8px 10px;
        border-radius: 8px;
        background: var(--surface-2);
        min-width: 0;
      }
      dt {
        display: flex;
        align-items: center;
        gap: 4px;
        font-size: 0.75rem;
        color: var(--fg-muted);
        white-space: nowrap;
      }
      dd {
        margin: 2px 0 0;
        font-size: 1.15rem;
        font-weight: 650;
        font-variant-numeric: tabular-nums;
      }
      .split {
        grid-column: 1 / -1;
      }
      .bar {
        display: flex;
        height: 10px;
        margin: 6px 0 4px;
        border-radius: 5px;
        overflow: hidden;
        background: var(--border);
      }
      .bar span {
        height: 100%;
      }
      .split-legend {
        display: flex;
        flex-wrap: wrap;
        gap: 2px 12px;
        font-size: 0.75rem;
        color: var(--fg-muted);
        font-variant-numeric: tabular-nums;
      }
      .split-legend i {
        display: inline-block;
        width: 8px;
        height: 8px;
        margin-right: 4px;
        border-radius: 2px;
      }
      .charts {
        display: grid;
        grid-template-columns: 1fr;
        gap: 14px;
      }
      .halted,
      .fallback {
        margin: 0;
        padding: 8px 10px;
        border-radius: 8px;
        background: var(--warn-bg);
        font-size: 0.85rem;
      }
    `,
  ];

  protected override updated(): void {
    this.dataset.method = this.method;
    this.dataset.iteration = String(this.history?.latest?.iteration ?? 0);
    // The env steps per second shown (for tests and scripts: what a wide batch on a GPU buys).
    const rate = this.history?.latest?.envStepsPerSecond;
    if (rate !== undefined && Number.isFinite(rate)) this.dataset.envStepsPerSecond = String(Math.round(rate));
    else delete this.dataset.envStepsPerSecond;
  }

  override render() {
    const label = methodLabel(this.method);
    const h = this.history;
    const latest = h?.latest;
    const itPerSec = h?.iterationsPerSecond() ?? NaN;
    const [xs, raw, smooth] = h ? successColumns(h, this.smoothing) : [[], [], []];
    const lastSmooth = smooth.length ? smooth[smooth.length - 1] : null;
    const rev = this.revision;
    const file = (name: string) => `beacon-live-${this.method}-${name}`;
    return html`
      <section class="card" style="--method-color: var(${label.color}); --method-ink: var(${label.ink})" aria-labelledby="title">
        <header>
          <h2 id="title">${label.name}</h2>
          <span class="formula">${label.formula}</span>
          ${this.seeds > 1 ? html`<span class="seeds" data-seeds=${this.seeds}>mean of ${this.seeds} seeds</span>` : nothing}
          ${label.overrides ? html`<span class="overrides" title="This panel runs these settings instead of the shared ones">runs ${label.overrides}</span>` : nothing}
        </header>
        ${this.halted ? html`<p class="halted" role="alert">${this.halted}</p>` : nothing}
        ${this.fallback ? html`<p class="fallback" role="status" data-fallback>${this.fallback}</p>` : nothing}
        <dl>
          ${this.stat('Iteration', METRIC_DOCS.iteration.doc, latest ? String(latest.iteration) : '0')}
          ${this.stat('Success', `${METRIC_DOCS.success.doc} Shown: the smoothed value.`, lastSmooth === null ? '–' : pct(lastSmooth))}
          ${this.stat(METRIC_DOCS.iterationsPerSecond.label, METRIC_DOCS.iterationsPerSecond.doc, fixed(itPerSec, 2))}
          ${this.stat(METRIC_DOCS.envStepsPerSecond.label, METRIC_DOCS.envStepsPerSecond.doc, latest ? thousands(latest.envStepsPerSecond) : '–')}
          <div class="split">
            <dt>${METRIC_DOCS.timeSplit.label}<metric-tip .label=${METRIC_DOCS.timeSplit.label} .doc=${METRIC_DOCS.timeSplit.doc}></metric-tip></dt>
            <dd>${this.timeSplit()}</dd>
          </div>
        </dl>
        <div class="charts">
          <metric-chart
            heading="Success rate"
            .doc=${METRIC_DOCS.success.doc}
            .series=${[
              { label: 'per iteration', color: label.color, width: 1, alpha: 0.3, hideInLegend: true },
              { label: `smoothed (β ${this.smoothing})`, color: label.color, width: 2.5 },
            ]}
            .data=${[xs, raw, smooth]}
            .revision=${rev}
            percent
            y-min="0"
            y-max="1"
            filename=${file('success')}
          ></metric-chart>
          <metric-chart
            heading=${METRIC_DOCS.outcomeMix.label}
            .doc=${METRIC_DOCS.outcomeMix.doc}
            .series=${OUTCOME_SERIES}
            .data=${h ? fieldColumns(h, ['success', 'partial', 'failure']) : [[], [], [], []]}
            .revision=${rev}
            percent
            stacked
            y-min="0"
            y-max="1"
            plot-height="130"
            filename=${file('outcome-mix')}
          ></metric-chart>
          <metric-chart
            heading="Credit signal"
            .doc=${'Per iteration: sample utilisation, zero-advantage ratio, contradictory action ratio and signal retention. Each legend entry explains its metric.'}
            .series=${RATIO_SERIES}
            .data=${h ? fieldColumns(h, RATIO_KEYS) : [[], [], [], [], []]}
            .revision=${rev}
            percent
            y-min="0"
            y-max="1"
            filename=${file('credit-signal')}
          ></metric-chart>
          <metric-chart
            heading=${METRIC_DOCS.ccr.label}
            .doc=${METRIC_DOCS.ccr.doc}
            .series=${[{ label: 'CCR', color: label.color, width: 2 }]}
            .data=${h ? fieldColumns(h, ['ccr']) : [[], []]}
            .markers=${[{ at: 1, axis: 'y', label: 'CCR = 1', color: '--fg-muted' }]}
            .revision=${rev}
            plot-height="130"
            filename=${file('ccr')}
          ></metric-chart>
        </div>
      </section>
    `;
  }

  private stat(name: string, doc: string, value: string) {
    return html`<div>
      <dt>${name}<metric-tip .label=${name} .doc=${doc}></metric-tip></dt>
      <dd>${value}</dd>
    </div>`;
  }

  private timeSplit() {
    const ms = this.history?.latest?.ms;
    if (!ms) return html`<span class="muted">–</span>`;
    const total = ms.rollout + ms.advantage + ms.update || 1;
    const parts = [
      { name: 'rollout', v: ms.rollout, color: 'var(--c-rollout)' },
      { name: 'advantage', v: ms.advantage, color: 'var(--c-advantage)' },
      { name: 'update', v: ms.update, color: 'var(--c-update)' },
    ];
    return html`<div class="bar" role="img" aria-label=${parts.map((p) => `${p.name} ${p.v.toFixed(0)} ms`).join(', ')}>
        ${parts.map((p) => html`<span style="width:${(100 * p.v) / total}%;background:${p.color}"></span>`)}
      </div>
      <div class="split-legend">
        ${parts.map((p) => html`<span><i style="background:${p.color}"></i>${p.name} ${p.v < 10 ? p.v.toFixed(1) : p.v.toFixed(0)} ms</span>`)}
      </div>`;
  }
}

function pct(v: number): string {
  return `${(v * 100).toFixed(1)}%`;
}

function fixed(v: number, digits: number): string {
  return Number.isFinite(v) ? v.toFixed(digits) : '–';
}

function thousands(v: number): string {
  if (!Number.isFinite(v)) return '–';
  return v >= 10000 ? `${(v / 1000).toFixed(1)}k` : v.toFixed(0);
}

customElements.define('method-panel', MethodPanel);

declare global {
  interface HTMLElementTagNameMap {
    'method-panel': MethodPanel;
  }
}
