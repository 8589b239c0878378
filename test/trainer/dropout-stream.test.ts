/**
 * Milestone dropout draws from a stream of its own (docs/maths.md §6): a run with dropout plays the same
 * tasks and samples the same actions as the same seed without dropout, so before the first update the two
 * rollouts are the same episodes; only the milestones the advantages see differ.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { Trainer } from '../../src/trainer/trainer.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const base: TrainConfig = {
  ...DEFAULT_CONFIG,
  env: 'gridhouse',
  horizon: 'long',
  method: 'beacon',
  tasksPerIteration: 4,
  groupSize: 4,
  hiddenSize: 16,
  sftEpisodes: 0,
  seed: 7,
  backend: 'cpu',
};

async function firstIteration(milestoneDropout: number) {
  const trainer = new Trainer({ ...base, milestoneDropout });
  try {
    return await trainer.step();
  } finally {
    trainer.dispose();
  }
}

describe('milestone dropout stream', () => {
  it('leaves the episodes of the first rollout as they are without dropout', async () => {
    const plain = await firstIteration(0);
    const dropped = await firstIteration(0.5);
    // Same tasks, same actions: the same outcomes and the same number of env steps.
    expect(dropped.success).toBe(plain.success);
    expect(dropped.envSteps).toBe(plain.envSteps);
    expect(dropped.meanEpisodeLength).toBe(plain.meanEpisodeLength);
    // Dropout hides milestones from the advantages, so the outcome mix the advantages see differs.
    expect(dropped.partial).toBeLessThan(plain.partial);
  });
});
