/**
 * One method's seeds trained side by side on webgpu (src/worker/seed-runs.ts with
 * src/trainer/gpu-rollout-batch.ts): their rollouts play in one whole-episode dispatch, one submit and
 * one read-back (the iteration's end likewise), their advantages, their credit metrics and their
 * updates each in one set of dispatches and one submit (src/trainer/seed-meeting.ts,
 * src/gpu/fused-ppo-seeds.ts), and each seed gives,
 * iteration by iteration, the records and the weights it gives trained alone on webgpu; its state restores exactly. The counts of a steady iteration, through the
 * WebGPU API, against the seeds one after the other.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { callsBetween, installWebGpuCallCounter, type WebGpuCallCounter, type WebGpuCallCounts } from '../../src/backend/webgpu-call-counter.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { armGpuFault } from '../../src/gpu/fault-injection.ts';
import { GpuKernelError } from '../../src/gpu/kernel.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { TIMING_KEYS, type IterationRecord } from '../../src/trainer/iteration-record.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { SeedRuns } from '../../src/worker/seed-runs.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

let counter: WebGpuCallCounter;
beforeAll(async () => {
  await useWebGpuBackend();
  counter = installWebGpuCallCounter();
});
afterAll(() => counter.uninstall());

const tiny = (env: string, method: string, seed: number): TrainConfig => ({
  ...DEFAULT_CONFIG,
  method: method as TrainConfig['method'],
  backend: 'webgpu',
  env: env as TrainConfig['env'],
  horizon: 'tiny',
  tasksPerIteration: 2,
  groupSize: 2,
  hiddenSize: 8,
  epochs: 1,
  minibatches: 1,
  sftEpisodes: 0,
  seed,
  iters: 10,
});

const engine = (config: TrainConfig) => createAdvantageEngine('webgpu', config.method, readShaderSources);

async function seedRuns(configs: TrainConfig[]): Promise<SeedRuns> {
  const runs = await SeedRuns.create(
    configs,
    [],
    (i) => Promise.resolve(engine(configs[i])),
    () => false,
  );
  if (!runs) throw new Error('SeedRuns.create was superseded');
  return runs;
}

const withoutTiming = (r: IterationRecord) => {
  const copy: Record<string, unknown> = { ...r };
  for (const k of TIMING_KEYS) delete copy[k];
  return copy;
};

/** Every record of `actual` equals `expected`'s, timings aside. */
function expectSameRecords(actual: readonly IterationRecord[], expected: readonly IterationRecord[], what: string) {
  expect(actual.length, what).toBe(expected.length);
  actual.forEach((r, i) => expect(withoutTiming(r), `${what}, iteration ${i + 1}`).toEqual(withoutTiming(expected[i])));
}

async function weightsOf(run: { trainer: { policy: { weights(): Promise<Float32Array[]> } } }): Promise<number[]> {
  return (await run.trainer.policy.weights()).flatMap((w) => Array.from(w));
}

