/**
 * One method's iteration records, kept whole (for export) and as chart columns (for uPlot).
 *
 * Columns are plain arrays with null for undefined values (uPlot draws null as a gap; NaN would break
 * its scales). Appending is O(1); charts read the columns without copying.
 */
import type { IterationRecord } from '../trainer/iteration-record.ts';

/** The numeric record fields the charts plot. */
const SERIES_KEYS = [
  'success',
  'partial',
  'failure',
  'sampleUtilization',
  'zeroAdvantageRatio',
  'contradictoryRatio',
  'signalRetention',
  'ccr',
  'policyLoss',
  'entropy',
  'approxKl',
  'clipFraction',
  'meanEpisodeLength',
] as const satisfies readonly (keyof IterationRecord)[];
export type SeriesKey = (typeof SERIES_KEYS)[number];

export class MetricHistory {
  readonly records: IterationRecord[] = [];
  readonly iterations: number[] = [];
  readonly columns: Record<SeriesKey, (number | null)[]>;
  /** Wall-clock ms (page clock) when each record arrived; for iterations per second. */
  private readonly arrivals: number[] = [];

  constructor() {
    this.columns = Object.fromEntries(SERIES_KEYS.map((k) => [k, []])) as unknown as Record<SeriesKey, (number | null)[]>;
  }

  get length(): number {
    return this.records.length;
  }

  get latest(): IterationRecord | undefined {
    return this.records[this.records.length - 1];
  }

  push(record: IterationRecord, arrivedAt: number): void {
    this.records.push(record);
    this.iterations.push(record.iteration);
    this.arrivals.push(arrivedAt);
    for (const k of SERIES_KEYS) {
      const v = record[k];
      this.columns[k].push(Number.isFinite(v) ? v : null);
    }
  }

  /** Iterations per second over the last `window` records (NaN until two have arrived). */
  iterationsPerSecond(window = 10): number {
    const n = this.arrivals.length;
    if (n < 2) return NaN;
    const from = Math.max(0, n - 1 - window);
    const dt = this.arrivals[n - 1] - this.arrivals[from];
    return dt > 0 ? ((n - 1 - from) * 1000) / dt : NaN;
  }

  /** Mean over the last `window` records of a numeric field (NaN values skipped). */
  recentMean(pick: (r: IterationRecord) => number, window = 10): number {
    let sum = 0;
    let count = 0;
    for (let i = Math.max(0, this.records.length - window); i < this.records.length; i++) {
      const v = pick(this.records[i]);
      if (Number.isFinite(v)) {
        sum += v;
        count++;
      }
    }
    return count ? sum / count : NaN;
  }
}
