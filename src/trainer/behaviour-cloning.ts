/**
 * Behaviour cloning on oracle demonstrations (docs/maths.md §9): cross-entropy on the oracle's action,
 *
 *   loss = −mean_t log π(a*_t | s_t)
 *
 * over epochs × minibatches with Adam and global-norm gradient clipping, as the PPO update does, on the
 * same batch layout (update-batch.ts: each distinct candidate row embedded once). It trains the SFT prior
 * before RL and is the whole update of the SFT baseline. Every tensor made here is disposed here;
 * statistics are read back once. On webgpu, given the fused update's kernels, the same cloning runs as
 * seven WGSL kernels per minibatch in one submit (cloning-fused.ts), unless the batch is over their limits.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { FusedPpoKernels } from '../gpu/fused-ppo.ts';
import { dedupeRows } from '../policy/candidate-table.ts';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';
import type { Demonstrations } from './demonstrations.ts';
import { fusedCloning, fusedCloningRefusal } from './cloning-fused.ts';
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
  /** Whether the fused kernels cloned, and why not where they were given and refused the batch. */
  path: 'fused' | 'ops';
  fallback: string | null;
}

/** `fused`: the fused update's kernels (webgpu), to clone through them when they take the batch. */
export async function behaviourCloning(
  policy: Policy,
  optimizer: tf.Optimizer,
  demos: Demonstrations,
  settings: CloningSettings,
  rng: Rng,
  fused?: FusedPpoKernels | null,
): Promise<CloningStats> {
  const S = demos.steps;
  const batch = cloningBatch(demos);
  const last: tf.Tensor[] = [];
  try {
    const refusal = fused ? fusedCloningRefusal(fused, policy, optimizer, batch, settings) : null;
    if (fused && refusal === null) return { ...(await fusedCloning(fused, policy, optimizer, batch, settings, rng)), path: 'fused', fallback: null };
    for (const { indices, epoch } of minibatchOrder(S, settings.epochs, settings.minibatches, rng)) {
      const stats = cloningStep(policy, optimizer, batch, indices, settings.maxGradNorm, settings.chunkElements);
      if (epoch === settings.epochs - 1) last.push(stats);
      else stats.dispose();
    }
    const mean = tf.tidy(() => tf.mean(tf.stack(last), 0));
    const [loss, accuracy] = Array.from(await mean.data());
    mean.dispose();
    return { loss, accuracy, path: 'ops', fallback: refusal };
  } finally {
    tf.dispose(last);
    disposePpoBatch(batch);
  }
}

/**
 * The demonstrations in the PPO batch layout (dispose with disposePpoBatch); the log-probabilities
 * and advantages it carries (zeros) are not read by cloning.
 */
export function cloningBatch(demos: Demonstrations): PpoBatch {
  const S = demos.steps;
  const maxActions = demos.mask.length / S;
  const dims = { obsDim: demos.obs.length / S, actionDim: demos.features.length / (S * maxActions), maxActions };
  const table = dedupeRows(demos.features, dims.actionDim);
  return toPpoBatch(
    { ...demos, candidates: table.rows, candidateRows: table.rowOf, mask: Uint8Array.from(demos.mask), logProbs: new Float32Array(S) },
    dims,
    tf.zeros([S]) as tf.Tensor1D,
  );
}

/**
 * The cloning loss −mean log π(a*|s) of masked logits. Exported as the autodiff reference of the
 * fused cloning (cloning-fused.ts).
 */
export function cloningLoss(logits: tf.Tensor2D, actions: tf.Tensor1D, numActions: number): tf.Scalar {
  return tf.neg(tf.mean(tf.sum(tf.mul(tf.logSoftmax(logits), tf.oneHot(actions, numActions)), 1))) as tf.Scalar;
}

/** The share of steps whose argMax (the first of equal maxima) is the demonstrated action. */
export function cloningAccuracy(logits: tf.Tensor2D, actions: tf.Tensor1D): tf.Scalar {
  return tf.mean(tf.cast(tf.equal(tf.argMax(logits, 1), actions), 'float32')) as tf.Scalar;
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
        accuracy = tf.keep(tf.mul(cloningAccuracy(logits, actions), weight));
        return tf.mul(cloningLoss(logits, actions, batch.numActions), weight) as tf.Scalar;
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
      accuracy = tf.keep(cloningAccuracy(logits, actions));
      return cloningLoss(logits, actions, batch.numActions);
    }, policy.variables);
    applyClippedGradients(optimizer, grads, maxGradNorm);
    const out = tf.stack([loss, accuracy]);
    accuracy.dispose(); // kept out of variableGrads' scope above, so tidy would not free it
    return out;
  });
}
