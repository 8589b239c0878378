/**
 * Behaviour cloning on oracle demonstrations (docs/maths.md §9): cross-entropy on the oracle's action,
 *
 *   loss = −mean_t log π(a*_t | s_t)
 *
 * over epochs × minibatches with Adam and global-norm gradient clipping, as the PPO update does, on the
 * same batch layout (update-batch.ts: each distinct candidate row embedded once). It trains the SFT prior
 * before RL and is the whole update of the SFT baseline. Every tensor made here is disposed here;
 * statistics are read back once.
 */
import * as tf from '@tensorflow/tfjs-core';
import { dedupeRows } from '../policy/candidate-table.ts';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';
import type { Demonstrations } from './demonstrations.ts';
import { applyClippedGradients } from './gradients.ts';
import { minibatchOrder } from './minibatches.ts';
import { minibatchInputs, type PpoBatch } from './ppo.ts';
import { disposePpoBatch, toPpoBatch } from './update-batch.ts';
import { chunkedStep, chunksOf, chunkSteps } from './update-chunks.ts';

export interface CloningSettings {
  epochs: number;
  minibatches: number;
  maxGradNorm: number;
  /** The most values one per-step tensor may hold before a minibatch is cut into chunks (update-chunks.ts). */
  chunkElements?: number;
}

export interface CloningStats {
  /** Mean cross-entropy over the minibatches of the last epoch. */
  loss: number;
  /** Share of demonstration steps where the policy's most likely action is the oracle's (last epoch). */
  accuracy: number;
}

export async function behaviourCloning(
  policy: Policy,
  optimizer: tf.Optimizer,
  demos: Demonstrations,
  settings: CloningSettings,
  rng: Rng,
): Promise<CloningStats> {
  const S = demos.steps;
  const maxActions = demos.mask.length / S;
  const dims = { obsDim: demos.obs.length / S, actionDim: demos.features.length / (S * maxActions), maxActions };
  // The PPO batch layout; the log-probabilities and advantages it carries are not read here.
  const table = dedupeRows(demos.features, dims.actionDim);
  const batch = toPpoBatch(
    { ...demos, candidates: table.rows, candidateRows: table.rowOf, mask: Uint8Array.from(demos.mask), logProbs: new Float32Array(S) },
    dims,
    tf.zeros([S]) as tf.Tensor1D,
  );
  const last: tf.Tensor[] = [];
  try {
    for (const { indices, epoch } of minibatchOrder(S, settings.epochs, settings.minibatches, rng)) {
      const stats = cloningStep(policy, optimizer, batch, indices, settings.maxGradNorm, settings.chunkElements);
      if (epoch === settings.epochs - 1) last.push(stats);
      else stats.dispose();
    }
    const mean = tf.tidy(() => tf.mean(tf.stack(last), 0));
    const [loss, accuracy] = Array.from(await mean.data());
    mean.dispose();
    return { loss, accuracy };
  } finally {
    tf.dispose(last);
    disposePpoBatch(batch);
  }
}

/** One gradient step on the steps `indices`; returns [cross-entropy, accuracy] as a tensor. */
function cloningStep(policy: Policy, optimizer: tf.Optimizer, batch: PpoBatch, indices: Int32Array, maxGradNorm: number, chunkElements?: number): tf.Tensor {
  const chunks = chunksOf(indices, chunkSteps(Math.max(policy.shape.hiddenSize, batch.candidates.shape[0], batch.numActions), chunkElements));
  if (chunks.length > 1) {
    // Too big for one pass (update-chunks.ts): the same step, its loss summed over chunks.
    const out = chunkedStep(optimizer, chunks, indices.length, maxGradNorm, (chunk, weight) => {
      const { input, actions } = minibatchInputs(batch, chunk);
      let accuracy: tf.Tensor = tf.scalar(0);
      const { value, grads } = tf.variableGrads(() => {
        const logits = policy.logits(input);
        accuracy = tf.keep(tf.mul(tf.mean(tf.cast(tf.equal(tf.argMax(logits, 1), actions), 'float32')), weight));
        return tf.mul(tf.neg(tf.mean(tf.sum(tf.mul(tf.logSoftmax(logits), tf.oneHot(actions, batch.numActions)), 1))), weight) as tf.Scalar;
      }, policy.variables);
      return { grads, parts: [tf.keep(value), accuracy] };
    });
    const stats = tf.slice(out, 0, 2); // [cross-entropy, accuracy], as below
    out.dispose();
    return stats;
  }
  return tf.tidy(() => {
    const { input, actions } = minibatchInputs(batch, indices);
    let accuracy: tf.Tensor = tf.scalar(0);
    const { value: loss, grads } = tf.variableGrads(() => {
      const logits = policy.logits(input);
      accuracy = tf.keep(tf.mean(tf.cast(tf.equal(tf.argMax(logits, 1), actions), 'float32')));
      const logp = tf.logSoftmax(logits);
      return tf.neg(tf.mean(tf.sum(tf.mul(logp, tf.oneHot(actions, batch.numActions)), 1))) as tf.Scalar;
    }, policy.variables);
    applyClippedGradients(optimizer, grads, maxGradNorm);
    const out = tf.stack([loss, accuracy]);
    accuracy.dispose(); // kept out of variableGrads' scope above, so tidy would not free it
    return out;
  });
}
