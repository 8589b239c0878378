/**
 * PPO clipped-surrogate update on per-step advantages (the policy update of docs/maths.md §4).
 *
 *   ratio   = exp(log π(a|s) − log π_old(a|s))
 *   pgLoss  = −mean(min(ratio · A, clip(ratio, 1 − ε, 1 + ε) · A))
 *   approxKl = mean((ratio − 1) − log ratio)          (the k3 estimator: unbiased, ≥ 0)
 *   loss    = pgLoss − entropyCoef · mean(H) + klCoef · approxKl
 *
 * Epochs × minibatches over the batch's steps, Adam, global-norm gradient clipping. Every tensor made
 * here is disposed here; statistics are read back once per update (`ppoUpdate`), or handed over as a
 * tensor for the caller to read with other values in one read-back (`ppoUpdateDeferred`). The entry point must have registered
 * tfjs's gradients (cli/register-gradients.ts in Node, src/backend in the page).
 */
import * as tf from '@tensorflow/tfjs-core';
import { pickIndices } from '../policy/candidate-table.ts';
import type { Policy, PolicyInput } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';
import { applyClippedGradients } from './gradients.ts';
import { type Minibatch, minibatchOrder } from './minibatches.ts';
import type { RolloutRecords } from '../gpu/ppo-gather.ts';
import { ScratchArray } from './scratch-array.ts';
import { chunkedStep, chunksOf, chunkSteps } from './update-chunks.ts';

export interface PpoSettings {
  clipRatio: number;
  epochs: number;
  minibatches: number;
  entropyCoef: number;
  klCoef: number;
  maxGradNorm: number;
  /** The most values one per-step tensor may hold before a minibatch is cut into chunks (update-chunks.ts). */
  chunkElements?: number;
}

/**
 * The batch, owned by the caller (update-batch.ts builds it). Per-step rows stay on the CPU and each
 * minibatch uploads its own rows: on wasm a device gather costs ~10× a host copy plus upload, and on
 * webgpu the upload is a small write. What is shared by every minibatch (the distinct candidate rows)
 * or produced on the device (the advantages) is uploaded or kept there once.
 */
export interface PpoBatch {
  obsDim: number;
  numActions: number;
  obs: Float32Array; // [S × obsDim]
  candidates: tf.Tensor2D; // [K, actionDim] the batch's distinct candidate feature rows
  candidateRows: Int32Array; // [S × A]: the row in `candidates` of each (step, candidate)
  /** K, known without building `candidates` (update-batch.ts builds it on first use); absent: `candidates.shape[0]`. */
  numRows?: number;
  /** Frees what the batch built (update-batch.ts's disposePpoBatch calls it; absent: `candidates` is disposed). */
  release?: () => void;
  mask: Uint8Array; // [S × A] 1 admissible
  actions: Int32Array; // [S]
  oldLogProbs: Float32Array; // [S]
  advantages: tf.Tensor1D; // [S]
  /** Where minibatch rows are gathered. */
  rows: MinibatchRows;
  /** `obs`, `actions` and `oldLogProbs` as a GPU rollout left them on the device (the fused update reads them there). */
  records?: RolloutRecords;
}

export interface PpoStats {
  policyLoss: number;
  entropy: number;
  approxKl: number;
  clipFraction: number;
  gradNorm: number;
}

export class NonFiniteLossError extends Error {}

/** An update whose statistics have not been read yet (`ppoUpdateDeferred`); settle or abandon it once. */
export interface PendingPpoStats {
  /** [policyLoss, entropy, approxKl, clipFraction, gradNorm], the minibatches' mean, float32 [5]; owned here. */
  readonly tensor: tf.Tensor1D;
  /**
   * The statistics from `tensor`'s values, read by the caller. Not finite: the weights from before the
   * update are restored and NonFiniteLossError thrown. Frees the tensor and the weights' snapshot.
   */
  settle(values: ArrayLike<number>): PpoStats;
  /** Frees the tensor and the snapshot, weights left as updated (an error elsewhere ended the iteration). */
  abandon(): void;
}

