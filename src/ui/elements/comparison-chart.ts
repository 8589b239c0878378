/**
 * <comparison-chart>: the racing methods' success rates on one chart (raw faint, smoothed bold), the
 * target line, and each method's iterations to the target (src/metrics/iterations-to-target.ts).
 * With several seeds per method the curves are the mean over seeds, each with a shaded ± 1 sd band
 * (src/page/seed-bands.ts) labelled in the legend; with one seed the chart is as it always was. Below
 * the chart, one button per method with seeds draws that method's seeds' own thin lines while the
 * pointer or the focus is on it, and keeps them drawn once pressed (`data-seed-lines`, aria-pressed).
 * A toggle plots success against environment steps played instead of iterations (page setting `raceX`):
 * with thousands of runs per iteration, what a GPU buys shows as steps, not updates.
 */
import { LitElement, css, html } from 'lit';
import { raceEntry, type RaceEntryName } from '../../race/entries.ts';
import { comparisonColumns, envStepColumns } from '../../page/chart-data.ts';
import type { RaceX } from '../../page/page-settings.ts';
import { emit, type PageSettingDetail } from '../events.ts';
import { METRIC_DOCS } from '../../page/metric-docs.ts';
import type { MetricHistory } from '../../page/metric-history.ts';
import { seedLines, successBand } from '../../page/seed-bands.ts';
import type { SeedHistories } from '../../page/seeds.ts';
import type { ChartMarker, ChartSeries } from './metric-chart.ts';
import { methodColorVar, sharedStyles } from '../theme.ts';
import './metric-chart.ts';
import './metric-tip.ts';

export class ComparisonChart extends LitElement {
  static override properties = {
    histories: { attribute: false },
    seedRuns: { attribute: false },
    methods: { attribute: false },
    revision: { type: Number },
    smoothing: { type: Number },
    target: { type: Number },
    plotHeight: { type: Number, attribute: 'plot-height' },
    x: { type: String },
    pinnedSeeds: { state: true },
    previewSeeds: { state: true },
  };

  /** Per entry: the mean over seeds (one seed: its own history). */
  declare histories: Partial<Record<RaceEntryName, MetricHistory>> | null;
  /** Per entry: every seed's history, for the sd bands (absent or one seed: no band). */
  declare seedRuns: Partial<Record<RaceEntryName, SeedHistories>> | null;
  /** The racing methods, in display order. */
  declare methods: readonly RaceEntryName[];
  declare revision: number;
  declare smoothing: number;
  declare target: number;
  /** Height of the plot in CSS pixels (presenter mode draws it larger). */
  declare plotHeight: number;
  /** The x axis: iterations, or environment steps played. */
  declare x: RaceX;
  /** Methods whose seeds' lines stay drawn (pressed). */
  declare private pinnedSeeds: ReadonlySet<RaceEntryName>;
  /** The method whose seeds' lines are drawn while the pointer or the focus is on its button. */
  declare private previewSeeds: RaceEntryName | null;

