/**
 * The shop trains on webgpu through the GPU rollout (shaders/shop-step.wgsl, Dawn in Node): the trainer
 * takes the GPU path, every run's reward is successReward × its graded outcome (WebShop's reward, docs/
 * maths.md §10) as read back from the kernel's records, success is exactly an outcome of 1, and the
 * tensor count stays flat across iterations. Kept small (tiny tasks, 4 × 4 runs, width 16).
 */
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { rolloutPath } from '../../src/trainer/collector-choice.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

beforeAll(async () => {
  await useWebGpuBackend();
});

describe('the shop on webgpu', () => {
  it('BEACON rolls out on the GPU with graded rewards and leaves no tensor behind', { timeout: 300_000 }, async () => {
    const config: TrainConfig = {
      ...DEFAULT_CONFIG,
      method: 'beacon',
      env: 'shop',
      horizon: 'tiny',
      tasksPerIteration: 4,
      groupSize: 4,
      hiddenSize: 16,
      epochs: 1,
      minibatches: 1,
      sftEpisodes: 0,
      iters: 3,
      backend: 'webgpu',
    };
    const run = new TrainingRun(config, createAdvantageEngine('webgpu', 'beacon', readShaderSources));
    const tensors: number[] = [];
    let graded = 0;
    try {
      expect(rolloutPath(run.trainer.env, run.trainer.policy, createAdvantageEngine('webgpu', 'beacon', readShaderSources)).path).toBe('gpu');
      run.trainer.batchViewWanted = () => true; // lastBatch read with each iteration
      await run.run((record) => {
        expect(Number.isFinite(record.policyLoss)).toBe(true);
        // The view is the rollout's checked sample of the batch's 16 runs (src/trainer/sample-view.ts).
        const { rollout, batch, sample } = run.trainer.lastBatch!;
        expect(sample?.numRuns).toBe(16);
        const outcome = rollout.outcome;
        if (!outcome) expect.fail('the GPU rollout of the shop carries no graded outcome');
        expect(outcome).toHaveLength(sample!.runs.length);
        for (let b = 0; b < outcome.length; b++) {
          expect(outcome[b]).toBeGreaterThanOrEqual(0);
          expect(outcome[b]).toBeLessThanOrEqual(1);
          expect(rollout.success[b], `run ${b}: success iff outcome 1`).toBe(outcome[b] === 1 ? 1 : 0);
          expect(batch.rewards[b], `run ${b}: reward`).toBe(outcome[b] * config.successReward);
          if (outcome[b] > 0 && outcome[b] < 1) graded++;
        }
        tensors.push(tf.memory().numTensors);
      });
    } finally {
      run.dispose();
    }
    expect(run.iteration).toBe(3);
    expect(graded, 'purchases graded below 1').toBeGreaterThan(0);
    expect(tensors[2]).toBe(tensors[1]);
  });
});
