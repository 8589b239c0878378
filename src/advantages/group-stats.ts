/**
 * Means and deviations with the exactness the specification relies on (docs/maths.md §4).
 *
 * A mean computed as Σx / n is not exact even when every x is equal (0.1 + 0.1 + 0.1 ≠ 0.3 in binary
 * floating point), which would leave tiny non-zero advantages in tied groups and break "γ = 1 reduces
 * to GRPO exactly". Shifting by the first value first makes the mean of equal values equal that value
 * bit for bit, so x − mean is exactly 0 for ties.
 */

/** Mean of `values[indices…]`, exact when all values are equal. */
export function shiftedMean(values: ArrayLike<number>, start: number, end: number): number {
  const x0 = values[start];
  let sum = 0;
  for (let i = start + 1; i < end; i++) sum += values[i] - x0;
  return x0 + sum / (end - start);
}

/** Sample standard deviation (n − 1) around a given mean; 0 for fewer than two values. */
export function sampleStd(values: ArrayLike<number>, start: number, end: number, mean: number): number {
  const n = end - start;
  if (n < 2) return 0;
  let ss = 0;
  for (let i = start; i < end; i++) {
    const d = values[i] - mean;
    ss += d * d;
  }
  return Math.sqrt(ss / (n - 1));
}

/** True when every value in the range is identical. */
export function allEqual(values: ArrayLike<number>, start: number, end: number): boolean {
  for (let i = start + 1; i < end; i++) if (values[i] !== values[start]) return false;
  return true;
}
