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

/**
 * Mean and sample std (n − 1) of values repeated by integer weights, i.e. over the rows a weighted
 * list stands for (docs/maths.md §4, reference-code variant item 1: every step row of run j carries
 * R_j, so run j counts L_j times). Shifted by the first value like `shiftedMean`, so equal values give
 * that value back exactly. A single row gives mean 0, std 1, as the released code does.
 */
export function rowStats(values: ArrayLike<number>, weights: ArrayLike<number>, start: number, end: number): { mean: number; std: number; rows: number } {
  let rows = 0;
  for (let i = start; i < end; i++) rows += weights[i];
  if (rows === 1) return { mean: 0, std: 1, rows };
  const x0 = values[start];
  let sum = 0;
  for (let i = start; i < end; i++) sum += weights[i] * (values[i] - x0);
  const mean = x0 + sum / rows;
  let ss = 0;
  for (let i = start; i < end; i++) {
    const d = values[i] - mean;
    ss += weights[i] * d * d;
  }
  return { mean, std: Math.sqrt(ss / (rows - 1)), rows };
}

/**
 * Per element e: (values[e] − mean_k) / F_norm over the key k = keyOf[e] (elements with the same key
 * are pooled, in index order). F_norm = std_k + ε (sample std, n − 1) for `meanStd`, 1 for `mean`.
 * Means are shifted by the key's first value, so a key whose values are all equal (ties, and every
 * one-element key) gives exactly 0. Used for the released segment term (docs/maths.md §4) and
 * GiGPO's step term (§7); `keyOf` holds ids in 0 … numKeys − 1.
 */
export function keyedAdvantages(
  values: ArrayLike<number>,
  keyOf: ArrayLike<number>,
  numKeys: number,
  normalize: 'meanStd' | 'mean',
  epsilon: number,
): Float64Array {
  const n = values.length;
  const first = new Float64Array(numKeys);
  const shiftedSum = new Float64Array(numKeys);
  const count = new Int32Array(numKeys);
  for (let e = 0; e < n; e++) {
    const k = keyOf[e];
    if (count[k] === 0) first[k] = values[e];
    else shiftedSum[k] += values[e] - first[k];
    count[k]++;
  }
  const mean = new Float64Array(numKeys);
  for (let k = 0; k < numKeys; k++) if (count[k] > 0) mean[k] = first[k] + shiftedSum[k] / count[k];
  const out = new Float64Array(n);
  if (normalize === 'mean') {
    for (let e = 0; e < n; e++) out[e] = values[e] - mean[keyOf[e]];
    return out;
  }
  const squares = new Float64Array(numKeys);
  for (let e = 0; e < n; e++) {
    const d = values[e] - mean[keyOf[e]];
    squares[keyOf[e]] += d * d;
  }
  for (let e = 0; e < n; e++) {
    const k = keyOf[e];
    const std = count[k] < 2 ? 0 : Math.sqrt(squares[k] / (count[k] - 1));
    out[e] = (values[e] - mean[k]) / (std + epsilon);
  }
  return out;
}
