/**
 * A GPU rollout that replays only its checked sample on the host (src/trainer/sample-replay.ts,
 * `CollectOptions.replay` 'sample'): the same batch as the whole replay's (per-run fields from the
 * packed final records, and after `completeReplay` every step), its per-step arrays unreadable until
 * then, the actions not read back, the sample still checked step by step (a WGSL environment that
 * leaves the TypeScript one, a spoilt action, a wrong log-probability are caught), and no milestone
 * dropout allowed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEnv } from '../../envs/index.ts';
import { installWebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { armGpuFault } from '../../src/gpu/fault-injection.ts';
import { GpuKernelError } from '../../src/gpu/kernel.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { GpuRolloutCollector } from '../../src/trainer/gpu-rollout.ts';
import { CHECKED_RUNS } from '../../src/trainer/log-prob-check.ts';
import { type Rollout, STEP_FIELDS, StepsNotLaidOutError } from '../../src/trainer/rollout.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';
import { faultCases } from '../support/gridhouse-faults.ts';

beforeAll(async () => {
  await useWebGpuBackend();
});

/** Bytes read back while `fn` runs, and how many read-backs. */
async function readBacks<T>(fn: () => Promise<T>): Promise<[T, { readBacks: number; bytes: number }]> {
  const counter = installWebGpuCallCounter();
  try {
    const result = await fn();
    const { readBacks, bytesReadBack } = counter.read();
    return [result, { readBacks, bytes: bytesReadBack }];
  } finally {
    counter.uninstall();
  }
}

const RUN_FIELDS = ['numRuns', 'groupSize', 'groupOffsets', 'runOffsets', 'taskSeeds', 'success', 'outcome', 'milestonesReached', 'numMilestones'] as const;

