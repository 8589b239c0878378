/**
 * Study v3's per-run endpoints (docs/maths.md §11), from a run's curves and its cell's env-step budget:
 * the normalised area under success against env steps, env steps to 60%, failure to start, the outcome
 * mix and the per-iteration peak of the signed contradictory ratio. Pure: the same run gives the same
 * figures, and nothing here reads the run's summary means, only its curves.
 *
 * Curves index 0 is iteration 0: the SFT prior's rollout before any update, the same for every method of
 * a seed, so the area leaves it out; steps to 60% and failure to start use the one trailing-window
 * definition of src/metrics/iterations-to-target.ts (TRAILING_WINDOW iterations, iteration 0 included).
 */
import type { RunEndpoints } from './confirmatory-types.ts';
import { finalSuccess, itersToTarget, TARGET_SUCCESS, TRAILING_WINDOW, type RunResult } from './summary.ts';

/** How far above its iteration-0 success a run's smoothed success must rise to count as started (§11). */
export const START_MARGIN = 0.1;

/** What the endpoints read of a run. */
export type EndpointRun = Pick<RunResult, 'key' | 'curves' | 'stopped' | 'stepsTo60'>;

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** A run's curve as numbers; a RangeError naming the run and the iteration where a value is missing. */
function numericCurve(run: EndpointRun, name: 'success' | 'partial' | 'envSteps'): number[] {
  const curve = run.curves[name] ?? [];
  return curve.map((x, i) => {
    if (!finite(x)) throw new RangeError(`run ${run.key}: curves.${name}[${i}] must be a finite number, got ${String(x)}`);
    return x;
  });
}

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/**
 * Normalised area under success against env steps (docs/maths.md §11): Σ_{i≥1} s_i·n_i over the budget
 * B' = budget − n_0, the last iteration clipped to B'; steps a run left unused count at its last-5 mean
 * success, or at 0 when it stopped on a non-finite loss.
 */
export function normalisedArea(success: readonly number[], envSteps: readonly number[], envStepBudget: number, stopped: boolean): number {
  const { area, used, room } = areaWithinBudget(success, envSteps, envStepBudget);
  const tailLevel = stopped ? 0 : finalSuccess(success);
  return (area + tailLevel * (room - used)) / room;
}

/**
 * Σ_{i≥1} s_i·n_i over the steps after iteration 0's, up to the budget, the last iteration clipped; with
 * `from` > 0 only the steps past the first `from` of them count (env steps are whole numbers, so the
 * sum from 0 is the same sum, term by term).
 */
function areaWithinBudget(
  success: readonly number[],
  envSteps: readonly number[],
  envStepBudget: number,
  from = 0,
): { area: number; used: number; room: number } {
  const n0 = envSteps[0];
  const room = envStepBudget - n0;
  if (!(room > 0)) throw new RangeError(`envStepBudget ${envStepBudget} must exceed iteration 0's env steps ${n0}`);
  let used = 0;
  let area = 0;
  for (let i = 1; i < success.length && used < room; i++) {
    const n = Math.min(envSteps[i] - envSteps[i - 1], room - used);
    area += success[i] * (from > used ? Math.max(0, used + n - from) : n);
    used += n;
  }
  return { area, used, room };
}

/**
 * The mean success over the last (1 − `fromShare`) of the budget B' = budget − n_0, weighted by env steps
 * the way the AUC weights them (unused steps at the last-5 success, 0 after a stop): `fromShare` 0 is
 * `normalisedArea`. The floor and ceiling rule (seed-bounds.ts) reads it.
 */
export function meanSuccessFrom(success: readonly number[], envSteps: readonly number[], envStepBudget: number, stopped: boolean, fromShare: number): number {
  if (!(fromShare >= 0 && fromShare < 1)) throw new RangeError(`fromShare must be in [0, 1), got ${fromShare}`);
  const room = envStepBudget - envSteps[0];
  const from = fromShare * room;
  const { area, used } = areaWithinBudget(success, envSteps, envStepBudget, from);
  const tailLevel = stopped ? 0 : finalSuccess(success);
  return (area + tailLevel * (room - Math.max(used, from))) / (room - from);
}

/**
 * The two readings of primary 1 (docs/maths.md §11, "The AUC as written and as coded"): `asCoded` is
 * `normalisedArea`, which the claims use; `asWritten` is the pre-registration's sentence read literally.
 */
export type AucDefinition = 'asCoded' | 'asWritten';

/**
 * The AUC as the pre-registration's sentence reads: Σ_{i≥1} s_i·n_i over the whole budget B, iteration 0
 * left out of the sum but not of the denominator, no step counted past the budget, and steps a run left
 * unused counted at 0 (no tail).
 */
export function normalisedAreaAsWritten(success: readonly number[], envSteps: readonly number[], envStepBudget: number): number {
  return areaWithinBudget(success, envSteps, envStepBudget).area / envStepBudget;
}

/** The run's endpoints at its cell's env-step budget (docs/maths.md §11); `auc` under the given reading. */
export function runEndpoints(run: EndpointRun, envStepBudget: number, auc: AucDefinition = 'asCoded'): RunEndpoints {
  if (!(Number.isFinite(envStepBudget) && envStepBudget > 0))
    throw new RangeError(`envStepBudget must be a positive number of env steps, got ${envStepBudget}`);
  const success = numericCurve(run, 'success');
  const envSteps = numericCurve(run, 'envSteps');
  const partial = numericCurve(run, 'partial');
  if (success.length === 0) throw new RangeError(`run ${run.key}: curves.success is empty (iteration 0 is always recorded)`);
  if (envSteps.length !== success.length || partial.length !== success.length)
    throw new RangeError(
      `run ${run.key}: curves.success, curves.partial and curves.envSteps must have one value per iteration, got ${success.length}, ${partial.length}, ${envSteps.length}`,
    );

  // Steps to 60%: the one trailing-window definition; the run's stored figure must agree with its curves.
  const iters = itersToTarget(success, TARGET_SUCCESS, TRAILING_WINDOW);
  const stepsTo60 = iters === null ? null : envSteps[iters - 1];
  if (stepsTo60 !== run.stepsTo60)
    throw new RangeError(`run ${run.key}: stepsTo60 ${String(run.stepsTo60)} disagrees with its success curve, which gives ${String(stepsTo60)}`);
  // The iteration that reaches 60% may end past the budget (the last batch overshoots it); the area
  // counts no step past the budget, so neither does this endpoint.
  const stepsTo60Endpoint = stepsTo60 === null ? envStepBudget : Math.min(stepsTo60, envStepBudget);

  // Runs stored before the signed ratio existed have no such curve.
  const peaks = (run.curves.contradictoryRatioSigned ?? []).filter(finite);

  return {
    auc: auc === 'asCoded' ? normalisedArea(success, envSteps, envStepBudget, Boolean(run.stopped)) : normalisedAreaAsWritten(success, envSteps, envStepBudget),
    stepsTo60Endpoint,
    never60: stepsTo60 === null,
    failedToStart: itersToTarget(success, success[0] + START_MARGIN, TRAILING_WINDOW) === null,
    outcomeMix: { partial: mean(partial), full: mean(success) },
    contradictoryPeakSigned: peaks.length > 0 ? Math.max(...peaks) : null,
    finalSuccess: finalSuccess(success),
  };
}
