/**
 * Curve smoothing for the live charts: the debiased exponential moving average (as TensorBoard draws it),
 * and the first iteration a curve reaches a target.
 *
 *   m_t = β · m_{t−1} + (1 − β) · x_t,   m_0 = 0,   shown value  m_t / (1 − β^n)
 *
 * where n counts the finite values seen so far. Without the division the curve would start near 0 and
 * creep up (the bias of m_0 = 0); with it the first shown value is x_1 itself. Missing values (NaN, null)
 * are skipped: they neither move the average nor count in n, and their output is null (a gap).
 */

export function debiasedEma(values: ArrayLike<number | null>, beta: number): (number | null)[] {
  if (!(beta >= 0 && beta < 1)) throw new RangeError(`smoothing β must be in [0, 1); got ${beta}`);
  const out: (number | null)[] = new Array(values.length);
  let m = 0;
  let betaPowN = 1;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (x === null || !Number.isFinite(x)) {
      out[i] = null;
      continue;
    }
    m = beta * m + (1 - beta) * x;
    betaPowN *= beta; // β^n, n = finite values so far
    out[i] = m / (1 - betaPowN);
  }
  return out;
}