  constructor() {
    super();
    this.histories = null;
    this.seedRuns = null;
    this.methods = [];
    this.revision = 0;
    this.smoothing = 0.9;
    this.target = 0.6;
    this.plotHeight = 230;
    this.x = 'iterations';
    this.pinnedSeeds = new Set();
    this.previewSeeds = null;
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
      /* One width for "not yet" and "iteration 123": a method reaching the target reflows nothing. */
      .reached b {
        display: inline-block;
        min-width: 7.5em;
        font-variant-numeric: tabular-nums;
      }
      .axis {
        display: flex;
        align-items: center;
        gap: 6px;
        font-size: 0.8rem;
      }
      .axis button {
        min-height: 28px;
        padding: 2px 10px;
        font-size: 0.8rem;
      }
      .axis button[aria-pressed='true'] {
        background: var(--accent);
        border-color: var(--accent);
        color: var(--on-accent);
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
    const listed = this.methods;
    const bySteps = this.x === 'envSteps';
    // Seed bands are drawn per iteration only (seeds play different numbers of steps).
    const { columns, crossing } = (bySteps ? envStepColumns : comparisonColumns)(this.histories, methods, this.smoothing, this.target);
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
    // Bands after every method's two curves: [lower, upper] per method with more than one seed.
    for (const [i, m] of methods.entries()) {
      const runs = bySteps ? undefined : this.seedRuns?.[m];
      const band = runs ? successBand(runs.perSeed, this.smoothing, columns[0].length) : null;
      if (!runs || !band) continue;
      const k = runs.seeds.length;
      const mean = series[2 * i + 1];
      mean.label = `${mean.label} (mean ± sd over ${k} seeds)`;
      mean.doc = `Bold line: the mean over ${k} seeds (${runs.seeds.join(', ')}) of the smoothed success rate. Shaded band: ± 1 standard deviation (sample, n − 1) of the seeds’ smoothed curves, over the iterations every seed has completed.`;
      mean.band = { lower: series.length, upper: series.length + 1 };
      series.push({ label: `${raceEntry(m).label} mean − sd`, color: methodColorVar(m), edge: true, hideInLegend: true });
      series.push({ label: `${raceEntry(m).label} mean + sd`, color: methodColorVar(m), edge: true, hideInLegend: true });
      columns.push(band.lower, band.upper);
    }
    // Each seed's own line, thin and faint, for the methods the visitor asked to see.
    for (const m of methods) {
      const runs = bySteps ? undefined : this.seedRuns?.[m];
      if (!runs || runs.seeds.length < 2 || !(this.pinnedSeeds.has(m) || this.previewSeeds === m)) continue;
      seedLines(runs.perSeed, this.smoothing, columns[0].length).forEach((line, j) => {
        series.push({ label: `${raceEntry(m).label} seed ${runs.seeds[j]}`, color: methodColorVar(m), width: 1, alpha: 0.55, hideInLegend: true });
        columns.push(line);
      });
    }
    const withSeeds = bySteps ? [] : methods.filter((m) => (this.seedRuns?.[m]?.seeds.length ?? 0) > 1);
    const markers: ChartMarker[] = [{ at: this.target, axis: 'y', label: `target ${pctTarget}`, color: '--fg-muted' }];
    for (const m of methods) {
      const at = crossing[m];
      if (at != null)
        markers.push({ at, axis: 'x', label: `${raceEntry(m).label} @ ${bySteps ? `${at.toLocaleString('en')} steps` : at}`, color: methodColorVar(m) });
    }
    const tip = `${METRIC_DOCS.iterationsToTarget.doc} The target is a page setting (target=${this.target}).`;
    return html`<section class="card" aria-label="Comparison of the methods">
      <metric-chart
        heading=${`Success rate: ${listed.map((m) => raceEntry(m).label).join(' vs ')}`}
        .doc=${`${METRIC_DOCS.success.doc} Every method trains on the same task stream from the same seed${this.seeds() > 1 ? `s; each curve is the mean over ${this.seeds()} seeds with a ± 1 sd band` : ''}.`}
        .series=${series}
        .data=${columns}
        .markers=${markers}
        .revision=${this.revision}
        percent
        y-min="0"
        y-max="1"
        plot-height=${this.plotHeight}
        x-axis=${bySteps ? 'env steps' : 'iterations'}
        filename="beacon-live-comparison"
      ></metric-chart>
      <div class="axis" role="group" aria-label="Race chart x axis">
        <span class="muted">x axis:</span>
        ${(['iterations', 'envSteps'] as const).map(
          (x) => html`<button type="button" data-race-x=${x} aria-pressed=${this.x === x ? 'true' : 'false'} @click=${() => this.setX(x)}>
            ${x === 'iterations' ? 'Iterations' : 'Env steps'}
          </button>`,
        )}
      </div>
      ${
        withSeeds.length === 0
          ? ''
          : html`<div class="axis" role="group" aria-label="Each seed's line">
              <span class="muted">each seed:</span>
              ${withSeeds.map(
                (m) => html`<button
                  type="button"
                  data-seed-lines=${m}
                  aria-pressed=${this.pinnedSeeds.has(m) ? 'true' : 'false'}
                  title=${`Draw each of ${raceEntry(m).label}'s ${this.seedRuns![m]!.seeds.length} seeds (${this.seedRuns![m]!.seeds.join(', ')}) as a thin line: while pointed at, or pressed`}
                  @click=${() => this.togglePinned(m)}
                  @mouseenter=${() => (this.previewSeeds = m)}
                  @mouseleave=${() => (this.previewSeeds = null)}
                  @focus=${() => (this.previewSeeds = m)}
                  @blur=${() => (this.previewSeeds = null)}
                >
                  ${raceEntry(m).label} × ${this.seedRuns![m]!.seeds.length}
                </button>`,
              )}
            </div>`
      }
      <ul class="reached" aria-label="Iterations to ${pctTarget} success">
        <li class="muted">Iterations to ${pctTarget} <metric-tip .label=${METRIC_DOCS.iterationsToTarget.label} .doc=${tip}></metric-tip></li>
        ${listed.map(
          (m) => html`<li data-reached=${m}>
            <span class="dot" style="background: var(${methodColorVar(m)})"></span>${raceEntry(m).label}
            <b>${crossing[m] == null ? 'not yet' : bySteps ? `${crossing[m]!.toLocaleString('en')} env steps` : `iteration ${crossing[m]}`}</b>
          </li>`,
        )}
      </ul>
    </section>`;
  }

  private togglePinned(m: RaceEntryName): void {
    const next = new Set(this.pinnedSeeds);
    if (!next.delete(m)) next.add(m);
    this.pinnedSeeds = next;
  }

  private setX(x: RaceX): void {
    if (x !== this.x) emit<PageSettingDetail>(this, 'page-setting', { changes: { raceX: x } });
  }

  /** Seeds per method (1 when there are no seed runs). */
  private seeds(): number {
    return Math.max(1, ...Object.values(this.seedRuns ?? {}).map((r) => r.seeds.length));
  }
}

customElements.define('comparison-chart', ComparisonChart);

declare global {
  interface HTMLElementTagNameMap {
    'comparison-chart': ComparisonChart;
  }
}
