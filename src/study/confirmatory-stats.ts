/**
 * Study v3's tests (docs/maths.md §11, fixed by docs/results/preregistration.md): the bootstrap
 * percentile interval of a mean over seeds, the exact paired sign-flip permutation test, TOST
 * equivalence by sign flips, and Holm–Bonferroni adjustment within a family.
 *
 * Pure and deterministic: every bootstrap call makes its own generator from BOOTSTRAP_SEED, so a figure
 * does not depend on which other figures were computed before it.
 */
import { Rng } from '../prng.ts';

export const BOOTSTRAP_RESAMPLES = 10_000;
export const BOOTSTRAP_SEED = 20261201;
export const CI_LEVEL = 0.95;
/** The exact test enumerates 2^n sign patterns; beyond this many pairs it would not be exact in time. */
export const MAX_SIGN_FLIP_PAIRS = 20;

/** Linear-interpolation quantile (type 7) of sorted values. */
function quantileSorted(sorted: Float64Array, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export interface BootstrapOptions {
  resamples?: number;
  level?: number;
  seed?: number;
}

/**
 * Percentile bootstrap interval of the mean of `xs`: `resamples` resamples of n values drawn with
 * replacement, the (1 − level)/2 and (1 + level)/2 quantiles of their means.
 */
export function bootstrapMeanCI(xs: readonly number[], options: BootstrapOptions = {}): [number, number] {
  const { resamples = BOOTSTRAP_RESAMPLES, level = CI_LEVEL, seed = BOOTSTRAP_SEED } = options;
  const n = xs.length;
  if (n === 0) throw new RangeError('bootstrapMeanCI needs at least one value');
  if (!xs.every(Number.isFinite)) throw new RangeError(`bootstrapMeanCI needs finite values, got ${JSON.stringify(xs)}`);
  const rng = new Rng(seed);
  const means = new Float64Array(resamples);
  // nextInt's rejection sampling, inlined (the hot loop of a study document): unbiased draws in [0, n).
  const limit = 4294967296 - (4294967296 % n);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let k = 0; k < n; k++) {
      let x = rng.nextUint32();
      while (x >= limit) x = rng.nextUint32();
      sum += xs[x % n];
    }
    means[b] = sum / n;
  }
  means.sort();
  return [quantileSorted(means, (1 - level) / 2), quantileSorted(means, (1 + level) / 2)];
}

/** Every sum Σ ±x_i over the 2^n sign patterns of `xs`, each computed directly (no running error). */
function signedSums(xs: readonly number[]): Float64Array {
  const out = new Float64Array(2 ** xs.length);
  for (let mask = 0; mask < out.length; mask++) {
    let s = 0;
    for (let i = 0; i < xs.length; i++) s += mask & (1 << i) ? -xs[i] : xs[i];
    out[mask] = s;
  }
  return out;
}

/** Number of sorted values ≥ t. */
function countAtLeast(sorted: Float64Array, t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/**
 * Exact one-sided paired sign-flip permutation p of "mean(d) > 0": the share of the 2^n sign patterns
 * whose mean is at least the observed one (the observed pattern and ties included). Sums equal up to
 * rounding (a zero difference, equal |d|) count as ties. Enumerated by meeting in the middle: the two
 * halves' 2^(n/2) signed sums, one sorted and searched.
 */
export function signFlipP(diffs: readonly number[]): number {
  const n = diffs.length;
  if (n === 0) throw new RangeError('signFlipP needs at least one paired difference');
  if (n > MAX_SIGN_FLIP_PAIRS) throw new RangeError(`signFlipP enumerates 2^n patterns; n must be at most ${MAX_SIGN_FLIP_PAIRS}, got ${n}`);
  if (!diffs.every(Number.isFinite)) throw new RangeError(`signFlipP needs finite differences, got ${JSON.stringify(diffs)}`);
  const observed = diffs.reduce((a, x) => a + x, 0);
  const tolerance = 1e-12 * diffs.reduce((a, x) => a + Math.abs(x), 0);
  const half = n >> 1;
  const left = signedSums(diffs.slice(0, half));
  const right = signedSums(diffs.slice(half)).sort();
  let count = 0;
  for (const a of left) count += countAtLeast(right, observed - a - tolerance);
  return count / 2 ** n;
}

/**
 * TOST equivalence of the paired differences within ±margin: the larger of the one-sided sign-flip p's
 * of "mean(d) + margin > 0" and "mean(d) − margin < 0".
 */
export function tostP(diffs: readonly number[], margin: number): number {
  if (!(margin > 0)) throw new RangeError(`tostP needs a positive margin, got ${margin}`);
  const above = signFlipP(diffs.map((d) => d + margin));
  const below = signFlipP(diffs.map((d) => margin - d));
  return Math.max(above, below);
}

/**
 * Holm–Bonferroni adjusted p-values, in the input order: sorted ascending, the j-th (from 0) of k is
 * multiplied by k − j, made non-decreasing along the order and capped at 1.
 */
export function holmAdjust(ps: readonly number[]): number[] {
  const k = ps.length;
  for (const p of ps) if (!(p >= 0 && p <= 1)) throw new RangeError(`holmAdjust needs p-values in [0, 1], got ${p}`);
  const order = ps.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const adjusted = new Array<number>(k);
  let running = 0;
  order.forEach(({ p, i }, j) => {
    running = Math.max(running, Math.min(1, (k - j) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
