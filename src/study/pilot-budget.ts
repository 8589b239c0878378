/**
 * The pre-registration's budget rule (docs/results/preregistration.md, "Budgets"), applied to a pilot's
 * GRPO runs of one cell: the first iteration at which the mean over seeds of the trailing last-5 success
 * reaches half the seeds' mean final (last-5) success, taken at the mean over seeds of the cumulative env
 * steps; rounded up to whole full-length iterations (tasksPerIteration × groupSize × step limit); at
 * least `floor` iterations. Only iterations that every seed reached are considered.
 */
import { TRAILING_WINDOW } from '../metrics/iterations-to-target.ts';

export interface PilotCurve {
  success: readonly (number | null)[];
  /** Cumulative env steps after each iteration. */
  envSteps: readonly (number | null)[];
}

export interface PilotBudget {
  /** Seeds' mean final (last-5) success. */
  final: number;
  /** Mean cumulative env steps at the first iteration whose mean smoothed success reaches half of `final`; null if none. */
  halfReachedAt: number | null;
  /** The cell's limitIterations. */
  limitIterations: number;
}

const trailing = (xs: readonly (number | null)[], i: number) => {
  const w = xs.slice(Math.max(0, i - TRAILING_WINDOW + 1), i + 1).map((x) => x ?? 0);
  return w.reduce((a, x) => a + x, 0) / w.length;
};

export function pilotBudget(curves: readonly PilotCurve[], fullIterationSteps: number, floor: number): PilotBudget {
  if (curves.length === 0) throw new RangeError('pilotBudget: no pilot runs');
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
  const final = mean(curves.map((c) => trailing(c.success, c.success.length - 1)));
  const length = Math.min(...curves.map((c) => c.success.length));
  let halfReachedAt: number | null = null;
  for (let i = 0; i < length; i++) {
    if (mean(curves.map((c) => trailing(c.success, i))) >= final / 2) {
      halfReachedAt = mean(curves.map((c) => c.envSteps[i] ?? 0));
      break;
    }
  }
  const iterations = halfReachedAt === null ? floor : Math.ceil(halfReachedAt / fullIterationSteps);
  return { final, halfReachedAt, limitIterations: Math.max(floor, iterations) };
}
