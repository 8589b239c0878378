/**
 * The fused PPO update's inputs and limits (fused-ppo.ts runs it): the batch's shape and buffers, the
 * minibatches, the settings, the variables' buffers it writes, and why a batch must take the tfjs
 * ops instead.
 */
import { FUSED_PPO_MAX_ACTIONS, FUSED_PPO_MAX_HIDDEN, type LossKind, rowGrouping } from './fused-ppo-kernels.ts';
import { bindableBytes } from './buffer-pool.ts';
import { takeGpuFault } from './fault-injection.ts';
import type { PermutationKey } from './minibatch-permutation.ts';
import type { RolloutRecords } from './ppo-gather.ts';

export interface FusedPpoShape {
  obsDim: number;
  actionDim: number;
  hiddenSize: number;
  /** Candidates per step (A). */
  numActions: number;
}

/** The update's batch: host arrays written once per update, and two buffers already on the device. */
export interface FusedPpoBatch {
  /** S: the batch's steps. */
  numSteps: number;
  /** S × obsDim. */
  obs: Float32Array;
  /**
   * S × A: each (step, candidate)'s distinct candidate row, −1 where inadmissible; not read where
   * `records` holds the rollout's candidate dictionary (the update gathers the rows from it).
   */
  rows: Int32Array;
  actions: Int32Array;
  oldLogProbs: Float32Array;
  /** K distinct candidate feature rows, K × actionDim float32. */
  features: GPUBuffer;
  numRows: number;
  /** S per-step advantages, float32. */
  advantages: GPUBuffer;
  /**
   * Every epoch's order of the steps, back to back (epochs × S), written by the host; or the key from
   * which the GPU draws it at the start of the update (minibatch-permutation.ts), so nothing of the
   * order crosses the bus.
   */
  perm: Uint32Array | { key: PermutationKey; epochs: number };
  /**
   * Where the GPU rollout left `obs`, `actions` and `oldLogProbs`: the update gathers them there in
   * one more dispatch (ppo-gather.ts) instead of the host writing them; the host arrays are not read
   * then.
   */
  records?: RolloutRecords;
}

/** A minibatch: `size` steps from `perm[offset …]`. */
export interface FusedMinibatch {
  offset: number;
  size: number;
}

export interface FusedPpoSettings {
  clipRatio: number;
  entropyCoef: number;
  klCoef: number;
  maxGradNorm: number;
  learningRate: number;
  beta1: number;
  beta2: number;
  epsilon: number;
  /** The loss (default `ppo`); `cloning` reads neither `oldLogProbs` nor the advantages (docs/maths.md §9). */
  lossKind?: LossKind;
  /**
   * The update's statistics are the mean over its last `statsOver` minibatches (default: over all of
   * them); it divides their count (behaviour cloning's: the last epoch's).
   */
  statsOver?: number;
}

/** The GPU buffers of the weights and of Adam's state, one per variable in `Policy.variables` order. */
export interface FusedPpoTargets {
  weights: GPUBuffer[];
  firstMoments: GPUBuffer[];
  secondMoments: GPUBuffer[];
  /** Adam's β1^t and β2^t, one float32 each. */
  accBeta1: GPUBuffer;
  accBeta2: GPUBuffer;
}

/** Floats of each variable of a policy of this shape, in `Policy.variables` order. */
export function variableSizes(s: Pick<FusedPpoShape, 'obsDim' | 'actionDim' | 'hiddenSize'>): number[] {
  const H = s.hiddenSize;
  return [s.obsDim * H, H, H * H, H, s.actionDim * H, H, H * H, H];
}

/**
 * Writes the batch's host rows that the GPU does not gather (fused-ppo.ts `writeBatch`): its candidate
 * rows, observations, actions and old log-probabilities from step `stepBase` on, and its permutation
 * from `permBase` on (a seed's place in joined buffers, fused-ppo-seeds.ts; 0 for one batch alone).
 */
export function writeHostRows(
  queue: GPUQueue,
  shape: FusedPpoShape,
  batch: FusedPpoBatch,
  into: { rows: GPUBuffer; obs: GPUBuffer; actions: GPUBuffer; oldLogProbs: GPUBuffer; perm: GPUBuffer },
  stepBase = 0,
  permBase = 0,
): void {
  if (!batch.records?.candidates) queue.writeBuffer(into.rows, 4 * stepBase * shape.numActions, batch.rows);
  if (!batch.records) {
    queue.writeBuffer(into.obs, 4 * stepBase * shape.obsDim, batch.obs);
    queue.writeBuffer(into.actions, 4 * stepBase, batch.actions);
    queue.writeBuffer(into.oldLogProbs, 4 * stepBase, batch.oldLogProbs);
  }
  if (batch.perm instanceof Uint32Array) queue.writeBuffer(into.perm, 4 * permBase, batch.perm);
}

/** Floats of one minibatch's work buffer for A candidates per step (workOffsets in the WGSL). */
export function workFloats(M: number, K: number, H: number, A: number): number {
  return 4 * M * H + 4 * K * H + M * A + 4 * M;
}

/**
 * Why the fused update cannot take this batch on `device`, or null: a width or candidate count over
 * the kernels' arrays, or a buffer over the adapter's storage binding size. The limit is the pool's
 * (buffer-pool.ts bindableBytes), whose rounding stops there: a batch admitted here gets buffers the
 * device binds whole.
 */
export function fusedPpoRefusal(
  shape: FusedPpoShape,
  steps: number,
  numRows: number,
  epochs: number,
  largestMinibatch: number,
  device: GPUDevice,
): string | null {
  if (takeGpuFault('updateRefusal')) return 'a test hook refused the batch (fault injection: updateRefusal)';
  if (shape.hiddenSize > FUSED_PPO_MAX_HIDDEN) return `hiddenSize ${shape.hiddenSize} is over the fused update's ${FUSED_PPO_MAX_HIDDEN}`;
  if (shape.numActions > FUSED_PPO_MAX_ACTIONS) return `${shape.numActions} candidates per step are over the fused update's ${FUSED_PPO_MAX_ACTIONS}`;
  const limit = bindableBytes(device.limits);
  const grouping = rowGrouping(steps, shape.numActions, numRows, shape.hiddenSize, shape.actionDim, shape.obsDim, largestMinibatch);
  const bytes: Record<string, number> = {
    work: 4 * workFloats(largestMinibatch, numRows, shape.hiddenSize, shape.numActions),
    groups: 4 * grouping.groupWords,
    pieces: 4 * grouping.pieceFloats,
    partials: 4 * grouping.partialFloats,
    obs: 4 * steps * shape.obsDim,
    rows: 4 * steps * shape.numActions,
    perm: 4 * steps * epochs,
  };
  for (const [name, size] of Object.entries(bytes))
    if (size > limit) return `the fused update's ${name} buffer (${size} bytes) is over the adapter's binding limit (${limit} bytes)`;
  return null;
}
