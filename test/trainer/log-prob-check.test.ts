/**
 * Which runs a GPU rollout's log-probability check covers (src/trainer/log-prob-check.ts): a seeded
 * sample of 8 distinct runs whatever the batch, fewer where their steps would take the check over its
 * budget at large widths, never none. (The check itself, on real rollouts: gpu-rollout.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { CHECK_BUDGET, CHECKED_RUNS, checkedRuns } from '../../src/trainer/log-prob-check.ts';

const offsets = (runs: number, steps: number) => Int32Array.from({ length: runs + 1 }, (_, b) => b * steps);
const GRIDHOUSE = { obsDim: 94, actionDim: 33 };

describe('the runs a rollout checks', () => {
  it('are 8 distinct runs of the batch, the same for the same key, others for another', () => {
    for (const runs of [64, 4096]) {
      const key = { key0: 7, key1: 11 };
      const chosen = checkedRuns(offsets(runs, 128), key, { ...GRIDHOUSE, hiddenSize: 64 });
      expect(chosen.length).toBe(CHECKED_RUNS);
      expect(new Set(chosen).size).toBe(CHECKED_RUNS);
      expect(chosen.every((b) => Number.isInteger(b) && b >= 0 && b < runs)).toBe(true);
      expect(checkedRuns(offsets(runs, 128), key, { ...GRIDHOUSE, hiddenSize: 64 })).toEqual(chosen);
      expect(checkedRuns(offsets(runs, 128), { key0: 7, key1: 12 }, { ...GRIDHOUSE, hiddenSize: 64 })).not.toEqual(chosen);
    }
    expect(checkedRuns(offsets(3, 10), { key0: 1, key1: 2 }, { ...GRIDHOUSE, hiddenSize: 64 }).sort()).toEqual([0, 1, 2]);
  });

  it('stay within the budget at large widths, and are never none', () => {
    const key = { key0: 3, key1: 5 };
    for (const hiddenSize of [128, 256, 512]) {
      const shape = { ...GRIDHOUSE, hiddenSize };
      const chosen = checkedRuns(offsets(64, 128), key, shape);
      const perStep = shape.obsDim * hiddenSize + hiddenSize * hiddenSize + shape.actionDim * hiddenSize;
      expect(chosen.length).toBeGreaterThanOrEqual(1);
      if (chosen.length > 1) expect(chosen.length * 128 * perStep).toBeLessThanOrEqual(CHECK_BUDGET);
      // The next run of the sample would have gone over.
      if (chosen.length < CHECKED_RUNS) expect((chosen.length + 1) * 128 * perStep).toBeGreaterThan(CHECK_BUDGET);
    }
    expect(checkedRuns(offsets(64, 128), key, { ...GRIDHOUSE, hiddenSize: 512 }).length).toBe(1);
    expect(checkedRuns(offsets(64, 128), key, { ...GRIDHOUSE, hiddenSize: 128 }).length).toBe(CHECKED_RUNS);
  });
});
