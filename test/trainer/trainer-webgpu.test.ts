/**
 * The trainer on the webgpu backend (Dawn in Node): every method's advantages come from the engine
 * `createAdvantageEngine` picks (the WGSL kernels where the method has them), feed the loss as a GPU
 * tensor, and equal the method's CPU reference on the same batch.
 */
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { advantageSettings, DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { METHOD_NAMES, methodSpec } from '../../src/methods/registry.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import type { AdvantageBatch } from '../../src/advantages/types.ts';
import type { Rollout } from '../../src/trainer/rollout.ts';
import { Trainer } from '../../src/trainer/trainer.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

beforeAll(async () => {
  await useWebGpuBackend();
});

/** The trainer's latest batch whole, its steps laid out (a test's look inside: the views hold its checked sample). */
async function wholeBatch(trainer: Trainer): Promise<AdvantageBatch> {
  const kept = (trainer as unknown as { latest: { view: { rollout: Rollout; batch: AdvantageBatch } } }).latest.view;
  await kept.rollout.completeReplay?.();
  return kept.batch;
}

describe('trainer on webgpu', () => {
  it.each(METHOD_NAMES)(
    '%s: advantages equal to the CPU reference, without leaking tensors',
    async (method) => {
      const config: TrainConfig = {
        ...DEFAULT_CONFIG,
        method,
        env: 'gridhouse',
        horizon: 'short',
        tasksPerIteration: 2,
        groupSize: 3,
        hiddenSize: 8,
        epochs: 1,
        minibatches: 1,
        sftEpisodes: 0,
      };
      const engine = createAdvantageEngine('webgpu', method, readShaderSources);
      expect(engine.name).toBe(methodSpec(method).gpu ? 'webgpu-kernels' : 'cpu');
      const trainer = new Trainer(config, engine);
      try {
        let tensorsAfterFirst = -1;
        for (let i = 1; i <= 3; i++) {
          const record = await trainer.step();
          expect(Number.isFinite(record.policyLoss)).toBe(true);
          if (i === 1) tensorsAfterFirst = tf.memory().numTensors;
          const { batch, result, sample } = (await trainer.batchView())!;
          // A view of the rollout's checked sample (src/trainer/sample-view.ts): the reference takes the whole
          // batch, laid out on demand, and the view's advantages are its sampled runs' steps.
          const whole = sample ? await wholeBatch(trainer) : batch;
          const reference = methodSpec(method).estimate(whole, advantageSettings(config));
          const steps = sample
            ? sample.runs.flatMap((b) => Array.from(reference.advantages.subarray(whole.runOffsets[b], whole.runOffsets[b + 1])))
            : reference.advantages;
          expect(result.advantages.length).toBe(steps.length);
          steps.forEach((a, t) => expect(Math.abs(result.advantages[t] - a)).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(a))));
        }
        expect(tf.memory().numTensors).toBe(tensorsAfterFirst);
      } finally {
        trainer.dispose();
      }
      // Three iterations on SwiftShader take up to a minute on 2 cores (PPO's critic passes most); a
      // test still running past its limit would go on allocating under the next test's pool check.
    },
    180_000,
  );

  it('an update that does not gather π_old on the GPU (the tfjs ops here) reads every log-probability first', async () => {
    const config: TrainConfig = {
      ...DEFAULT_CONFIG,
      env: 'gridhouse',
      horizon: 'tiny',
      tasksPerIteration: 4,
      groupSize: 4,
      hiddenSize: 8,
      epochs: 1,
      minibatches: 1,
      sftEpisodes: 0,
    };
    const trainer = new Trainer(config, createAdvantageEngine('webgpu', 'beacon', readShaderSources));
    // As for a batch over the fused kernels' limits: the tfjs-ops update reads the host's arrays.
    const internals = trainer as unknown as { fusedPpo: { dispose(): void } | null };
    const fused = internals.fusedPpo;
    internals.fusedPpo = null;
    try {
      // The GPU rollout brought back 8 of 16 runs' log-probabilities; NaN in the others would make the loss NaN.
      const record = await trainer.step();
      expect(Number.isFinite(record.policyLoss)).toBe(true);
      const { rollout } = (await trainer.batchView())!;
      expect(rollout.gpuRecords, 'the GPU rollout ran').toBeDefined();
      expect(rollout.logProbs.every((x) => Number.isFinite(x))).toBe(true);
    } finally {
      trainer.dispose();
      fused?.dispose();
    }
  }, 120_000);

  it("keeps tfjs's GPU buffer pool flat across iterations of different batch sizes (the driver trims it)", async () => {
    const config: TrainConfig = {
      ...DEFAULT_CONFIG,
      method: 'beacon',
      env: 'gridhouse',
      horizon: 'tiny',
      tasksPerIteration: 2,
      groupSize: 2,
      hiddenSize: 8,
      epochs: 1,
      minibatches: 1,
      sftEpisodes: 0,
      iters: 6,
    };
    const run = new TrainingRun(config, createAdvantageEngine('webgpu', 'beacon', readShaderSources));
    const allocated: number[] = [];
    const steps: number[] = [];
    try {
      await run.run((r) => {
        steps.push(r.envSteps);
        allocated.push((tf.memory() as tf.MemoryInfo & { numBytesAllocatedInGPU: number }).numBytesAllocatedInGPU);
      });
    } finally {
      run.dispose();
    }
    expect(new Set(steps).size, 'the batches should differ in size for this test to mean something').toBeGreaterThan(1);
    expect(allocated.slice(1)).toEqual(allocated.slice(1).map(() => allocated[1]));
  });
});
