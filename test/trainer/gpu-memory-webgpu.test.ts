/**
 * GPU memory of a many-run webgpu trainer: the bytes in live GPU buffers (created − destroyed, counted
 * through the WebGPU API: src/backend/webgpu-call-counter.ts) stay flat across steady iterations, and
 * once the trainer is disposed they are back where they started.
 *
 * At 512 runs (16 × 32), not 4,096: on SwiftShader one 4,096-run iteration (tiny horizon, width 8)
 * took 113–132 s here (2026-12-07, a 2-core machine under a load of about 30), so a few of them would
 * take over 6 minutes; this shape keeps the test to a few minutes under that load. It still holds
 * hundreds of runs' records and a fused update over thousands of steps, with batches of varying size.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { installWebGpuCallCounter, type WebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

let counter: WebGpuCallCounter;
beforeAll(async () => {
  await useWebGpuBackend();
  counter = installWebGpuCallCounter();
});
afterAll(() => counter.uninstall());

const ITERATIONS = 4;
/** Output buffers a pool keeps free for reuse, at their exact sizes (src/gpu/buffer-pool.ts MAX_FREE_OUTPUTS). */
const FREE_OUTPUTS = 4;
const MiB = 2 ** 20;
const liveBytes = () => {
  const c = counter.read();
  return c.bytesCreated - c.bytesDestroyed;
};

describe('GPU memory of a 512-run webgpu trainer', () => {
  it('stays flat across steady iterations and goes back to the start when the trainer is disposed', { timeout: 900_000 }, async () => {
    const config: TrainConfig = {
      ...DEFAULT_CONFIG,
      method: 'beacon',
      backend: 'webgpu',
      env: 'gridhouse',
      horizon: 'tiny',
      tasksPerIteration: 16,
      groupSize: 32,
      hiddenSize: 8,
      epochs: 1,
      minibatches: 1,
      sftEpisodes: 0,
      iters: ITERATIONS,
    };
    const start = liveBytes();
    const run = new TrainingRun(config, createAdvantageEngine('webgpu', 'beacon', readShaderSources));
    const perIteration: number[] = [];
    const steps: number[] = [];
    try {
      await run.trainer.ready();
      for (let i = 1; i <= ITERATIONS; i++) {
        const record = await run.step();
        expect(record, run.halted ?? 'no record').not.toBeNull();
        expect(record!.path).toEqual({ rollout: 'gpu', update: 'fused', metrics: 'gpu' });
        expect(record!.fallback).toBeUndefined();
        steps.push(record!.envSteps);
        perIteration.push(liveBytes());
      }
    } finally {
      run.dispose();
    }
    await tf.nextFrame();
    const end = liveBytes();
    const message = `live GPU MiB from ${(start / MiB).toFixed(2)}: per iteration ${perIteration.map((b) => (b / MiB).toFixed(3)).join(', ')} (env steps ${steps.join(', ')}); after dispose ${(end / MiB).toFixed(3)}`;
    console.log(message);
    // Iteration 1 makes what the run keeps (scratch buffers rounded to powers of two). After it, what
    // may still grow is a pool's free list of exact-size outputs (at most FREE_OUTPUTS kept, filling
    // as batch sizes vary), bounded here by FREE_OUTPUTS buffers of 4 float32 a step: a leak of a
    // batch's buffers per iteration would add MiBs.
    const steady = perIteration.slice(1);
    const freeListBound = FREE_OUTPUTS * 4 * 4 * Math.max(...steps);
    expect(Math.max(...steady) - perIteration[0], message).toBeLessThanOrEqual(freeListBound);
    expect(perIteration[0] - start, message).toBeGreaterThan(1 * MiB); // the run did hold memory
    // Disposed, the trainer's pools and kernels are destroyed: nothing it made is left.
    expect(end - start, message).toBeLessThanOrEqual(0.01 * (Math.max(...perIteration) - start));
  });
});