describe('seeds side by side on webgpu', () => {
  it.each([
    ['gridhouse', 'beacon', [11, 12, 13], 3],
    ['texthouse', 'grpo', [5, 6], 2],
    ['shop', 'gigpo', [7, 8], 2],
    ['gridhouse', 'ppo', [9, 10], 2],
    ['gridhouse', 'sft', [3, 4], 2],
  ] as const)(
    '%s %s: each of seeds %j batched gives the records and weights it gives alone (%i iterations)',
    async (env, method, seeds, iterations) => {
      const configs = seeds.map((s) => tiny(env, method, s));
      const together = await seedRuns(configs);
      try {
        expect(together.batchRefusal).toBeNull();
        expect(together.rolloutBatch, 'the seeds must roll out as one batch').not.toBeNull();
        const records: IterationRecord[][] = seeds.map(() => []);
        for (let i = 0; i < iterations; i++) {
          const step = await together.step();
          expect(step.map((r) => r.seed)).toEqual([...seeds]);
          step.forEach((r, s) => records[s].push(r.record));
        }
        expect(together.rolloutBatch!.rounds).toBe(iterations);
        // The advantages meet too where they are computed on the kernels: not the critic's (on the CPU,
        // each seed's), nor SFT's (none). The credit metrics meet where the GPU computes them: not for
        // the critic's batches (their details go to the host), nor SFT's.
        const onKernels = method !== 'ppo' && method !== 'sft';
        expect(together.advantageBatch?.rounds ?? 0, 'advantage rounds').toBe(onKernels ? iterations : 0);
        expect(together.metricsBatch?.rounds ?? 0, 'metrics rounds').toBe(onKernels ? iterations : 0);
        // The fused policy updates meet in one submit: critic PPO's and SFT's behaviour cloning too.
        expect(together.updateBatch?.rounds ?? 0, 'update rounds').toBe(iterations);
        const batchedWeights = await Promise.all((together as unknown as { runs: TrainingRun[] }).runs.map(weightsOf));
        for (const [s, config] of configs.entries()) {
          const alone = new TrainingRun(config, engine(config));
          try {
            const aloneRecords: IterationRecord[] = [];
            for (let i = 0; i < iterations; i++) aloneRecords.push((await alone.step())!);
            expectSameRecords(records[s], aloneRecords, `seed ${config.seed}`);
            expect(batchedWeights[s], `seed ${config.seed}'s weights`).toEqual(await weightsOf(alone));
          } finally {
            alone.dispose();
          }
        }
      } finally {
        together.dispose();
      }
    },
    600_000,
  );

  it("every seed's state restores exactly; a GPU fault in the batch fails the step of every seed, and the seeds continue from their last completed iteration", async () => {
    const configs = [21, 22].map((s) => tiny('gridhouse', 'grpo', s));
    const first = await seedRuns(configs);
    const faulty = await seedRuns(configs);
    const resumed = await seedRuns(configs);
    try {
      await first.step();
      const state = await first.state();
      const next = await first.step();
      // A kernel error in the batched rollout (the test hook), as a dying device gives: the step fails, waiting on nobody.
      await faulty.step();
      armGpuFault('kernel');
      await expect(faulty.step()).rejects.toThrow(GpuKernelError);
      // The page's worker then rebuilds its seeds from their last states (src/worker/training-loop.ts).
      await resumed.restore(state);
      const again = await resumed.step();
      expect(resumed.rolloutBatch!.rounds).toBe(1);
      expect(again.map((r) => r.seed)).toEqual([21, 22]);
      again.forEach((r, s) => expect(withoutTiming(r.record), `seed ${r.seed}`).toEqual(withoutTiming(next[s].record)));
    } finally {
      first.dispose();
      faulty.dispose();
      resumed.dispose();
    }
  }, 600_000);

  it('seeds with fewer steps than minibatches, each its own count of minibatches (the slots a seed lacks are empty), give what they give alone', async () => {
    // 2 runs of at most 16 steps: fewer steps than 64 minibatches, so a seed has one minibatch a step.
    const configs = [16, 17].map((s) => ({ ...tiny('gridhouse', 'beacon', s), tasksPerIteration: 1, minibatches: 64, epochs: 2 }));
    const together = await seedRuns(configs);
    try {
      const records: IterationRecord[][] = configs.map(() => []);
      for (let i = 0; i < 2; i++) (await together.step()).forEach((r, s) => records[s].push(r.record));
      const slices = records.map((r) => r.map((x) => Math.min(64, x.envSteps)));
      expect(slices[0], 'the seeds must differ in minibatches for the test to mean anything').not.toEqual(slices[1]);
      expect(together.updateBatch!.rounds).toBe(2);
      for (const [s, config] of configs.entries()) {
        const alone = new TrainingRun(config, engine(config));
        try {
          const aloneRecords: IterationRecord[] = [];
          for (let i = 0; i < 2; i++) aloneRecords.push((await alone.step())!);
          expectSameRecords(records[s], aloneRecords, `seed ${config.seed}`);
        } finally {
          alone.dispose();
        }
      }
    } finally {
      together.dispose();
    }
  }, 600_000);

  it("a seed whose update takes the tfjs ops (its batch refused by the fused kernels) does not hold up the others' update", async () => {
    const configs = [41, 42, 43].map((s) => tiny('gridhouse', 'beacon', s));
    const together = await seedRuns(configs);
    const alone = new TrainingRun(configs[2], engine(configs[2]));
    try {
      // The first seed to check its batch is refused: it updates on the ops, the other two meet without it.
      armGpuFault('updateRefusal');
      const step = await together.step();
      expect(step.map((r) => r.seed)).toEqual([41, 42, 43]);
      expect(step.filter((r) => r.record.path?.update === 'ops').length, 'one seed took the ops').toBe(1);
      expect(together.updateBatch!.rounds).toBe(1);
      // A seed that met the others gives what it gives alone.
      expect(withoutTiming(step[2].record)).toEqual(withoutTiming((await alone.step())!));
    } finally {
      together.dispose();
      alone.dispose();
    }
  }, 600_000);

  it("a steady iteration of 4 seeds: one seed's dispatches, submits and read-backs (counts printed)", async () => {
    const counts = async (seeds: number, batched: boolean): Promise<WebGpuCallCounts> => {
      const runs = await seedRuns(Array.from({ length: seeds }, (_, i) => tiny('gridhouse', 'beacon', 31 + i)));
      try {
        if (!batched) (runs as unknown as { batch: unknown }).batch = null; // the seeds one after the other, as before
        await runs.step();
        await runs.step();
        const tensors = tf.memory().numTensors;
        const before = counter.read();
        await runs.step();
        const after = counter.read();
        expect(tf.memory().numTensors, 'tensors stay flat').toBe(tensors);
        return callsBetween(before, after);
      } finally {
        runs.dispose();
      }
    };
    const one = await counts(1, false);
    const inTurn = await counts(4, false);
    const together = await counts(4, true);
    const pick = (c: WebGpuCallCounts) => ({
      dispatches: c.dispatches,
      submits: c.submits,
      readBacks: c.readBacks,
      buffersCreated: c.buffersCreated - c.buffersDestroyed,
    });
    console.log(
      `steady iteration, gridhouse tiny, beacon: 1 seed ${JSON.stringify(pick(one))}; 4 seeds in turn ${JSON.stringify(pick(inTurn))}; 4 seeds batched ${JSON.stringify(pick(together))}`,
    );
    expect(inTurn.dispatches).toBe(4 * one.dispatches);
    // Every phase dispatches each of its kernels once for every seed (a seed axis): the rollout (3), the
    // advantages (3), the metrics (2) and the update (the gather, the candidate rows, the permutation
    // and 7 a minibatch); one submit each, and the iteration's two read-backs, as one seed's.
    expect(together.dispatches, 'as many dispatches as one seed').toBe(one.dispatches);
    expect(together.submits, 'as many submits as one seed').toBe(one.submits);
    expect(together.readBacks, 'as many read-backs as one seed').toBe(one.readBacks);
    const net = (c: WebGpuCallCounts) => c.buffersCreated - c.buffersDestroyed;
    expect(net(together), 'GPU buffers: no more kept than the seeds in turn keep').toBe(net(inTurn));
  }, 600_000);
});
