/**
 * What the page draws of one method's latest batch, cut from the trainer's `lastBatch`: enough to replay
 * every run in a batch-1 environment (task seeds and actions) and to draw its credit (A_traj, A_seg, A,
 * r_t, segment boundaries). Observations, action features and masks stay in the worker.
 *
 * Every array is a fresh copy, so the worker can transfer it without detaching the trainer's own.
 */
import type { Method } from '../methods/registry.ts';
import type { EnvName, Horizon } from '../../envs/index.ts';
import type { Detector } from '../../envs/types.ts';
import type { BatchView } from '../trainer/latest-batch.ts';

export interface BatchSnapshot {
  method: Method;
  /** The iteration that produced the batch (1-based). */
  iteration: number;
  env: EnvName;
  horizon: Horizon;
  groupSize: number;
  /** λ the advantages used (A = A_traj + λ · A_seg). */
  lambda: number;
  /** The segment boundaries are random steps (random segmentation ablation), not milestones. */
  randomSegments: boolean;
  /** The detector Φ the environment ran (docs/maths.md §6); absent: the task's. */
  detector?: Detector;
  /**
   * Where the snapshot holds a sample of the batch's runs (the GPU rollout's checked sample, src/trainer/
   * sample-view.ts): the batch's number of each run here, of `batchRuns`. Absent: run i is the batch's
   * run i, of all of them.
   */
  runNumbers?: Int32Array;
  batchRuns?: number;
  /** Per run (numRuns): */
  taskSeeds: Uint32Array;
  success: Uint8Array;
  milestonesReached: Uint8Array;
  numMilestones: Uint8Array;
  aTraj: Float32Array;
  /** numRuns + 1 step offsets. */
  runOffsets: Int32Array;
  /** Per step (run-major): */
  actions: Int32Array;
  /** Task-order index (1..M) of the milestone the environment reported on this step (after dropout), else 0
   *  (DETECTOR_ONLY where a loose or fine detector fired without a task milestone). */
  milestones: Uint8Array;
  /** 1 where a segment ended as the advantage estimator saw it. */
  boundaries: Uint8Array;
  shapedRewards: Float32Array;
  aSeg: Float32Array;
  advantages: Float32Array;
}

export interface SnapshotContext {
  method: Method;
  iteration: number;
  env: EnvName;
  horizon: Horizon;
  lambda: number;
  randomSegments: boolean;
  detector?: Detector;
}

export function makeSnapshot(view: BatchView, context: SnapshotContext): BatchSnapshot {
  const { rollout, batch, result, sample } = view;
  return {
    ...context,
    groupSize: sample?.groupSize ?? rollout.groupSize,
    ...(sample ? { runNumbers: Int32Array.from(sample.runs), batchRuns: sample.numRuns } : {}),
    taskSeeds: rollout.taskSeeds.slice(),
    success: rollout.success.slice(),
    milestonesReached: rollout.milestonesReached.slice(),
    numMilestones: rollout.numMilestones.slice(),
    aTraj: Float32Array.from(result.trajectoryAdvantages),
    runOffsets: rollout.runOffsets.slice(),
    actions: rollout.actions.slice(),
    milestones: rollout.milestones.slice(),
    boundaries: Uint8Array.from(batch.milestones, (m) => (m ? 1 : 0)),
    shapedRewards: Float32Array.from(result.shapedRewards),
    aSeg: Float32Array.from(result.segmentAdvantages),
    advantages: Float32Array.from(result.advantages),
  };
}

/** The buffers to transfer with a snapshot (each array owns its buffer: made by slice/from above). */
export function snapshotTransferables(s: BatchSnapshot): ArrayBuffer[] {
  return [
    s.taskSeeds,
    s.success,
    s.milestonesReached,
    s.numMilestones,
    s.aTraj,
    s.runOffsets,
    s.actions,
    s.milestones,
    s.boundaries,
    s.shapedRewards,
    s.aSeg,
    s.advantages,
    ...(s.runNumbers ? [s.runNumbers] : []),
  ].map((a) => a.buffer as ArrayBuffer);
}

/** Number of runs in a snapshot. */
export function snapshotRuns(s: BatchSnapshot): number {
  return s.runOffsets.length - 1;
}

/** The batch's number (0-based) of the snapshot's run i. */
export function batchRunNumber(s: BatchSnapshot, i: number): number {
  return s.runNumbers ? s.runNumbers[i] : i;
}

/** How many runs the snapshot's batch had (more than the snapshot holds where it holds a sample). */
export function batchRunCount(s: BatchSnapshot): number {
  return s.batchRuns ?? snapshotRuns(s);
}
