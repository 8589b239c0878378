/**
 * Chart columns derived from the iteration histories: the smoothed success curves, the comparison of
 * both methods on one x axis, and the iteration each reached the target. Pure; the charts only draw.
 */
import type { Method } from '../advantages/types.ts';
import type { MetricHistory, SeriesKey } from './metric-history.ts';
import { debiasedEma, firstCrossing } from './smoothing.ts';

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
  /** x = 1…max iterations; per method raw and smoothed success aligned on x (null where not reached yet). */
  columns: [number[], Column, Column, Column, Column];
  /** Per method: first iteration whose smoothed success ≥ target, or null. */
  crossing: Record<Method, number | null>;
}

/**
 * Both methods on one x axis: GRPO raw, GRPO smoothed, BEACON raw, BEACON smoothed. Iterations of one
 * training run are 1, 2, 3…, so the value of iteration i sits at index i − 1.
 */
export function comparisonColumns(histories: Record<Method, MetricHistory>, beta: number, target: number): Comparison {
  const n = Math.max(histories.grpo.length, histories.beacon.length);
  const xs = Array.from({ length: n }, (_, i) => i + 1);
  const aligned = (h: MetricHistory, col: Column): Column => {
    const out: Column = new Array(n).fill(null);
    for (let i = 0; i < h.length; i++) out[h.iterations[i] - 1] = col[i];
    return out;
  };
  const grpo = successColumns(histories.grpo, beta);
  const beacon = successColumns(histories.beacon, beta);
  return {
    columns: [xs, aligned(histories.grpo, grpo[1]), aligned(histories.grpo, grpo[2]), aligned(histories.beacon, beacon[1]), aligned(histories.beacon, beacon[2])],
    crossing: {
      grpo: firstCrossing(grpo[0], grpo[2], target),
      beacon: firstCrossing(beacon[0], beacon[2], target),
    },
  };
}
