/** ‖a − b‖ / ‖b‖ (‖b‖ floored at 1e-15): how the fused kernels' tests compare a result with its tfjs reference. */
export function relativeError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let diff = 0;
  let norm = 0;
  for (let i = 0; i < b.length; i++) {
    diff += (a[i] - b[i]) ** 2;
    norm += b[i] ** 2;
  }
  return Math.sqrt(diff / Math.max(norm, 1e-30));
}
