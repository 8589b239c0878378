/**
 * The pure half of "your own estimator": the batch a visitor's `estimate(batch, settings)` reads, and
 * the check of what it returns. Loads no tfjs and no DOM, so it runs unchanged in the page's sandbox
 * worker, in Node's worker thread and in tests.
 *
 * The hand-over is typed arrays, never JSON: `estimatorInput` copies the batch's flat arrays (offsets,
 * per-run outcomes, per-step milestones and state keys) into fresh buffers that can be transferred to
 * the sandbox, where `estimatorBatchView` lays `groups[g][i]` over them as subarray views. The visitor's
 * result comes back as one flat Float64Array of per-step advantages (`flattenAdvantages`), in the
 * layout of docs/maths.md §2 that the trainer's PPO update reads.
 */
import type { AdvantageBatch } from '../advantages/types.ts';
import { EstimatorError } from './failure.ts';

/** The flat arrays handed to the sandbox (each in a buffer of its own, so each can be transferred). */
export interface EstimatorInput {
  /** numGroups + 1 run offsets. */
  groupOffsets: Int32Array;
  /** numRuns + 1 step offsets. */
  runOffsets: Int32Array;
  /** Per run: the final reward R_i. */
  rewards: Float64Array;
  /** Per run: 1 if the run solved its task. */
  success: Uint8Array;
  /** Per run: milestones the run reached, and the task's number of milestones. */
  milestonesReached: Uint8Array;
  numMilestones: Uint8Array;
  /** Per step: 1 where the detector Φ fired (docs/maths.md §2), as the method's batch has them. */
  milestones: Uint8Array;
  /** Per step: the environment's state key (0 where the batch has none). */
  stateKeys: Uint32Array;
}

/** One run as the visitor's estimator reads it (`batch.groups[g][i]`). */
export interface EstimatorRun {
  reward: number;
  success: boolean;
  length: number;
  milestones: Uint8Array;
  stateKeys: Uint32Array;
  milestonesReached: number;
  numMilestones: number;
}

export interface EstimatorBatch {
  groups: EstimatorRun[][];
}

/** What `estimate` may return for one run: one number per step, or one number for every step. */
export type RunAdvantages = number | ArrayLike<number>;

/**
 * Fresh copies of the batch's arrays for the sandbox. Per-run facts the batch lacks (a hand-made batch
 * of the advantage calculator) are derived from what it has: success is R_i > 0 (failed runs get 0,
 * docs/maths.md §2), milestones reached is the count of Φ's flags, and the task's number of milestones
 * the largest count in the run's group.
 */
export function estimatorInput(batch: AdvantageBatch): EstimatorInput {
  const runs = batch.runOffsets.length - 1;
  const steps = batch.runOffsets[runs];
  const reached = batch.milestonesReached ? Uint8Array.from(batch.milestonesReached) : countMilestones(batch);
  return {
    groupOffsets: Int32Array.from(batch.groupOffsets),
    runOffsets: Int32Array.from(batch.runOffsets),
    rewards: Float64Array.from(batch.rewards),
    success: batch.success ? Uint8Array.from(batch.success) : Uint8Array.from(batch.rewards, (r) => (r > 0 ? 1 : 0)),
    milestonesReached: reached,
    numMilestones: batch.numMilestones ? Uint8Array.from(batch.numMilestones) : groupMaxima(batch.groupOffsets, reached),
    milestones: Uint8Array.from(batch.milestones),
    stateKeys: batch.stateKeys ? Uint32Array.from(batch.stateKeys) : new Uint32Array(steps),
  };
}

/** The buffers of an input, for `postMessage`'s transfer list. */
export function inputBuffers(input: EstimatorInput): ArrayBuffer[] {
  return Object.values(input).map((a: ArrayBufferView) => a.buffer as ArrayBuffer);
}

function countMilestones(batch: AdvantageBatch): Uint8Array {
  const runs = batch.runOffsets.length - 1;
  const out = new Uint8Array(runs);
  for (let i = 0; i < runs; i++) {
    let n = 0;
    for (let t = batch.runOffsets[i]; t < batch.runOffsets[i + 1]; t++) n += batch.milestones[t];
    out[i] = Math.min(n, 255);
  }
  return out;
}

