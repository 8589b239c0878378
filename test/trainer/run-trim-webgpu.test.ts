/**
 * `TrainingRun.trim` on webgpu (Dawn, SwiftShader): a run that lets go of its GPU buffers between
 * iterations (a race that ended, settings that resize the update) gives the records it would have
 * given without, once its budget is raised: the buffers its next iteration makes again hold nothing
 * it needs. The live bytes are those of GPU buffers (created − destroyed, counted through the WebGPU
 * API: src/backend/webgpu-call-counter.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { installWebGpuCallCounter, type WebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { type IterationRecord, TIMING_KEYS } from '../../src/trainer/iteration-record.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

let counter: WebGpuCallCounter;
beforeAll(async () => {
  await useWebGpuBackend();
  counter = installWebGpuCallCounter();
});
afterAll(() => counter.uninstall());

const liveBytes = () => {
  const c = counter.read();
  return c.bytesCreated - c.bytesDestroyed;
};

/** A record without its wall-clock timings (which differ between identical runs). */
const untimed = (r: IterationRecord | null) => r && Object.fromEntries(Object.entries(r).filter(([k]) => !(TIMING_KEYS as readonly string[]).includes(k)));

const config = (iters: number): TrainConfig => ({
  ...DEFAULT_CONFIG,
  method: 'beacon',
  backend: 'webgpu',
  env: 'gridhouse',
  horizon: 'tiny',
  tasksPerIteration: 4,
  groupSize: 8,
  hiddenSize: 8,
  epochs: 1,
  minibatches: 2,
  sftEpisodes: 0,
  iters,
});

const newRun = (iters: number) => new TrainingRun(config(iters), createAdvantageEngine('webgpu', 'beacon', readShaderSources));

describe('a trimmed webgpu run', () => {
  it('lets its buffers go and, its budget raised, gives the records of a run never trimmed', { timeout: 300_000 }, async () => {
    const plain = newRun(3);
    const trimmed = newRun(2);
    try {
      const expected: (IterationRecord | null)[] = [];
      expected.push(await plain.step(), await plain.step());
      // New epochs straight on the trainer: no trim on this run's way.
      plain.trainer.updateSettings({ epochs: 2 });
      expected.push(await plain.step());

      const got: (IterationRecord | null)[] = [await trimmed.step(), await trimmed.step()];
      expect(trimmed.finished).toBe(true);
      const held = liveBytes();
      await trimmed.trim();
      const freed = held - liveBytes();
      // The race goes on: a raised budget, and new epochs, which trim again before the next step.
      trimmed.updateSettings({ iters: 3, epochs: 2 });
      got.push(await trimmed.step());

      for (const r of [...expected, ...got]) expect(r?.path).toEqual({ rollout: 'gpu', update: 'fused', metrics: 'gpu' });
      expect(freed, 'the trim gave back the rollout records and the update and advantage buffers (MiBs at this shape)').toBeGreaterThan(2 ** 20);
      expect(got.map(untimed)).toEqual(expected.map(untimed));
    } finally {
      plain.dispose();
      trimmed.dispose();
    }
  });
});
