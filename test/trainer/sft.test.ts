/**
 * The SFT prior and the SFT baseline (docs/maths.md §9) on the cpu backend: oracle demonstrations from
 * the demonstration half of the seed space, one deterministic prior shared by every method of a seed,
 * the iteration-0 evaluation, and behaviour cloning that learns.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEnv } from '../../envs/index.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { Rng } from '../../src/prng.ts';
import { cpuAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { collectDemonstrations, DEMONSTRATION_SEED_BIT, demonstrationTaskSeed, trainingTaskSeed } from '../../src/trainer/demonstrations.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { initialPolicy, sftPrior, trainSftPrior } from '../../src/trainer/sft-prior.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const small = (over: Partial<TrainConfig> = {}): TrainConfig => ({
  ...DEFAULT_CONFIG,
  horizon: 'tiny',
  tasksPerIteration: 4,
  groupSize: 4,
  hiddenSize: 16,
  iters: 3,
  backend: 'cpu',
  sftEpisodes: 8,
  sftEpochs: 4,
  ...over,
});

describe('oracle demonstrations', () => {
  it('draw task seeds from the half of the seed space that training never uses', () => {
    const rng = new Rng(3);
    for (let i = 0; i < 1000; i++) {
      expect(demonstrationTaskSeed(rng) & DEMONSTRATION_SEED_BIT).not.toBe(0);
      expect(trainingTaskSeed(rng) & DEMONSTRATION_SEED_BIT).toBe(0);
    }
  });

  it.each(['gridhouse', 'texthouse'] as const)('record whole oracle episodes of admissible actions on %s', (name) => {
    const env = createEnv(name, { horizon: 'short', batchSize: 4 });
    const demos = collectDemonstrations(env, new Rng(1), { episodes: 6 });
    expect(demos.episodes).toBe(6);
    expect(demos.actions.length).toBe(demos.steps);
    const A = env.maxActions;
    for (let t = 0; t < demos.steps; t++) expect(demos.mask[t * A + demos.actions[t]]).toBe(1);
    const bySteps = collectDemonstrations(env, new Rng(1), { minSteps: 50 });
    expect(bySteps.steps).toBeGreaterThanOrEqual(50);
  });
});

describe('SFT prior', () => {
  it('is trained once per setting, moves the weights off random init, and is the start of every method', async () => {
    const config = small();
    const prior = await sftPrior(config)!;
    expect(sftPrior(config)).toBe(sftPrior(config)); // memoised: the same promise
    expect(sftPrior({ ...config, sftEpisodes: 0 })).toBeNull();
    const env = createEnv(config.env, { horizon: config.horizon, batchSize: 1 });
    const random = initialPolicy(config, env.obsDim, env.actionDim);
    const init = await random.weights();
    random.dispose();
    expect(prior.some((w, i) => w.some((x, j) => x !== init[i][j]))).toBe(true);
    for (const method of ['grpo', 'beacon', 'sft'] as const) {
      const run = new TrainingRun({ ...config, method }, cpuAdvantageEngine);
      await run.evaluateStart();
      expect(await run.trainer.policy.weights(), method).toEqual(prior);
      run.dispose();
    }
  });

  it('is deterministic: training it twice gives the same weights; another seed gives others', async () => {
    const a = await trainSftPrior(small({ seed: 11 }));
    expect(await trainSftPrior(small({ seed: 11 }))).toEqual(a);
    expect(await trainSftPrior(small({ seed: 12 }))).not.toEqual(a);
  });

  it('lifts iteration-0 success over random init, and iteration 0 leaves the training records unchanged', async () => {
    const config = small({ env: 'gridhouse', horizon: 'short', sftEpisodes: 32, sftEpochs: 8 });
    const prior = new TrainingRun(config, cpuAdvantageEngine);
    const none = new TrainingRun({ ...config, sftEpisodes: 0 }, cpuAdvantageEngine);
    const p0 = await prior.evaluateStart();
    const n0 = await none.evaluateStart();
    expect(p0.iteration).toBe(0);
    expect(p0.success).toBeGreaterThan(n0.success);
    const afterEval = await prior.step();
    prior.dispose();
    none.dispose();
    const fresh = new TrainingRun(config, cpuAdvantageEngine);
    const direct = await fresh.step();
    fresh.dispose();
    const strip = (r: typeof direct) => ({ ...r, ms: undefined, envStepsPerSecond: undefined });
    expect(strip(afterEval)).toEqual(strip(direct));
  });
});

describe('SFT baseline', () => {
  it('learns tiny tasks by behaviour cloning alone, with a flat tensor count', async () => {
    const run = new TrainingRun(small({ method: 'sft', env: 'gridhouse', sftEpisodes: 0, iters: 25 }), cpuAdvantageEngine);
    const success: number[] = [];
    const counts: number[] = [];
    await run.run((r) => {
      success.push(r.success);
      counts.push(tf.memory().numTensors);
      expect(r.sampleUtilization).toBe(0); // no advantage: nothing is credited
    });
    run.dispose();
    expect(Math.max(...success.slice(-5))).toBeGreaterThanOrEqual(0.9);
    expect(counts.at(-1)).toBe(counts[4]);
  });
});
