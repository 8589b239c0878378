/**
 * The training driver (src/trainer/run.ts) on the cpu backend: the budget, the three ways to take
 * records, stop / pause / resume between iterations, a diverged run halted with its weights intact,
 * the state between iterations, and disposal (checkpoints: checkpoint.test.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { cpuAdvantageEngine, type AdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { TrainingRun } from '../../src/trainer/run.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny = (over: Partial<TrainConfig> = {}): TrainConfig => ({
  ...DEFAULT_CONFIG,
  horizon: 'tiny',
  tasksPerIteration: 2,
  groupSize: 2,
  hiddenSize: 8,
  iters: 3,
  backend: 'cpu',
  ...over,
});

/** The CPU reference, except that iteration `at` (1-based) gets a NaN advantage. */
function poisonedEngine(at: number): AdvantageEngine {
  let calls = 0;
  return {
    name: 'cpu',
    async compute(batch, settings) {
      const out = await cpuAdvantageEngine.compute(batch, settings);
      if (++calls !== at) return out;
      const a = Float32Array.from(out.result.advantages);
      a[0] = Number.NaN;
      out.tensor.dispose();
      return { tensor: tf.tensor1d(a), result: out.result };
    },
    dispose() {},
  };
}

describe('TrainingRun', () => {
  it('runs to the budget, through a callback and as an async iterator, with the same records', async () => {
    const a = new TrainingRun(tiny(), cpuAdvantageEngine);
    const viaCallback: number[] = [];
    expect(await a.run((r) => void viaCallback.push(r.success))).toEqual({ status: 'completed', iterations: 3 });
    expect(a.finished).toBe(true);
    expect(await a.step()).toBeNull(); // nothing past the budget
    a.dispose();

    const b = new TrainingRun(tiny(), cpuAdvantageEngine);
    const viaIterator: number[] = [];
    for await (const r of b.records()) viaIterator.push(r.success);
    expect(viaIterator).toEqual(viaCallback);
    b.dispose();
  });

  it('stops after the iteration in progress, and continues when run again', async () => {
    const run = new TrainingRun(tiny({ iters: 5 }), cpuAdvantageEngine);
    const seen: number[] = [];
    const result = await run.run((r) => {
      seen.push(r.iteration);
      if (r.iteration === 2) run.stop();
    });
    expect(result).toEqual({ status: 'stopped', iterations: 2 });
    expect(await run.run((r) => void seen.push(r.iteration))).toEqual({ status: 'completed', iterations: 5 });
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    run.dispose();
  });

  it('holds between iterations while paused', async () => {
    const run = new TrainingRun(tiny({ iters: 4 }), cpuAdvantageEngine);
    const seen: number[] = [];
    const done = run.run((r) => {
      seen.push(r.iteration);
      if (r.iteration === 1) run.pause();
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([1]);
    expect(run.iteration).toBe(1);
    run.resume();
    expect(await done).toEqual({ status: 'completed', iterations: 4 });
    run.dispose();
  });

  it('moves the budget with a live iters change', async () => {
    const run = new TrainingRun(tiny({ iters: 2 }), cpuAdvantageEngine);
    await run.run();
    run.updateSettings({ iters: 3 });
    expect(run.finished).toBe(false);
    expect((await run.step())?.iteration).toBe(3);
    run.dispose();
  });

  it('halts a diverged run with the weights of its last good update and says why', async () => {
    const run = new TrainingRun(tiny({ iters: 5 }), poisonedEngine(2));
    expect((await run.step())?.iteration).toBe(1);
    const before = await run.trainer.policy.weights();
    const result = await run.run();
    expect(result.status).toBe('diverged');
    expect(result.iterations).toBe(1);
    expect(result.message).toMatch(/^training stopped at iteration 2: non-finite loss .*weights restored/);
    expect(run.halted).toBe(result.message);
    expect(await run.trainer.policy.weights()).toEqual(before);
    expect(await run.step()).toBeNull();
    run.dispose();
  });

  it('frees every tensor on dispose, once', async () => {
    const trainOnce = async () => {
      const run = new TrainingRun(tiny(), cpuAdvantageEngine);
      await run.run();
      run.dispose();
      run.dispose();
    };
    await trainOnce(); // tfjs keeps a few constants of its own after first use
    const start = tf.memory().numTensors;
    await trainOnce();
    expect(tf.memory().numTensors).toBe(start);
  });

  it('takes a state only between iterations: a state asked for mid-step waits for the step', async () => {
    const run = new TrainingRun(tiny({ iters: 2 }), cpuAdvantageEngine);
    const stepping = run.step();
    const state = await run.state();
    expect(state.iteration).toBe(1);
    expect(state.records.map((r) => r.iteration)).toEqual([(await stepping)!.iteration]);
    run.dispose();
  });
});