function groupMaxima(groupOffsets: Int32Array, perRun: Uint8Array): Uint8Array {
  const out = new Uint8Array(perRun.length);
  for (let g = 0; g + 1 < groupOffsets.length; g++) {
    let max = 0;
    for (let i = groupOffsets[g]; i < groupOffsets[g + 1]; i++) max = Math.max(max, perRun[i]);
    out.fill(max, groupOffsets[g], groupOffsets[g + 1]);
  }
  return out;
}

/** `batch.groups[g][i]` over the input's arrays: subarray views, no copy. */
export function estimatorBatchView(input: EstimatorInput): EstimatorBatch {
  const { groupOffsets, runOffsets } = input;
  const groups: EstimatorRun[][] = [];
  for (let g = 0; g + 1 < groupOffsets.length; g++) {
    const group: EstimatorRun[] = [];
    for (let i = groupOffsets[g]; i < groupOffsets[g + 1]; i++) {
      const start = runOffsets[i];
      const end = runOffsets[i + 1];
      group.push({
        reward: input.rewards[i],
        success: input.success[i] === 1,
        length: end - start,
        milestones: input.milestones.subarray(start, end),
        stateKeys: input.stateKeys.subarray(start, end),
        milestonesReached: input.milestonesReached[i],
        numMilestones: input.numMilestones[i],
      });
    }
    groups.push(group);
  }
  return { groups };
}

const isArrayLike = (x: unknown): x is ArrayLike<unknown> => Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));

const describe = (x: unknown): string => {
  if (x === null || x === undefined) return String(x);
  if (typeof x === 'string') return JSON.stringify(x.length > 20 ? `${x.slice(0, 20)}…` : x);
  if (typeof x === 'object') return x.constructor?.name ?? 'an object';
  return String(x);
};

/**
 * Checks `advantages[g][i]` against the batch and lays it out flat, one entry per step. Throws an
 * EstimatorError of kind `shape` (naming the group, the run, and the expected and actual lengths) or
 * `nonFinite` (naming the group, run and step).
 */
export function flattenAdvantages(advantages: unknown, input: EstimatorInput): Float64Array {
  const { groupOffsets, runOffsets } = input;
  const numGroups = groupOffsets.length - 1;
  const shape = (message: string) => new EstimatorError({ kind: 'shape', message: `estimate() returned the wrong shape: ${message}` });
  if (!isArrayLike(advantages)) throw shape(`expected an array with one entry per group (${numGroups} groups), got ${describe(advantages)}`);
  if (advantages.length !== numGroups) throw shape(`expected ${numGroups} groups, got ${advantages.length}`);
  const out = new Float64Array(runOffsets[runOffsets.length - 1]);
  for (let g = 0; g < numGroups; g++) {
    const group = advantages[g];
    const runs = groupOffsets[g + 1] - groupOffsets[g];
    if (!isArrayLike(group)) throw shape(`group ${g}: expected an array of ${runs} runs, got ${describe(group)}`);
    if (group.length !== runs) throw shape(`group ${g}: expected ${runs} runs, got ${group.length}`);
    for (let r = 0; r < runs; r++) {
      const i = groupOffsets[g] + r;
      const start = runOffsets[i];
      const length = runOffsets[i + 1] - start;
      const run = group[r];
      if (typeof run === 'number') {
        if (!Number.isFinite(run)) throw nonFinite(g, r, null, run);
        out.fill(run, start, start + length);
        continue;
      }
      if (!isArrayLike(run)) throw shape(`group ${g}, run ${r}: expected ${length} advantages (one per step) or one number, got ${describe(run)}`);
      if (run.length !== length) throw shape(`group ${g}, run ${r}: expected ${length} advantages (one per step), got ${run.length}`);
      for (let t = 0; t < length; t++) {
        const a = run[t];
        if (typeof a !== 'number' || !Number.isFinite(a)) throw nonFinite(g, r, t, a);
        out[start + t] = a;
      }
    }
  }
  return out;
}

function nonFinite(g: number, r: number, t: number | null, value: unknown): EstimatorError {
  const where = t === null ? `group ${g}, run ${r} (every step)` : `group ${g}, run ${r}, step ${t}`;
  return new EstimatorError({
    kind: 'nonFinite',
    message: `estimate() returned a non-finite advantage at ${where}: ${describe(value)}; every advantage must be a finite number`,
  });
}
