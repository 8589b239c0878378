/**
 * "Iterations to X% success", one definition for the page and the study (docs/maths.md §5): the first
 * iteration at which the mean success of the last TRAILING_WINDOW iterations reaches X. A full window
 * is required, so one lucky early batch cannot count as reaching the target.
 */

export const TRAILING_WINDOW = 5;
export const TARGET_SUCCESS = 0.6;

/**
 * First 1-based position in `success` (one value per iteration, in order) whose trailing
 * `window`-iteration mean is ≥ target; null if never.
 */
export function itersToTarget(success: ArrayLike<number>, target = TARGET_SUCCESS, window = TRAILING_WINDOW): number | null {
  let sum = 0;
  for (let i = 0; i < success.length; i++) {
    sum += success[i];
    if (i >= window) sum -= success[i - window];
    // A small tolerance so that a window of exact 0.6 values is not lost to rounding in the sum.
    if (i + 1 >= window && sum / window >= target - 1e-12) return i + 1;
  }
  return null;
}
