/**
 * The study's paired test: runs of the same seed see the same task stream and start from the same SFT
 * prior, so two variants are compared seed by seed, on the per-seed differences d_s = a_s − b_s.
 *
 * The test is the one-sided Wilcoxon signed-rank test, exact: the null distribution of W+ (the sum of
 * the ranks of the positive differences) is enumerated over all 2^n sign assignments by dynamic
 * programming over rank sums, so no normal approximation is ever used, whatever n. Zero differences are
 * dropped (Wilcoxon's treatment) and tied |d| get midranks; the enumeration uses those midranks, so the
 * p-value is exact for the observed ties too. With n non-zero differences the smallest possible p is
 * 2^−n: 5 seeds that all favour a give p = 1/32 = 0.031; 4 cannot go below 1/16 = 0.0625.
 *
 * Effect sizes: the mean and median difference, the wins / ties / losses, and the matched-pairs
 * rank-biserial correlation r = (W+ − W−) / (W+ + W−) (+1: every seed favours a).
 */

/** Differences with |d| at most this are ties (zero). */
export const ZERO_DIFFERENCE = 1e-12;

export interface SignedRankTest {
  /** Pairs compared. */
  n: number;
  /** Non-zero differences (the test's sample size). */
  nonzero: number;
  wins: number;
  ties: number;
  losses: number;
  wPlus: number;
  wMinus: number;
  /** One-sided exact p-value of H1 "a > b": P(W+ ≥ observed) under H0; 1 when every difference is 0. */
  p: number;
  meanDiff: number | null;
  medianDiff: number | null;
  /** Matched-pairs rank-biserial correlation; null when every difference is 0. */
  rankBiserial: number | null;
}

/** Midranks (1-based) of `values`, ties sharing the mean of their positions. */
export function midranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].v - order[start].v <= ZERO_DIFFERENCE) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k].i] = rank;
    start = end + 1;
  }
  return ranks;
}

/**
 * Exact upper tail P(W+ ≥ w) for the given ranks (midranks allowed): every rank is in W+ with
 * probability 1/2, independently. Ranks are doubled so that midranks are integers.
 */
export function signedRankUpperTail(ranks: readonly number[], w: number): number {
  const doubled = ranks.map((r) => Math.round(2 * r));
  const total = doubled.reduce((a, r) => a + r, 0);
  let counts = new Float64Array(total + 1);
  counts[0] = 1;
  for (const r of doubled) {
    const next = new Float64Array(total + 1);
    for (let s = 0; s <= total; s++) {
      if (counts[s] === 0) continue;
      next[s] += counts[s];
      next[s + r] += counts[s];
    }
    counts = next;
  }
  const threshold = Math.round(2 * w);
  let tail = 0;
  for (let s = threshold; s <= total; s++) tail += counts[s];
  return tail / 2 ** doubled.length;
}

const median = (xs: readonly number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

/** One-sided exact Wilcoxon signed-rank test of "a > b" on paired differences d = a − b. */
export function wilcoxonSignedRank(diffs: readonly number[]): SignedRankTest {
  const nz = diffs.filter((d) => Math.abs(d) > ZERO_DIFFERENCE);
  const ranks = midranks(nz.map(Math.abs));
  let wPlus = 0;
  let wMinus = 0;
  nz.forEach((d, i) => (d > 0 ? (wPlus += ranks[i]) : (wMinus += ranks[i])));
  const n = diffs.length;
  return {
    n,
    nonzero: nz.length,
    wins: nz.filter((d) => d > 0).length,
    ties: n - nz.length,
    losses: nz.filter((d) => d < 0).length,
    wPlus,
    wMinus,
    p: nz.length === 0 ? 1 : signedRankUpperTail(ranks, wPlus),
    meanDiff: n ? diffs.reduce((a, d) => a + d, 0) / n : null,
    medianDiff: n ? median(diffs) : null,
    rankBiserial: nz.length ? (wPlus - wMinus) / (wPlus + wMinus) : null,
  };
}
