/**
 * Chart columns derived from the iteration histories: the smoothed success curves, the comparison of
 * both methods on one x axis, and the iteration each reached the target. Pure; the charts only draw.
 */
import { itersToTarget } from '../metrics/iterations-to-target.ts';
import type { RaceEntryName } from '../race/entries.ts';
import type { MetricHistory, SeriesKey } from './metric-history.ts';
import { debiasedEma } from './smoothing.ts';

export type Column = (number | null)[];

/** [iterations, raw success, smoothed success] of one method. */
export function successColumns(history: MetricHistory, beta: number): [number[], Column, Column] {
  const raw = history.columns.success;
  return [history.iterations, raw, debiasedEma(raw, beta)];
}

/** [iterations, ...columns] of one method for the given record fields. */
export function fieldColumns(history: MetricHistory, keys: readonly SeriesKey[]): [number[], ...Column[]] {
  return [history.iterations, ...keys.map((k) => history.columns[k])];
}

export interface Comparison {
  /** x = 1…max iterations, then per method (in the order given) raw and smoothed success aligned on x. */
  columns: [number[], ...Column[]];
  /** Per method: iterations to the target (src/metrics/iterations-to-target.ts), or null. */
  crossing: Partial<Record<RaceEntryName, number | null>>;
}

/**
 * The methods on one x axis: raw and smoothed success of each. Iterations of one training run are
 * 1, 2, 3…, so the value of iteration i sits at index i − 1.
 */
export function comparisonColumns(
  histories: Partial<Record<RaceEntryName, MetricHistory>>,
  methods: readonly RaceEntryName[],
  beta: number,
  target: number,
): Comparison {
  const shown = methods.filter((m) => histories[m]).map((m) => [m, histories[m]!] as const);
  const n = Math.max(0, ...shown.map(([, h]) => h.length));
  const xs = Array.from({ length: n }, (_, i) => i + 1);
  const aligned = (h: MetricHistory, col: Column): Column => {
    const out: Column = new Array(n).fill(null);
    for (let i = 0; i < h.length; i++) out[h.iterations[i] - 1] = col[i];
    return out;
  };
  const crossing: Partial<Record<RaceEntryName, number | null>> = {};
  const columns: Column[] = [];
  for (const [m, h] of shown) {
    const [, raw, smooth] = successColumns(h, beta);
    columns.push(aligned(h, raw), aligned(h, smooth));
    const at = itersToTarget(h.columns.success as number[], target);
    crossing[m] = at === null ? null : h.iterations[at - 1];
  }
  return { columns: [xs, ...columns], crossing };
}

/**
 * Environment steps played by the end of each of a method's records: the running sum of the training
 * iterations' `envSteps` (iteration 0, the start measured before any training, sits at 0).
 */
export function cumulativeEnvSteps(history: MetricHistory): number[] {
  let total = 0;
  return history.records.map((r) => (r.iteration >= 1 ? (total += r.envSteps) : total));
}

/**
 * The methods on one env-steps axis: x is every method's cumulative env steps (sorted, distinct), and each
 * method's raw and smoothed success sit at its own x values, null elsewhere (the chart joins them). The
 * crossing is the env steps played by the iteration that reached the target. Methods whose runs end at
 * different lengths play different numbers of steps per iteration: this axis compares them per step of
 * experience, not per update.
 */
export function envStepColumns(
  histories: Partial<Record<RaceEntryName, MetricHistory>>,
  methods: readonly RaceEntryName[],
  beta: number,
  target: number,
): Comparison {
  const shown = methods.filter((m) => histories[m]).map((m) => [m, histories[m]!, cumulativeEnvSteps(histories[m]!)] as const);
  const xs = [...new Set(shown.flatMap(([, , steps]) => steps))].sort((a, b) => a - b);
  const at = new Map(xs.map((x, i) => [x, i]));
  const crossing: Partial<Record<RaceEntryName, number | null>> = {};
  const columns: Column[] = [];
  for (const [m, h, steps] of shown) {
    const [, raw, smooth] = successColumns(h, beta);
    const place = (col: Column): Column => {
      const out: Column = new Array(xs.length).fill(null);
      // Two records at one x (no steps played between them): the later one is shown.
      for (let i = 0; i < steps.length; i++) out[at.get(steps[i])!] = col[i];
      return out;
    };
    columns.push(place(raw), place(smooth));
    // The same record as on the iterations axis (comparisonColumns), placed at its env steps.
    const reached = itersToTarget(h.columns.success as number[], target);
    crossing[m] = reached === null ? null : steps[reached - 1];
  }
  return { columns: [xs, ...columns], crossing };
}
