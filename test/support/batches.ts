/**
 * Builds an offset-indexed AdvantageBatch from nested runs, for tests that write batches by hand.
 */
import type { AdvantageBatch } from '../../src/advantages/types.ts';

export type RunSpec = { reward: number; milestones: number[] };

export function makeBatch(groups: RunSpec[][]): AdvantageBatch {
  const runs = groups.flat();
  const groupOffsets = new Int32Array(groups.length + 1);
  groups.forEach((g, i) => (groupOffsets[i + 1] = groupOffsets[i] + g.length));
  const runOffsets = new Int32Array(runs.length + 1);
  runs.forEach((r, i) => (runOffsets[i + 1] = runOffsets[i] + r.milestones.length));
  return {
    groupOffsets,
    runOffsets,
    milestones: Uint8Array.from(runs.flatMap((r) => r.milestones)),
    rewards: Float64Array.from(runs.map((r) => r.reward)),
  };
}

/** A run with one environment state key per step (GiGPO's step groups, docs/maths.md §7). */
export type KeyedRun = RunSpec & { keys: number[] };

/** A keyed run without milestones. */
export const keyedRun = (reward: number, keys: number[]): KeyedRun => ({ reward, milestones: keys.map(() => 0), keys });

/** The batch and its per-step state keys. */
export function makeKeyedBatch(groups: KeyedRun[][]): { batch: AdvantageBatch; keys: Uint32Array } {
  return { batch: makeBatch(groups), keys: Uint32Array.from(groups.flat().flatMap((r) => r.keys)) };
}
