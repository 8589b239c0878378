/**
 * The advantage batch of src/advantages/types.ts as tfjs tensors for the GPU estimator
 * (advantage-estimator.ts): building them from a CPU batch, and checking the shapes and dtypes the
 * kernels rely on (on the GPU, malformed offsets give garbage, not errors).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { StepGroupIndex } from '../advantages/gigpo.ts';
import { validateBatch, type AdvantageBatch } from '../advantages/types.ts';

/** The batch of src/advantages/types.ts as tensors on the webgpu backend (same offset-indexed layout). */
export interface AdvantageTensors {
  /** int32 [numGroups + 1]. */
  groupOffsets: tf.Tensor1D;
  /** int32 [numRuns + 1]. */
  runOffsets: tf.Tensor1D;
  /**
   * int32 or bool [numSteps]: non-zero where the milestone detector fired; or, with `milestoneRecord`,
   * a GPU rollout's step-major action record, whose MILESTONE_FLAG bit the kernels read in place
   * (src/trainer/rollout-records.ts), a tensor of numSteps elements on that record's buffer.
   */
  milestones: tf.Tensor1D;
  milestoneRecord?: boolean;
  /** float32 [numRuns]: final reward R_i. */
  rewards: tf.Tensor1D;
}

/**
 * The batch as tensors on the current backend, after checking it (validateBatch); the caller disposes
 * them. The structure can only be checked here: on the GPU, malformed offsets give garbage, not errors.
 * `milestoneRecord`: a GPU rollout's action record whose flags are `batch.milestones` (a tensor on its
 * buffer), read there instead of uploading them; `runOffsets` likewise, the offsets a GPU rollout
 * wrote (the same as `batch.runOffsets`).
 */
export function batchToTensors(batch: AdvantageBatch, milestoneRecord?: tf.Tensor1D, runOffsets?: tf.Tensor1D): AdvantageTensors {
  validateBatch(batch, milestoneRecord !== undefined);
  return {
    ...(milestoneRecord ? { milestoneRecord: true } : {}),
    groupOffsets: tf.tensor1d(batch.groupOffsets, 'int32'),
    runOffsets: runOffsets ?? tf.tensor1d(batch.runOffsets, 'int32'),
    milestones: milestoneRecord ?? tf.tensor1d(Int32Array.from(batch.milestones), 'int32'),
    rewards: tf.tensor1d(Float32Array.from(batch.rewards), 'float32'),
  };
}

/** The batch's sizes, after checking each tensor's rank and dtype and that its groups and runs can be filled. */
export function checkTensors(b: AdvantageTensors): { numGroups: number; numRuns: number; numSteps: number } {
  const expect = (name: Exclude<keyof AdvantageTensors, 'milestoneRecord'>, dtypes: string[]) => {
    const t = b[name];
    if (t.rank !== 1) throw new RangeError(`${name} must be a 1-D tensor, got shape [${t.shape}]`);
    if (!dtypes.includes(t.dtype)) throw new RangeError(`${name} must be ${dtypes.join(' or ')}, got ${t.dtype}`);
    return t.shape[0];
  };
  const numGroups = expect('groupOffsets', ['int32']) - 1;
  const numRuns = expect('runOffsets', ['int32']) - 1;
  const numSteps = expect('milestones', ['int32', 'bool']);
  if (numGroups < 1) throw new RangeError('groupOffsets: need at least one group');
  if (expect('rewards', ['float32']) !== numRuns) throw new RangeError(`rewards must have ${numRuns} entries (one per run), got ${b.rewards.shape[0]}`);
  if (numRuns < 2 * numGroups) throw new RangeError(`${numRuns} runs cannot fill ${numGroups} groups of at least 2`);
  if (numSteps < numRuns) throw new RangeError(`${numSteps} steps cannot fill ${numRuns} runs of at least 1 step`);
  if (numSteps >= 0x80000000) throw new RangeError('more than 2^31 − 1 steps');
  return { numGroups, numRuns, numSteps };
}

/** Throws unless `index` has one member per step and offsets from 0 to `numSteps`. */
export function checkIndex(index: StepGroupIndex, numSteps: number): void {
  const { numStepGroups, offsets, members, stepGroupOf } = index;
  if (members.length !== numSteps || stepGroupOf.length !== numSteps) {
    throw new RangeError(
      `step-group index: members and stepGroupOf must have one entry per step (${numSteps}), got ${members.length} and ${stepGroupOf.length}`,
    );
  }
  if (numStepGroups < 1 || offsets.length !== numStepGroups + 1 || offsets[0] !== 0 || offsets[numStepGroups] !== numSteps) {
    throw new RangeError(`step-group index: offsets must have ${numStepGroups + 1} entries from 0 to ${numSteps}`);
  }
}