describe('a GPU rollout that replays only its sample', () => {
  it.each([
    ['gridhouse', 'short'],
    ['texthouse', 'medium'],
    ['shop', 'medium'],
  ] as const)(
    '%s %s: the whole replay’s batch, its steps laid out on demand, 4 · T · B bytes less read back',
    async (envName, horizon) => {
      const seeds = Uint32Array.of(5, 9, 13, 21);
      const make = () => {
        const env = createEnv(envName, { horizon, batchSize: 16 });
        const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 16 }, new Rng(3));
        return { env, policy, collector: new GpuRolloutCollector(env, policy, VITE_SHADERS) };
      };
      const whole = make();
      const sampled = make();
      try {
        const [all, wholeReads] = await readBacks(() => whole.collector.collect(seeds, 4, new Rng(11)));
        const [lean, leanReads] = await readBacks(() => sampled.collector.collect(seeds, 4, new Rng(11), undefined, { replay: 'sample' }));
        expect([wholeReads.readBacks, leanReads.readBacks]).toEqual([1, 1]);
        const { maxSteps: T, batchSize: B } = whole.env;
        expect(wholeReads.bytes - leanReads.bytes, 'every step’s action is not read back').toBe(4 * T * B);
        for (const field of RUN_FIELDS) expect(lean[field], field).toEqual(all[field]);
        expect(sampled.collector.lastCheckedRuns).toEqual(whole.collector.lastCheckedRuns);
        expect(sampled.collector.lastCheckedRuns.length).toBe(CHECKED_RUNS);
        for (const field of STEP_FIELDS) expect(() => lean[field], field).toThrow(StepsNotLaidOutError);
        expect(lean.gpuRecords?.candidates?.numRows).toBe(all.gpuRecords?.candidates?.numRows);

        // Laid out on demand: one read-back, the whole replay's steps, the sample's log-probabilities.
        const [, laying] = await readBacks(() => lean.completeReplay!());
        expect(laying.readBacks).toBe(1);
        expect(lean.completeReplay).toBeUndefined();
        for (const field of STEP_FIELDS.filter((f) => f !== 'logProbs')) expect(lean[field], field).toEqual(all[field]);
        await Promise.all([lean.completeLogProbs!(), all.completeLogProbs!()]);
        expect(lean.logProbs).toEqual(all.logProbs);
      } finally {
        for (const { collector, policy } of [whole, sampled]) {
          collector.dispose();
          policy.dispose();
        }
      }
    },
    600_000,
  );

  /** A collector of 8 runs (the sample is every run) over GridHouse short, with `shaders`. */
  const eightRuns = (shaders = VITE_SHADERS) => {
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 8 });
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 16 }, new Rng(3));
    return { env, policy, collector: new GpuRolloutCollector(env, policy, shaders) };
  };
  const collectSample = (collector: GpuRolloutCollector, rng = new Rng(7)): Promise<unknown> =>
    collector.collect(Uint32Array.of(1, 2, 3, 4), 2, rng, undefined, { replay: 'sample' }).catch((e: unknown) => e);

  // Deliberate faults in the WGSL GridHouse, as test/trainer/gpu-rollout.test.ts makes them for the whole replay.
  const faults = faultCases({
    'a milestone counted twice': /run \d+'s milestones reached/,
    'episodes ended a step early': /run \d+/,
    'no milestone flag recorded': /run \d+'s step \d+ milestone flag is 0 on the GPU, 1 in the replay/,
  });
  it.each(faults)('the sample catches a WGSL environment that leaves the TypeScript one (%s)', async (_, from, to, what) => {
    const source = VITE_SHADERS['gridhouse-rollout'];
    expect(source, 'the fault must change the kernel').toContain(from);
    const { collector, policy } = eightRuns({ ...VITE_SHADERS, 'gridhouse-rollout': source.replace(from, to) });
    try {
      const failure = await collectSample(collector);
      expect(failure).toBeInstanceOf(GpuKernelError);
      expect((failure as Error).message).toMatch(/the GPU environment left the TypeScript one: .*run \d+/);
      expect((failure as Error).message).toMatch(what);
    } finally {
      collector.dispose();
      policy.dispose();
    }
  });

  it('an inadmissible action and a wrong log-probability in the sample stop the GPU path; a fault-free rollout passes', async () => {
    const { collector, policy } = eightRuns();
    try {
      expect(await collectSample(collector)).not.toBeInstanceOf(Error);
      armGpuFault('replay');
      const action = await collectSample(collector);
      expect(action).toBeInstanceOf(GpuKernelError);
      expect(String(action)).toMatch(/in the sampled runs \(the batch's [\d, ]+, in that order\), run 0, step 0: action -1 is not one of/);
      armGpuFault('logProb');
      const logProb = await collectSample(collector);
      expect(logProb).toBeInstanceOf(GpuKernelError);
      const first = collector.lastCheckedRuns[0];
      expect(String(logProb)).toMatch(new RegExp(`run ${first}, step 0: the GPU recorded log-probability .* the policy gives`));
    } finally {
      collector.dispose();
      policy.dispose();
    }
  }, 300_000);

  it('steps asked for after the next rollout, and a batch with milestone dropout, are refused', async () => {
    const { collector, policy } = eightRuns();
    try {
      const first = (await collectSample(collector)) as Rollout;
      await collectSample(collector);
      await expect(first.completeReplay!()).rejects.toThrow(/asked for after the next rollout/);
      expect(() => first.actions).toThrow(StepsNotLaidOutError);
    } finally {
      collector.dispose();
      policy.dispose();
    }
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 8, milestoneDropout: 0.5 });
    const withDropout = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 16 }, new Rng(3));
    const dropout = new GpuRolloutCollector(env, withDropout, VITE_SHADERS);
    try {
      expect(String(await collectSample(dropout))).toMatch(/a rollout that replays only its sample cannot have milestone dropout/);
    } finally {
      dropout.dispose();
      withDropout.dispose();
    }
  }, 300_000);
});
