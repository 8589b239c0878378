/**
 * GPU memory of a 4,096-run webgpu trainer (GridHouse, 64 × 64 runs, tiny horizon, width 8): the bytes
 * in live GPU buffers (created − destroyed, counted through the WebGPU API:
 * src/backend/webgpu-call-counter.ts) and the tfjs tensors stay flat across steady iterations; when the
 * race ends (`TrainingRun.trim`, what the page's worker calls then) the bytes go back near the start,
 * the policy's weights and Adam's moments being what the run keeps; disposed, exactly to the start.
 *
 * Three iterations: the first makes what the run keeps, the other two are the steady ones. On
 * SwiftShader one iteration of this shape took 46–56 s here at best (2026-12-07, a 2-core machine
 * shared with other jobs), and the file 154–281 s in four runs.
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

const ITERATIONS = 3;
const MiB = 2 ** 20;
/**
 * What a trimmed run may hold besides its tfjs variables: the uniform buffers of the runners that stay
 * (the advantage kernels' and the credit metrics', a few hundred bytes each) and tfjs's scalars.
 */
const KEPT_SMALL_BYTES = 64 * 1024;
const liveBytes = () => {
  const c = counter.read();
  return c.bytesCreated - c.bytesDestroyed;
};

describe('GPU memory of a 4,096-run webgpu trainer', () => {
  it('stays flat across steady iterations, goes back near the start when the race ends, and to the start when disposed', { timeout: 900_000 }, async () => {
    const config: TrainConfig = {
      ...DEFAULT_CONFIG,
      method: 'beacon',
      backend: 'webgpu',
      env: 'gridhouse',
      horizon: 'tiny',
      tasksPerIteration: 64,
      groupSize: 64,
      hiddenSize: 8,
      epochs: 1,
      minibatches: 1,
      sftEpisodes: 0,
      iters: ITERATIONS,
    };
    const start = liveBytes();
    const startTensors = tf.memory().numTensors;
    const run = new TrainingRun(config, createAdvantageEngine('webgpu', 'beacon', readShaderSources));
    const perIteration: number[] = [];
    const tensors: number[] = [];
    const steps: number[] = [];
    let trimmed = 0;
    let trimmedTensors = 0;
    // Weights and Adam's two moments, float32: what a trimmed run keeps of its own.
    const variableBytes = 3 * 4 * run.trainer.policy.variables.reduce((n, v) => n + v.size, 0);
    try {
      await run.trainer.ready();
      for (let i = 1; i <= ITERATIONS; i++) {
        const record = await run.step();
        expect(record, run.halted ?? 'no record').not.toBeNull();
        expect(record!.path).toEqual({ rollout: 'gpu', update: 'fused', metrics: 'gpu' });
        expect(record!.fallback).toBeUndefined();
        steps.push(record!.envSteps);
        perIteration.push(liveBytes());
        tensors.push(tf.memory().numTensors);
      }
      expect(run.finished).toBe(true);
      await run.trim();
      trimmed = liveBytes();
      trimmedTensors = tf.memory().numTensors;
    } finally {
      run.dispose();
    }
    await tf.nextFrame();
    const end = liveBytes();
    const mib = (b: number) => ((b - start) / MiB).toFixed(3);
    const message =
      `live GPU MiB above the start: per iteration ${perIteration.map(mib).join(', ')} (env steps ${steps.join(', ')}, tensors ${tensors.join(', ')}); ` +
      `race ended ${mib(trimmed)} (${trimmedTensors} tensors, variables ${(variableBytes / MiB).toFixed(3)} MiB); disposed ${mib(end)}`;
    console.log(message);
    expect(perIteration[0] - start, message).toBeGreaterThan(16 * MiB); // the race did hold memory
    // Iteration 1 makes what the run keeps (scratch buffers rounded to powers of two). After it, what
    // moves is the exact-size outputs (a float32 per step; a pool keeps none of a size no batch asks
    // for any more), as the batch's steps vary: a few of them, 4 bytes per step of the variation. A
    // leak of one output per iteration would add 4 bytes per step of the batch (about 0.23 MiB).
    const variation = Math.max(...steps) - Math.min(...steps);
    for (const bytes of perIteration.slice(1)) expect(Math.abs(bytes - perIteration[0]), message).toBeLessThanOrEqual(4 * 4 * variation + 4096);
    expect(new Set(tensors).size, message).toBe(1);
    // Ended: what the next iteration would make again is gone; the weights and moments stay.
    expect(trimmed - start, message).toBeLessThanOrEqual(variableBytes + KEPT_SMALL_BYTES);
    expect(trimmedTensors, message).toBeLessThanOrEqual(tensors[0]);
    // Disposed, the trainer's pools and kernels are destroyed: nothing it made is left.
    expect(end - start, message).toBe(0);
    expect(tf.memory().numTensors, message).toBe(startTensors);
  });
});
