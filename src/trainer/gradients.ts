/**
 * One optimiser step with global-norm gradient clipping: every update of the project (PPO, the critic,
 * behaviour cloning) scales its gradients by min(1, maxGradNorm / ‖g‖) before Adam sees them.
 * Call inside a tf.tidy; returns ‖g‖ before clipping.
 */
import * as tf from '@tensorflow/tfjs-core';

export function applyClippedGradients(optimizer: tf.Optimizer, grads: tf.NamedTensorMap, maxGradNorm: number): tf.Scalar {
  // An optimiser that fuses the clipping into its own step (src/backend/webgpu-adam.ts) takes it over. tfjs
  // optimisers answer instanceof structurally, so the method is what tells it apart.
  const fused = optimizer as tf.Optimizer & { applyClippedGradients?: (g: tf.NamedTensorMap, n: number) => tf.Scalar };
  if (typeof fused.applyClippedGradients === 'function') return fused.applyClippedGradients(grads, maxGradNorm);
  const names = Object.keys(grads);
  const gradNorm = tf.sqrt(tf.addN(names.map((n) => tf.sum(tf.square(grads[n]))))) as tf.Scalar;
  const scale = tf.minimum(1, tf.div(maxGradNorm, tf.add(gradNorm, 1e-6)));
  optimizer.applyGradients(Object.fromEntries(names.map((n) => [n, tf.mul(grads[n], scale)])));
  return gradNorm;
}
