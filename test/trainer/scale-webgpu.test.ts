/**
 * The largest batch the settings allow, 64 × 64 = 4,096 runs per iteration, trains on webgpu (Dawn in
 * Node), rolled out on the GPU, kept as fast as it can be with a tiny horizon and width: every run is
 * played and the update is finite, in the first iteration and in a steady one after it (on what the
 * first made). The page at 4,096 runs (test/e2e/thousands.test.ts) checks only what the page shows.
 */
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { MAX_RUNS_PER_ITERATION } from '../../src/setting-limits.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { rolloutPath } from '../../src/trainer/collector-choice.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

beforeAll(async () => {
  await useWebGpuBackend();
});

/** The first iteration makes the buffers and Adam's state; the second runs on them. */
const ITERATIONS = 2;

describe('4,096 runs per iteration on webgpu', () => {
  // SwiftShader runs the kernels on the CPU: 4,096 runs take minutes there (a bound, not a speed check).
  it('trains two iterations of 64 × 64 runs, the second on what the first made, and leaves no tensor behind', { timeout: 600_000 }, async () => {
    const config: TrainConfig = {
      ...DEFAULT_CONFIG,
      method: 'beacon',
      env: 'gridhouse',
      horizon: 'tiny',
      tasksPerIteration: 64,
      groupSize: 64,
      hiddenSize: 8,
      epochs: 1,
      minibatches: 1,
      sftEpisodes: 0,
      iters: ITERATIONS,
      backend: 'webgpu',
    };
    expect(config.tasksPerIteration * config.groupSize).toBe(MAX_RUNS_PER_ITERATION);
    const tensorsBefore = tf.memory().numTensors;
    const engine = createAdvantageEngine('webgpu', 'beacon', readShaderSources);
    const run = new TrainingRun(config, engine);
    try {
      expect(rolloutPath(run.trainer.env, run.trainer.policy, engine)).toEqual({ path: 'gpu', reason: 'webgpu' });
      run.trainer.batchViewWanted = () => true; // lastBatch read with each iteration
      await run.run((record) => {
        expect(Number.isFinite(record.policyLoss) && Number.isFinite(record.gradNorm)).toBe(true);
        expect(record.envSteps).toBeGreaterThanOrEqual(MAX_RUNS_PER_ITERATION); // every run takes a step at least
        // The view is the rollout's checked sample of the batch (src/trainer/sample-view.ts), which holds every run.
        const view = run.trainer.lastBatch!;
        expect(view.sample?.numRuns).toBe(MAX_RUNS_PER_ITERATION);
        expect(view.rollout.success.length).toBe(view.sample!.runs.length);
      });
    } finally {
      run.dispose();
    }
    expect(run.iteration).toBe(ITERATIONS);
    expect(tf.memory().numTensors).toBe(tensorsBefore);
  });
});
