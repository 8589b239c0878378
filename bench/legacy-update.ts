/**
 * The PPO minibatch step as it was before candidate deduplication, kept as the "before" of the update
 * benchmark (update-rate.ts) so that before and after are timed in one process, interleaved.
 *
 * It embeds every (step, candidate) pair, gathers minibatches on the device from tensors uploaded once
 * per update, and uses tfjs's own matMul gradients, exactly as the update did. It reads the current
 * Policy's variables in their order [W1, b1, W2, b2, V1, c1, V2, c2].
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Policy } from '../src/policy/policy.ts';
import type { Rng } from '../src/prng.ts';
import type { PpoSettings } from '../src/trainer/ppo.ts';
import type { Rollout } from '../src/trainer/rollout.ts';

export interface LegacyBatch {
  obs: Float32Array;
  features: Float32Array;
  mask: Uint8Array;
  actions: Int32Array;
  logProbs: Float32Array;
  advantages: Float32Array;
}

/** Every (step, candidate) pair's feature row, S × A × actionDim, as rollouts carried them before. */
export function pairFeatures(rollout: Pick<Rollout, 'candidates' | 'candidateRows'>, actionDim: number): Float32Array {
  const out = new Float32Array(rollout.candidateRows.length * actionDim);
  rollout.candidateRows.forEach((row, i) => out.set(rollout.candidates.subarray(row * actionDim, (row + 1) * actionDim), i * actionDim));
  return out;
}

export function legacyLogits(policy: Policy, obs: tf.Tensor2D, features: tf.Tensor3D, mask: tf.Tensor2D): tf.Tensor2D {
  return tf.tidy(() => {
    const [w1, b1, w2, b2, v1, c1, v2, c2] = policy.variables;
    const [b, a, d] = features.shape;
    const h = tf.tanh(tf.add(tf.matMul(tf.tanh(tf.add(tf.matMul(obs, w1), b1)), w2), b2));
    const flat = tf.reshape(features, [b * a, d]);
    const e = tf.add(tf.matMul(tf.tanh(tf.add(tf.matMul(flat, v1), c1)), v2), c2);
    const scores = tf.mul(tf.sum(tf.mul(tf.reshape(e, [b, a, -1]), tf.expandDims(h, 1)), 2), 1 / Math.sqrt(policy.shape.hiddenSize));
    return tf.where(tf.cast(mask, 'bool'), scores, tf.fill([b, a], -1e9)) as tf.Tensor2D;
  });
}

/** One whole update (upload, epochs × minibatches, one read-back), as the trainer ran it. */
export async function legacyUpdate(
  policy: Policy,
  optimizer: tf.Optimizer,
  data: LegacyBatch,
  dims: { obsDim: number; actionDim: number; maxActions: number },
  s: PpoSettings,
  rng: Rng,
): Promise<void> {
  const S = data.actions.length;
  const A = dims.maxActions;
  const batch = {
    obs: tf.tensor2d(data.obs, [S, dims.obsDim]),
    features: tf.tensor3d(data.features, [S, A, dims.actionDim]),
    mask: tf.tensor2d(Float32Array.from(data.mask), [S, A]),
    actions: tf.tensor1d(data.actions, 'int32'),
    oldLogProbs: tf.tensor1d(data.logProbs),
    advantages: tf.tensor1d(data.advantages),
  };
  const minibatches = Math.max(1, Math.min(s.minibatches, S));
  const order = Int32Array.from({ length: S }, (_, i) => i);
  const stats: tf.Tensor[] = [];
  for (let epoch = 0; epoch < s.epochs; epoch++) {
    rng.shuffle(order);
    for (let m = 0; m < minibatches; m++) {
      const indices = order.subarray(Math.floor((m * S) / minibatches), Math.floor(((m + 1) * S) / minibatches));
      stats.push(
        tf.tidy(() => {
          const idx = tf.tensor1d(indices, 'int32');
          const obs = tf.gather(batch.obs, idx) as tf.Tensor2D;
          const features = tf.gather(batch.features, idx) as tf.Tensor3D;
          const mask = tf.gather(batch.mask, idx) as tf.Tensor2D;
          const actions = tf.gather(batch.actions, idx) as tf.Tensor1D;
          const oldLogProbs = tf.gather(batch.oldLogProbs, idx);
          const adv = tf.gather(batch.advantages, idx);
          let parts: tf.Tensor[] = [];
          const { value: loss, grads } = tf.variableGrads(() => {
            const logp = tf.logSoftmax(legacyLogits(policy, obs, features, mask));
            const probs = tf.exp(logp);
            const taken = tf.sum(tf.mul(logp, tf.oneHot(actions, A)), 1);
            const logRatio = tf.sub(taken, oldLogProbs);
            const ratio = tf.exp(logRatio);
            const clipped = tf.clipByValue(ratio, 1 - s.clipRatio, 1 + s.clipRatio);
            const pgLoss = tf.neg(tf.mean(tf.minimum(tf.mul(ratio, adv), tf.mul(clipped, adv))));
            const entropy = tf.mean(tf.neg(tf.sum(tf.mul(probs, logp), 1)));
            const approxKl = tf.mean(tf.sub(tf.sub(ratio, 1), logRatio));
            const clipFraction = tf.mean(tf.cast(tf.greater(tf.abs(tf.sub(ratio, 1)), s.clipRatio), 'float32'));
            parts = [pgLoss, entropy, approxKl, clipFraction].map((t) => tf.keep(t));
            return tf.add(tf.sub(pgLoss, tf.mul(entropy, s.entropyCoef)), tf.mul(approxKl, s.klCoef)) as tf.Scalar;
          }, policy.variables);
          const names = Object.keys(grads);
          const gradNorm = tf.sqrt(tf.addN(names.map((n) => tf.sum(tf.square(grads[n])))));
          const scale = tf.minimum(1, tf.div(s.maxGradNorm, tf.add(gradNorm, 1e-6)));
          optimizer.applyGradients(Object.fromEntries(names.map((n) => [n, tf.mul(grads[n], scale)])));
          loss.dispose();
          const out = tf.stack([...parts, gradNorm]);
          tf.dispose(parts);
          return out;
        }),
      );
    }
  }
  const mean = tf.tidy(() => tf.mean(tf.stack(stats), 0));
  await mean.data();
  tf.dispose([...stats, mean, ...Object.values(batch)]);
}
