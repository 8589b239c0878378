/**
 * From one run's iteration records to the figures the study reports, and from many runs to mean ± sd.
 *
 * Definitions (also written into study.json and the README):
 * - finalSuccess: mean success over the last FINAL_WINDOW iterations (all of them if fewer).
 * - itersTo60: iterations to TARGET_SUCCESS, as on the page (src/metrics/iterations-to-target.ts);
 *   null if the target is not reached within the budget.
 * - sampleUtilization, zeroAdvantageRatio, contradictoryRatio, signalRetention, ccr: means over the
 *   run's iterations of the per-iteration figures (docs/maths.md §5); iterations where a figure is undefined
 *   (NaN, e.g. no repeated state keys) are left out; null if it is undefined throughout.
 * - contradictoryPeak: the largest TRAILING_WINDOW-iteration moving average of contradictoryRatio (the
 *   paper quotes the ratio "at its peak"; the moving average keeps one noisy batch from setting it).
 */
import { itersToTarget, TARGET_SUCCESS, TRAILING_WINDOW } from '../metrics/iterations-to-target.ts';
import type { IterationRecord } from '../trainer/iteration-record.ts';
import { runKey, variantOf, type RunSpec, type Variant } from './matrix.ts';

export const FINAL_WINDOW = 10;
export { itersToTarget, TARGET_SUCCESS, TRAILING_WINDOW };

/** The per-iteration figures the study keeps of each record. */
export type IterationFigures = Pick<IterationRecord, 'success' | 'partial' | 'failure' | 'sampleUtilization' | 'zeroAdvantageRatio' | 'contradictoryRatio' | 'signalRetention' | 'ccr' | 'meanEpisodeLength'>;

const CURVE_NAMES = ['success', 'partial', 'failure', 'sampleUtilization', 'zeroAdvantageRatio', 'contradictoryRatio', 'signalRetention', 'ccr', 'meanEpisodeLength'] as const satisfies readonly (keyof IterationFigures)[];
export type CurveName = (typeof CURVE_NAMES)[number];

/** One run's figures, per iteration; null where a figure is undefined (NaN). */
export type RunCurves = Record<CurveName, (number | null)[]>;

export interface RunResult extends RunSpec {
  key: string;
  variant: Variant;
  /** Iterations completed (the budget, unless training stopped on a non-finite loss). */
  iterations: number;
  /** Set when training stopped early; the figures cover the iterations before it. */
  stopped: string | null;
  finalSuccess: number;
  itersTo60: number | null;
  sampleUtilization: number | null;
  zeroAdvantageRatio: number | null;
  contradictoryRatio: number | null;
  contradictoryPeak: number | null;
  signalRetention: number | null;
  ccr: number | null;
  /** Wall seconds the run took in its worker. */
  seconds: number;
  curves: RunCurves;
}

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** Mean of the finite values; null if there are none. */
function meanOf(xs: readonly (number | null)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const x of xs) if (finite(x)) { sum += x; n++; }
  return n > 0 ? sum / n : null;
}

export interface MeanSd {
  mean: number | null;
  /** Sample standard deviation (n − 1); 0 for a single value, null for none. */
  sd: number | null;
  n: number;
}

/** Mean ± sample sd of the finite values. */
export function meanSd(xs: readonly (number | null)[]): MeanSd {
  const v = xs.filter(finite);
  const n = v.length;
  if (n === 0) return { mean: null, sd: null, n };
  const mean = v.reduce((a, x) => a + x, 0) / n;
  if (n === 1) return { mean, sd: 0, n };
  const ss = v.reduce((a, x) => a + (x - mean) ** 2, 0);
  return { mean, sd: Math.sqrt(ss / (n - 1)), n };
}

/** Mean success over the last `window` iterations (all of them if fewer). */
export function finalSuccess(success: readonly number[], window = FINAL_WINDOW): number {
  if (success.length === 0) return 0;
  const tail = success.slice(-window);
  return tail.reduce((a, x) => a + x, 0) / tail.length;
}

/** Largest `window`-iteration moving average of the finite values (windows without one are skipped). */
export function peakMovingAverage(xs: readonly (number | null)[], window = TRAILING_WINDOW): number | null {
  let best: number | null = null;
  for (let end = Math.min(window, xs.length); end <= xs.length; end++) {
    const m = meanOf(xs.slice(Math.max(0, end - window), end));
    if (m !== null && (best === null || m > best)) best = m;
  }
  return best;
}

/** A run's result from its iteration records. */
export function summarizeRun(spec: RunSpec, records: readonly IterationFigures[], seconds: number, stopped: string | null = null): RunResult {
  const curves = Object.fromEntries(
    CURVE_NAMES.map((name) => [name, records.map((r) => (finite(r[name]) ? r[name] : null))]),
  ) as RunCurves;
  const success = records.map((r) => r.success);
  return {
    key: runKey(spec),
    ...spec,
    variant: variantOf(spec),
    iterations: records.length,
    stopped,
    finalSuccess: finalSuccess(success),
    itersTo60: itersToTarget(success),
    sampleUtilization: meanOf(curves.sampleUtilization),
    zeroAdvantageRatio: meanOf(curves.zeroAdvantageRatio),
    contradictoryRatio: meanOf(curves.contradictoryRatio),
    contradictoryPeak: peakMovingAverage(curves.contradictoryRatio),
    signalRetention: meanOf(curves.signalRetention),
    ccr: meanOf(curves.ccr),
    seconds,
    curves,
  };
}

/** Median of itersTo60 values with never-reached (null) runs counted as +∞; null for no runs. */
export function medianIters(values: readonly (number | null)[]): number | null {
  if (values.length === 0) return null;
  const v = values.map((x) => x ?? Infinity).sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

/** Per-iteration mean ± sd of one curve over several runs (runs that stopped early drop out). */
export function aggregateCurve(runs: readonly Pick<RunResult, 'curves'>[], name: CurveName): { mean: (number | null)[]; sd: (number | null)[]; n: number[] } {
  const length = Math.max(0, ...runs.map((r) => r.curves[name].length));
  const mean: (number | null)[] = [];
  const sd: (number | null)[] = [];
  const n: number[] = [];
  for (let i = 0; i < length; i++) {
    const s = meanSd(runs.map((r) => r.curves[name][i] ?? null));
    mean.push(s.mean);
    sd.push(s.sd);
    n.push(s.n);
  }
  return { mean, sd, n };
}

/** Selects runs by any of their spec fields (and the variant). */
export function selectRuns<R extends RunResult>(runs: readonly R[], where: Partial<Pick<RunResult, 'env' | 'horizon' | 'variant' | 'seed'>>): R[] {
  return runs.filter((r) => (Object.keys(where) as (keyof typeof where)[]).every((k) => r[k] === where[k]));
}
