/**
 * The whole webgpu iteration (GPU rollout, advantage kernels, fused update, the one read-back at the
 * end) over 20 iterations: tfjs's tensors, tfjs's GPU bytes and every GPU buffer alive (created −
 * destroyed, counted through the WebGPU API) stay flat once the first iterations have made what the
 * run keeps; and each steady iteration stays within the GPU-native iteration's call targets. Twenty are
 * enough: 16 settled iterations to hold flat, and a leak of one buffer per iteration would add 10 over
 * the second half, far past the wobble of two allowed.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { callsBetween, installWebGpuCallCounter, type WebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
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

const ITERATIONS = 20;
/** Iterations before the count must hold: the first compiles and makes Adam's moments; pools fill over the next few. */
const SETTLED = 5;

describe('a webgpu run over 20 iterations', () => {
  it('keeps tensors, GPU bytes and live GPU buffers flat, within 40 dispatches, 10 submits and 2 read-backs per iteration', { timeout: 600_000 }, async () => {
    const config: TrainConfig = {
      ...DEFAULT_CONFIG,
      method: 'beacon',
      backend: 'webgpu',
      env: 'gridhouse',
      horizon: 'tiny',
      tasksPerIteration: 2,
      groupSize: 2,
      hiddenSize: 8,
      sftEpisodes: 0,
      iters: ITERATIONS,
    };
    const run = new TrainingRun(config, createAdvantageEngine('webgpu', 'beacon', readShaderSources));
    const live: number[] = [];
    const tensors: number[] = [];
    const bytes: number[] = [];
    const sizes = new Set<number>();
    try {
      await run.trainer.ready();
      for (let i = 1; i <= ITERATIONS; i++) {
        const before = counter.read();
        const record = await run.step();
        expect(record, run.halted ?? 'no record').not.toBeNull();
        const after = counter.read();
        const calls = callsBetween(before, after);
        sizes.add(record!.envSteps);
        live.push(after.buffersCreated - after.buffersDestroyed);
        tensors.push(tf.memory().numTensors);
        bytes.push((tf.memory() as tf.MemoryInfo & { numBytesAllocatedInGPU: number }).numBytesAllocatedInGPU);
        if (i > 1) {
          expect(calls.dispatches, `iteration ${i}`).toBeLessThanOrEqual(40);
          expect(calls.submits, `iteration ${i}`).toBeLessThanOrEqual(10);
          expect(calls.readBacks, `iteration ${i}`).toBeLessThanOrEqual(2);
          expect(calls.pipelines, `iteration ${i}`).toBe(0);
        }
      }
    } finally {
      run.dispose();
    }
    expect(sizes.size, 'the batches should differ in size for this test to mean something').toBeGreaterThan(1);
    const settled = (xs: number[]) => xs.slice(SETTLED - 1);
    expect(settled(tensors)).toEqual(settled(tensors).map(() => tensors[SETTLED - 1]));
    expect(settled(bytes)).toEqual(settled(bytes).map(() => bytes[SETTLED - 1]));
    // Buffers freed after their work completes (a staging buffer, a kept read) may still be alive when
    // an iteration ends, so the count wobbles by one or two; a leak of one per iteration would add 10
    // over the second half. The second half's highest count is no higher than the first's.
    const half = Math.floor(ITERATIONS / 2);
    const message = `live GPU buffers per iteration: ${live.join(', ')}`;
    expect(Math.max(...live.slice(half)), message).toBeLessThanOrEqual(Math.max(...live.slice(SETTLED - 1, half)));
    expect(Math.max(...settled(live)) - Math.min(...settled(live)), message).toBeLessThanOrEqual(2);
  });
});
