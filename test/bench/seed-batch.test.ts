/**
 * The benches' `--seeds K`: an iteration of K seeds counts all their env steps and times, and the 1
 * against K comparison trains both through SeedRuns, an iteration of each in turn.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { beforeAll, describe, expect, it } from 'vitest';
import { combinedRecord, compareSeedThroughput, createSeedRuns, formatSeedThroughput, stepAllSeeds } from '../../bench/seed-batch.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { cpuAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { sampleRecord } from '../page/sample-record.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SMALL: TrainConfig = {
  ...DEFAULT_CONFIG,
  method: 'grpo',
  env: 'gridhouse',
  horizon: 'tiny',
  tasksPerIteration: 2,
  groupSize: 2,
  hiddenSize: 8,
  sftEpisodes: 0,
  backend: 'cpu',
  iters: 3,
};

describe('bench seeds', () => {
  it('an iteration of several seeds sums their env steps and phase times', () => {
    const a = sampleRecord({ iteration: 4, envSteps: 10, ms: { rollout: 1, advantage: 2, update: 3 } });
    const b = sampleRecord({ iteration: 4, envSteps: 30, ms: { rollout: 4, advantage: 5, update: 6, critic: 7 } });
    expect(combinedRecord([a, b])).toMatchObject({ iteration: 4, envSteps: 40, ms: { rollout: 5, advantage: 7, update: 9, critic: 7 } });
  });

  it('steps every seed once per iteration, in seed order', async () => {
    const runs = await createSeedRuns({ ...SMALL, seed: 6 }, 3, () => cpuAdvantageEngine);
    try {
      const records = await stepAllSeeds(runs, 'test');
      expect(records.map((r) => r.iteration)).toEqual([1, 1, 1]);
      expect(runs.seeds).toEqual([6, 7, 8]);
    } finally {
      runs.dispose();
    }
  }, 60_000);

  it('times 1 and K seeds side by side, leaving out the warm-up', async () => {
    const t = await compareSeedThroughput(SMALL, 2, () => cpuAdvantageEngine, 1);
    expect(t.seeds).toEqual([1, 2]);
    expect(t.trainingStepsPerSecond.map((s) => s.n)).toEqual([2, 2]);
    expect(t.iterationMs.every((ms) => ms > 0)).toBe(true);
    expect(formatSeedThroughput('grpo', t)).toMatch(
      /^ {2}grpo: 1 seed \d+ ms\/iteration, .*; 2 seeds \d+ ms\/iteration, .*; 2 seeds cost \d+\.\d\d× one seed's iteration \(medians\)$/,
    );
  }, 60_000);
});
