/**
 * PPO clipped-surrogate update on per-step advantages (the policy update of docs/maths.md §4).
 *
 *   ratio   = exp(log π(a|s) − log π_old(a|s))
 *   pgLoss  = −mean(min(ratio · A, clip(ratio, 1 − ε, 1 + ε) · A))
 *   approxKl = mean((ratio − 1) − log ratio)          (the k3 estimator: unbiased, ≥ 0)
 *   loss    = pgLoss − entropyCoef · mean(H) + klCoef · approxKl
 *
 * Epochs × minibatches over the batch's steps, Adam, global-norm gradient clipping. Every tensor made
 * here is disposed here; statistics are read back once per update. The entry point must have registered
 * tfjs's gradients (cli/register-gradients.ts in Node, src/backend in the page).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';

export interface PpoSettings {
  clipRatio: number;
  epochs: number;
  minibatches: number;
  entropyCoef: number;
  klCoef: number;
  maxGradNorm: number;
}

/** The batch as tensors, owned by the caller. */
export interface PpoBatch {
  obs: tf.Tensor2D; // [S, obsDim]
  features: tf.Tensor3D; // [S, A, actionDim]
  mask: tf.Tensor2D; // [S, A]
  actions: tf.Tensor1D; // [S] int32
  oldLogProbs: tf.Tensor1D; // [S]
  advantages: tf.Tensor1D; // [S]
}

export interface PpoStats {
  policyLoss: number;
  entropy: number;
  approxKl: number;
  clipFraction: number;
  gradNorm: number;
}

export class NonFiniteLossError extends Error {}

export async function ppoUpdate(policy: Policy, optimizer: tf.Optimizer, batch: PpoBatch, settings: PpoSettings, rng: Rng): Promise<PpoStats> {
  const steps = batch.actions.shape[0];
  const minibatches = Math.max(1, Math.min(settings.minibatches, steps));
  const order = Int32Array.from({ length: steps }, (_, i) => i);
  const stats: tf.Tensor[] = []; // one [5] vector per minibatch
  const before = policy.snapshot();
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    rng.shuffle(order);
    for (let m = 0; m < minibatches; m++) {
      const from = Math.floor((m * steps) / minibatches);
      const to = Math.floor(((m + 1) * steps) / minibatches);
      stats.push(minibatchStep(policy, optimizer, batch, order.subarray(from, to), settings));
    }
  }
  const mean = tf.tidy(() => tf.mean(tf.stack(stats), 0));
  const [policyLoss, entropy, approxKl, clipFraction, gradNorm] = Array.from(await mean.data());
  tf.dispose([...stats, mean]);
  if (![policyLoss, entropy, approxKl, gradNorm].every(Number.isFinite)) {
    policy.restore(before); // leave the last good weights
    throw new NonFiniteLossError(`non-finite loss (policyLoss=${policyLoss}, entropy=${entropy}, approxKl=${approxKl}, gradNorm=${gradNorm}); weights restored to before this update`);
  }
  tf.dispose(before);
  return { policyLoss, entropy, approxKl, clipFraction, gradNorm };
}

/** One gradient step; returns [pgLoss, entropy, approxKl, clipFraction, gradNorm] as a tensor. */
function minibatchStep(policy: Policy, optimizer: tf.Optimizer, batch: PpoBatch, indices: Int32Array, s: PpoSettings): tf.Tensor {
  return tf.tidy(() => {
    const idx = tf.tensor1d(indices, 'int32');
    const obs = tf.gather(batch.obs, idx) as tf.Tensor2D;
    const features = tf.gather(batch.features, idx) as tf.Tensor3D;
    const mask = tf.gather(batch.mask, idx) as tf.Tensor2D;
    const actions = tf.gather(batch.actions, idx) as tf.Tensor1D;
    const oldLogProbs = tf.gather(batch.oldLogProbs, idx);
    const adv = tf.gather(batch.advantages, idx);
    const numActions = batch.features.shape[1];

    let parts: tf.Tensor[] = [];
    const { value: loss, grads } = tf.variableGrads(() => {
      const logp = tf.logSoftmax(policy.logits(obs, features, mask));
      const probs = tf.exp(logp);
      const taken = tf.sum(tf.mul(logp, tf.oneHot(actions, numActions)), 1);
      const logRatio = tf.sub(taken, oldLogProbs);
      const ratio = tf.exp(logRatio);
      const clipped = tf.clipByValue(ratio, 1 - s.clipRatio, 1 + s.clipRatio);
      const pgLoss = tf.neg(tf.mean(tf.minimum(tf.mul(ratio, adv), tf.mul(clipped, adv))));
      // Masked candidates have a finite logit (−1e9) and p = 0 exactly, so p · log p adds 0 there.
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
  });
}