/** `order`: the minibatches to visit; by default drawn from `rng` (minibatches.ts). */
export async function ppoUpdate(
  policy: Policy,
  optimizer: tf.Optimizer,
  batch: PpoBatch,
  settings: PpoSettings,
  rng: Rng,
  order?: Iterable<Minibatch>,
): Promise<PpoStats> {
  return readPpoStats(ppoUpdateDeferred(policy, optimizer, batch, settings, rng, order));
}

/** Pending statistics read through tfjs and settled (abandoned if the read fails). */
export async function readPpoStats(pending: PendingPpoStats): Promise<PpoStats> {
  let values: ArrayLike<number>;
  try {
    values = await pending.tensor.data();
  } catch (e) {
    pending.abandon();
    throw e;
  }
  return pending.settle(values);
}

/**
 * The update, every minibatch's work queued, its statistics left on the device: the caller reads
 * `tensor` (on webgpu with the iteration's other values, src/trainer/iteration-read-back.ts) and settles.
 */
export function ppoUpdateDeferred(
  policy: Policy,
  optimizer: tf.Optimizer,
  batch: PpoBatch,
  settings: PpoSettings,
  rng: Rng,
  order: Iterable<Minibatch> = minibatchOrder(batch.actions.length, settings.epochs, settings.minibatches, rng),
): PendingPpoStats {
  const stats: tf.Tensor[] = []; // one [5] vector per minibatch
  const before = policy.snapshot();
  let mean: tf.Tensor1D;
  try {
    for (const { indices } of order) {
      stats.push(minibatchStep(policy, optimizer, batch, indices, settings));
    }
    mean = tf.tidy(() => tf.mean(tf.stack(stats), 0) as tf.Tensor1D);
  } catch (e) {
    tf.dispose(before);
    throw e;
  } finally {
    tf.dispose(stats);
  }
  let open = true;
  const close = () => {
    if (!open) throw new Error('PendingPpoStats: settled or abandoned twice');
    open = false;
    mean.dispose();
  };
  return {
    tensor: mean,
    settle(values) {
      close();
      const [policyLoss, entropy, approxKl, clipFraction, gradNorm] = Array.from(values);
      if (![policyLoss, entropy, approxKl, gradNorm].every(Number.isFinite)) {
        policy.restore(before); // leave the last good weights
        throw new NonFiniteLossError(
          `non-finite loss (policyLoss=${policyLoss}, entropy=${entropy}, approxKl=${approxKl}, gradNorm=${gradNorm}); weights restored to before this update`,
        );
      }
      tf.dispose(before);
      return { policyLoss, entropy, approxKl, clipFraction, gradNorm };
    },
    abandon() {
      close();
      tf.dispose(before);
    },
  };
}

/** One gradient step; returns [pgLoss, entropy, approxKl, clipFraction, gradNorm] as a tensor. */
function minibatchStep(policy: Policy, optimizer: tf.Optimizer, batch: PpoBatch, indices: Int32Array, s: PpoSettings): tf.Tensor {
  const widestRow = Math.max(policy.shape.hiddenSize, batch.candidates.shape[0], batch.numActions);
  const chunks = chunksOf(indices, chunkSteps(widestRow, s.chunkElements));
  // Too big for one pass (update-chunks.ts): the same step, its loss summed over chunks.
  if (chunks.length > 1)
    return chunkedStep(optimizer, chunks, indices.length, s.maxGradNorm, (chunk, weight) => lossGradients(policy, batch, chunk, s, weight));
  return tf.tidy(() => {
    const { grads, parts } = lossGradients(policy, batch, indices, s, 1);
    const gradNorm = applyClippedGradients(optimizer, grads, s.maxGradNorm);
    const out = tf.stack([...parts, gradNorm]);
    tf.dispose(parts);
    return out;
  });
}

