/**
 * The ± 1 sd band around a method's mean success over seeds, for the comparison chart.
 *
 * The band is taken over the seeds' *smoothed* curves (the same debiased EMA the bold line is drawn
 * with), so it measures how far the seeds' visible curves spread, not the batch-to-batch noise of raw
 * success. The EMA is linear, so the mean of the seeds' smoothed curves is the smoothed mean curve: the
 * band is centred on the bold line. sd is the sample standard deviation (n − 1): with one seed there
 * is no spread to estimate, and no band.
 */
import type { Column } from './chart-data.ts';
import type { MetricHistory } from './metric-history.ts';
import { debiasedEma } from './smoothing.ts';

/** Mean and sample standard deviation (n − 1) of `values`; sd is null for fewer than two values. */
export function meanSd(values: readonly number[]): { mean: number; sd: number | null } {
  const n = values.length;
  if (n === 0) return { mean: NaN, sd: null };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, sd: null };
  const ss = values.reduce((a, v) => a + (v - mean) ** 2, 0);
  return { mean, sd: Math.sqrt(ss / (n - 1)) };
}

/**
 * Lower and upper edges (mean ∓ sd of the seeds' smoothed success) on the comparison's x axis
 * 1…`length` (iteration i at index i − 1), over the iterations every seed has completed; null with
 * fewer than two seeds.
 */
export function successBand(perSeed: readonly MetricHistory[], beta: number, length: number): { lower: Column; upper: Column } | null {
  if (perSeed.length < 2) return null;
  const smoothed = perSeed.map((h) => debiasedEma(h.columns.success, beta));
  const lower: Column = new Array(length).fill(null);
  const upper: Column = new Array(length).fill(null);
  const common = Math.min(...perSeed.map((h) => h.length));
  for (let j = 0; j < common; j++) {
    const x = perSeed[0].iterations[j];
    if (x < 1 || x > length) continue;
    const values = smoothed.map((s) => s[j]);
    if (values.some((v) => v === null)) continue;
    const { mean, sd } = meanSd(values as number[]);
    lower[x - 1] = mean - sd!;
    upper[x - 1] = mean + sd!;
  }
  return { lower, upper };
}

/**
 * Each seed's own smoothed success (the same debiased EMA as the bold line) on the comparison's x axis
 * 1…`length`, one column per seed in seed order: the thin lines the race chart draws under a method's
 * band when the visitor asks for its seeds. Unlike the band, a seed's line runs as far as that seed
 * has trained.
 */
export function seedLines(perSeed: readonly MetricHistory[], beta: number, length: number): Column[] {
  return perSeed.map((h) => {
    const smoothed = debiasedEma(h.columns.success, beta);
    const line: Column = new Array(length).fill(null);
    h.iterations.forEach((x, j) => {
      if (x >= 1 && x <= length) line[x - 1] = smoothed[j];
    });
    return line;
  });
}
