/**
 * Several seeds per method (the page setting `seeds`): which seeds, and how their records combine.
 *
 * Seed i of a race started at `seed` is `seed + i`, the same numbering the study uses for its seeds
 * (src/study/matrix.ts: seeds 1…k, each run's config seed is the seed itself), so seed s of a method on
 * the page is exactly the single-seed run of seed s, and every method trains on the same k task streams.
 *
 * `SeedHistories` keeps each seed's records (for export and the sd band) and the per-iteration mean
 * over seeds (for everything else the page draws). With one seed the mean is that seed's own history,
 * so a single-seed page draws exactly what it drew before seeds existed.
 */
import type { IterationRecord } from '../trainer/iteration-record.ts';
import { MetricHistory } from './metric-history.ts';

export { seedConfigs, seedList } from '../race/seeds.ts';

/**
 * The mean of several seeds' records of one iteration, field by field (nested objects such as `ms`
 * too). Undefined values (NaN) are left out of a mean, as the page's other means do; a field undefined
 * in every seed stays NaN. Non-numeric fields (method) are taken from the first record.
 */
export function meanRecord(records: readonly IterationRecord[]): IterationRecord {
  return meanOf(records) as IterationRecord;
}

function meanOf(values: readonly unknown[]): unknown {
  const first = values[0];
  if (typeof first === 'number') {
    const finite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    return finite.length ? finite.reduce((a, b) => a + b, 0) / finite.length : NaN;
  }
  if (first !== null && typeof first === 'object') {
    return Object.fromEntries(Object.keys(first).map((k) => [k, meanOf(values.map((v) => (v as Record<string, unknown>)[k]))]));
  }
  return first;
}

/** One method's records: per seed, and their mean over the iterations every seed has completed. */
export class SeedHistories {
  /** Per seed (in `seeds` order): that seed's records as they arrive. */
  readonly perSeed: MetricHistory[];
  /** The mean over seeds of each iteration all seeds have completed (with one seed: `perSeed[0]`). */
  readonly mean: MetricHistory;

  constructor(readonly seeds: readonly number[]) {
    if (seeds.length < 1) throw new RangeError('SeedHistories needs at least one seed');
    this.perSeed = seeds.map(() => new MetricHistory());
    this.mean = seeds.length === 1 ? this.perSeed[0] : new MetricHistory();
  }

  /**
   * Adds `seed`'s next record. Seeds of a method train in lock-step, so the n-th record of every seed
   * is the same iteration; the mean grows once the slowest seed has delivered it.
   */
  push(seed: number, record: IterationRecord, arrivedAt: number): void {
    const i = this.seeds.indexOf(seed);
    if (i < 0) throw new RangeError(`seed ${seed} is not one of this method's seeds (${this.seeds.join(', ')})`);
    this.perSeed[i].push(record, arrivedAt);
    if (this.perSeed.length === 1) return;
    while (this.perSeed.every((h) => h.length > this.mean.length)) {
      const n = this.mean.length;
      this.mean.push(meanRecord(this.perSeed.map((h) => h.records[n])), arrivedAt);
    }
  }

  /** Every seed's records, each marked with its seed (the exports' rows). */
  seededRecords(): (IterationRecord & { seed: number })[] {
    return this.perSeed.flatMap((h, i) => h.records.map((r) => ({ ...r, seed: this.seeds[i] })));
  }
}