/**
 * The PPO loss's gradients over the steps `indices`, times `weight` (1: the whole minibatch), and its
 * statistics [pgLoss, entropy, approxKl, clipFraction] times `weight`, kept. Call inside a tf.tidy.
 * Exported as the autodiff reference of the fused update's gradients (ppo-fused.ts, its parity test).
 */
export function lossGradients(
  policy: Policy,
  batch: PpoBatch,
  indices: Int32Array,
  s: PpoSettings,
  weight: number,
): { grads: tf.NamedTensorMap; parts: tf.Tensor[] } {
  const { input, actions, oldLogProbs } = minibatchInputs(batch, indices);
  const numActions = batch.numActions;
  const adv = tf.gather(batch.advantages, tf.tensor1d(indices, 'int32'));
  const weighted = (t: tf.Tensor) => (weight === 1 ? t : tf.mul(t, weight));

  let parts: tf.Tensor[] = [];
  const { value: loss, grads } = tf.variableGrads(() => {
    const logp = tf.logSoftmax(policy.logits(input));
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
    parts = [pgLoss, entropy, approxKl, clipFraction].map((t) => tf.keep(weighted(t)));
    return weighted(tf.add(tf.sub(pgLoss, tf.mul(entropy, s.entropyCoef)), tf.mul(approxKl, s.klCoef))) as tf.Scalar;
  }, policy.variables);
  loss.dispose();
  return { grads, parts };
}

/**
 * The policy's inputs for the steps `indices` of a batch, plus their actions and old log-probabilities.
 * Shared by every update that reads a batch (PPO here, behaviour cloning). Call inside a tf.tidy.
 */
export function minibatchInputs(batch: PpoBatch, indices: Int32Array): { input: PolicyInput; actions: tf.Tensor1D; oldLogProbs: tf.Tensor1D } {
  const rows = gatherRows(batch, indices);
  const M = indices.length;
  const numActions = batch.numActions;
  return {
    input: {
      obs: tf.tensor2d(rows.obs, [M, batch.obsDim]),
      candidates: batch.candidates,
      pick: tf.tensor1d(pickIndices(batch.candidateRows, numActions, batch.candidates.shape[0], indices), 'int32'),
      mask: tf.tensor2d(rows.mask, [M, numActions], 'bool'),
    },
    actions: tf.tensor1d(rows.actions, 'int32'),
    oldLogProbs: tf.tensor1d(rows.oldLogProbs),
  };
}

/**
 * Host storage for one minibatch's rows, reused by every minibatch of a trainer (scratch-array.ts). The
 * tensors made from the rows may alias it (the cpu backend keeps the arrays it is given), so the rows of
 * one minibatch must be dead, their tidy closed, before the next minibatch is gathered: as here.
 */
export class MinibatchRows {
  readonly obs = new ScratchArray((n) => new Float32Array(n));
  readonly mask = new ScratchArray((n) => new Uint8Array(n));
  readonly actions = new ScratchArray((n) => new Int32Array(n));
  readonly oldLogProbs = new ScratchArray((n) => new Float32Array(n));
}

/** The minibatch's per-step rows, copied on the host into the batch's row storage. */
function gatherRows(batch: PpoBatch, indices: Int32Array) {
  const { obsDim, numActions: A } = batch;
  const M = indices.length;
  const obs = batch.rows.obs.take(M * obsDim);
  const mask = batch.rows.mask.take(M * A);
  const actions = batch.rows.actions.take(M);
  const oldLogProbs = batch.rows.oldLogProbs.take(M);
  for (let i = 0; i < M; i++) {
    const s = indices[i];
    obs.set(batch.obs.subarray(s * obsDim, (s + 1) * obsDim), i * obsDim);
    mask.set(batch.mask.subarray(s * A, (s + 1) * A), i * A);
    actions[i] = batch.actions[s];
    oldLogProbs[i] = batch.oldLogProbs[s];
  }
  return { obs, mask, actions, oldLogProbs };
}
