/**
 * The GPU rollout (src/trainer/gpu-rollout.ts) on Dawn: its batch is laid out run by run as the
 * TypeScript environment plays the GPU's actions (states, masks, milestones, outcomes), every action is
 * the CPU twin's draw from Philox at (stream seed, rollout key, run, step) under `Policy.logits`, the
 * same seed gives the same rollout, a rollout costs three dispatches whatever the horizon (the whole-episode kernel, the candidate dictionary's numbering, the final records) and one small read-back,
 * counted by wrapping the WebGPU API itself (and the whole rollout goes in one submit), and a WGSL
 * environment that leaves the TypeScript one is caught on the rollout it happens in.
 */
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEnv } from '../../envs/index.ts';
import type { Detector } from '../../envs/types.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { getWebGpuDevice } from '../../src/backend/webgpu-interop.ts';
import { GpuKernelError } from '../../src/gpu/kernel.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { rolloutPath } from '../../src/trainer/collector-choice.ts';
import { GpuRolloutCollector } from '../../src/trainer/gpu-rollout.ts';
import { gpuRolloutRefusal } from '../../src/trainer/gpu-rollout-sizes.ts';
import { resetRecords } from '../../src/trainer/rollout-records.ts';
import { CHECKED_RUNS, checkLogProbs } from '../../src/trainer/log-prob-check.ts';
import { armGpuFault } from '../../src/gpu/fault-injection.ts';
import type { Rollout } from '../../src/trainer/rollout.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';
import { gpuEnvKernel } from '../../src/gpu/gpu-envs.ts';
import { faultCases } from '../support/gridhouse-faults.ts';
import { countGpuCalls, expectDictionaryMatches, expectRecordsMatch, replay } from '../support/gpu-rollout-replay.ts';

describe('the reset records the whole-episode kernel starts from', () => {
  it('uploads each run of equal consecutive records once, with every run’s index into them', () => {
    const W = 3;
    // Runs 0–2 reset alike (a group), run 3 differently (a dropout draw), runs 4–5 alike again, run 6 like run 0.
    const records = [
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 4],
      [5, 6, 7],
      [5, 6, 7],
      [1, 2, 3],
    ];
    const out = resetRecords(Uint32Array.from(records.flat()), records.length, W);
    expect(Array.from(out.subarray(0, 7))).toEqual([0, 0, 0, 1, 2, 2, 3]);
    expect(Array.from(out.subarray(7))).toEqual([1, 2, 3, 1, 2, 4, 5, 6, 7, 1, 2, 3]);
    // What startRun copies: run b's record from index out[b].
    records.forEach((record, b) => expect(Array.from(out.subarray(7 + out[b] * W, 7 + (out[b] + 1) * W)), `run ${b}`).toEqual(record));
  });
});

describe('the reset records of a rollout after the first', () => {
  // Reset states keep words nothing reads (an earlier episode's, past the task's receptacles or the
  // page's option slots); packed as 0, a group's runs upload one record in every environment.
  it.each(['gridhouse', 'texthouse', 'shop'] as const)('%s: one reset record per group after a second reset', (name) => {
    const B = 64;
    const env = createEnv(name, { horizon: 'tiny', batchSize: B });
    const rng = new Rng(5);
    env.reset(
      Uint32Array.from({ length: B }, (_, b) => 100 + Math.floor(b / 8)),
      new Rng(3),
    );
    const actions = new Int32Array(B);
    for (let t = 0; t < 30 && !env.done.every((d) => d === 1); t++) {
      for (let b = 0; b < B; b++) {
        const open = Array.from({ length: env.maxActions }, (_, a) => a).filter((a) => env.actionMask[b * env.maxActions + a]);
        actions[b] = open.length ? open[rng.nextInt(open.length)] : 0;
      }
      env.step(actions);
    }
    env.reset(
      Uint32Array.from({ length: B }, (_, b) => 200 + Math.floor(b / 8)),
      new Rng(4),
    );
    const kernel = gpuEnvKernel(env)!;
    const records = resetRecords(kernel.upload(env).episodes, B, kernel.recordWords);
    expect((records.length - B) / kernel.recordWords).toBe(B / 8);
  });
});

describe('GPU rollout on WebGPU (Dawn)', () => {
  beforeAll(async () => {
    await useWebGpuBackend();
  });

  // The loose and fine detectors (docs/maths.md §6): the WGSL environment steps with the task's, and the
  // batch's flags come from the replay under the chosen one, so they are the TypeScript environment's.
  const cases: [string, 'gridhouse' | 'texthouse' | 'shop', 'short' | 'medium', number, Detector?][] = [
    ['gridhouse short, dropout 0.3', 'gridhouse', 'short', 0.3],
    ['texthouse medium, dropout 0.3', 'texthouse', 'medium', 0.3],
    ['shop medium, dropout 0.3', 'shop', 'medium', 0.3],
    ['gridhouse short, loose detector', 'gridhouse', 'short', 0, 'loose'],
    ['texthouse medium, fine detector, dropout 0.3', 'texthouse', 'medium', 0.3, 'fine'],
  ];

  it.each(cases)(
    '%s: every run replays on the CPU and every draw is the CPU twin’s',
    async (_, envName, horizon, milestoneDropout, detector) => {
      const makeEnv = () => createEnv(envName, { horizon, batchSize: 8, milestoneDropout, ...(detector ? { detector } : {}) });
      const env = makeEnv();
      const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 16 }, new Rng(3));
      const collector = new GpuRolloutCollector(env, policy, VITE_SHADERS);
      try {
        const rng = new Rng(11).fork('rollout');
        const atStart = new Rng(11).fork('rollout');
        const [rollout, counts] = await countGpuCalls(() => collector.collect(Uint32Array.of(5, 9, 13, 21), 2, rng));
        // The whole-episode kernel, the dictionary's numbering and the final records, whatever the horizon (the weights are copied, not computed).
        expect(counts.dispatches).toBe(3);
        expect(counts.dispatches, 'a rollout takes at most 4 dispatches whatever the horizon').toBeLessThanOrEqual(4);
        expect(counts.maps).toBe(1);
        // The weights' copies and the whole rollout in one command buffer (tfjs's queue flushed first, if open).
        expect(counts.submits, JSON.stringify(counts)).toBeLessThanOrEqual(2);
        // (first: it reads every log-probability, which the replay compares with the CPU twin's)
        await expectRecordsMatch(rollout, env.obsDim, env.detector, collector.lastCheckedRuns);
        const nearBoundary = await replay(rollout, makeEnv, atStart, policy);
        expect(nearBoundary).toBeLessThanOrEqual(1);
        expect(rollout.actions.length).toBeGreaterThan(8);
        expect(rollout.gpuRecords?.milestones).toBe(env.detector === 'task');
        await expectDictionaryMatches(rollout, collector, env.actionDim, env.maxActions);
      } finally {
        collector.dispose();
        policy.dispose();
      }
    },
    600_000,
  );

  it('page defaults (GridHouse long, 8 × 8 runs, width 64): 3 dispatches (the whole episodes, the dictionary, the final records; the weights copied in the same command buffer), one read-back, at most 2 submits', async () => {
    const env = createEnv('gridhouse', { horizon: 'long', batchSize: 64 });
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 64 }, new Rng(5));
    const collector = new GpuRolloutCollector(env, policy, VITE_SHADERS);
    try {
      const seeds = Uint32Array.from({ length: 8 }, (_, i) => 100 + i);
      const [rollout, counts] = await countGpuCalls(() => collector.collect(seeds, 8, new Rng(9)));
      expect(counts).toEqual({ dispatches: 3, submits: counts.submits, maps: 1 });
      expect(counts.submits).toBeLessThanOrEqual(2);
      expect(rollout.numRuns).toBe(64);
      expect(rollout.runOffsets[64]).toBe(rollout.actions.length);
      expect(rollout.actions.length).toBeGreaterThan(64 * 10);
    } finally {
      collector.dispose();
      policy.dispose();
    }
  }, 600_000);

  it('each rollout checks the log-probabilities it recorded against the policy on 8 seeded runs; a wrong one stops the GPU path naming the run and step', async () => {
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 16 });
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 16 }, new Rng(4));
    const collector = new GpuRolloutCollector(env, policy, VITE_SHADERS);
    try {
      const seeds = Uint32Array.of(40, 41, 42, 43);
      await collector.collect(seeds, 4, new Rng(13));
      const other = collector.lastCheckedRuns;
      collector.lastCheckedRuns = [];
      // (A rollout's arrays are the collector's, until its next rollout.)
      const rollout = await collector.collect(seeds, 4, new Rng(12));
      const checked = collector.lastCheckedRuns;
      expect(new Set(checked).size).toBe(CHECKED_RUNS);
      expect(checked.every((b) => Number.isInteger(b) && b >= 0 && b < 16)).toBe(true);
      // Seeded by the rollout's key: another stream gives another sample, the same stream the same one.
      expect(other).not.toEqual(checked);
      // The check itself: silent at the weights the rollout acted with, loud at any others.
      const weights = Float32Array.from((await policy.weights()).flatMap((w) => Array.from(w)));
      expect(() => checkLogProbs(rollout, weights, policy.shape, checked)).not.toThrow();
      const moved = weights.map((w) => w * 1.1);
      const runs = Array.from({ length: 16 }, (_, b) => b);
      expect(() => checkLogProbs(rollout, Float32Array.from(moved), policy.shape, runs)).toThrow(/the GPU recorded log-probability .* the policy gives/);
      // A recorded log-probability off by 0.01 (the test hook) is caught on the rollout it happens in.
      armGpuFault('logProb');
      collector.lastCheckedRuns = [];
      const fault = await collector.collect(seeds, 4, new Rng(12)).catch((e: unknown) => e);
      expect(collector.lastCheckedRuns, 'the same stream, the same sample').toEqual(checked);
      expect(fault).toBeInstanceOf(GpuKernelError);
      expect(String(fault)).toMatch(new RegExp(`run ${checked[0]}, step 0: the GPU recorded log-probability .* the policy gives .* \\(tolerance 0.0001\\)`));
    } finally {
      collector.dispose();
      policy.dispose();
    }
  }, 600_000);

  it('a trainer rolls out on the GPU where its engine carries the WGSL sources, and says why not elsewhere', () => {
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 4 });
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 8 }, new Rng(1));
    try {
      expect(rolloutPath(env, policy, createAdvantageEngine('webgpu', 'beacon', readShaderSources)).path).toBe('gpu');
      // Methods whose advantages run on the CPU (critic PPO, SFT) still roll out on the GPU on webgpu.
      for (const method of ['ppo', 'sft'] as const)
        expect(rolloutPath(env, policy, createAdvantageEngine('webgpu', method, readShaderSources)).path).toBe('gpu');
      expect(rolloutPath(env, policy, { ...createAdvantageEngine('webgpu', 'ppo', readShaderSources), shaders: undefined })).toEqual({
        path: 'cpu',
        reason: 'the advantage engine carries no WGSL sources',
      });
    } finally {
      policy.dispose();
    }
    const device = getWebGpuDevice();
    expect(gpuRolloutRefusal(env, 1024, device)).toBe("hiddenSize 1024 is over the GPU acting pass's 512");
    // The largest batch the settings allow rolls out on the GPU too: only actions and final records come back.
    const wide = createEnv('gridhouse', { horizon: 'long', batchSize: 4096 });
    expect(gpuRolloutRefusal(wide, 64, device)).toBeNull();
  });

  // Deliberate faults in the WGSL GridHouse: a milestone counted twice, episodes ended a step early, the step's milestone flag not recorded.
  const faults = faultCases({
    'a milestone counted twice': /run \d+'s milestones reached/,
    'episodes ended a step early': /run \d+/,
    'no milestone flag recorded': /run \d+, step \d+: the milestone flag is 0 on the GPU, 1 in the replay/,
  });

  // The rollout plays GridHouse in the whole-episode kernel: the fault goes into that kernel's text.
  it.each(faults)('a WGSL environment that leaves the TypeScript one is caught (%s)', async (_, from, to, what) => {
    const source = VITE_SHADERS['gridhouse-rollout'];
    expect(source, 'the fault must change the kernel').toContain(from);
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 16 });
    expect(gpuEnvKernel(env)?.episodeKernel.spec.name).toBe('gridhouse-rollout');
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 16 }, new Rng(3));
    const collector = new GpuRolloutCollector(env, policy, { ...VITE_SHADERS, 'gridhouse-rollout': source.replace(from, to) });
    try {
      const failure = await collector.collect(Uint32Array.of(1, 2, 3, 4), 4, new Rng(7)).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(GpuKernelError);
      expect((failure as Error).message).toMatch(/the GPU environment left the TypeScript one: run \d+/);
      expect((failure as Error).message).toMatch(what);
    } finally {
      collector.dispose();
      policy.dispose();
    }
  });

  // The dictionary's hashes broken in the kernel's text: rows that share the first hash are told apart by
  // the second, and the batch takes the host's layout; rows that share both are merged (one slot, one
  // published embedding), which the log-probability check or the count against the replay's catches.
  it.each([
    ['every row the same first hash', ['hash = murmurWord(hash, word);'], null],
    [
      'every row the same first and second hash',
      ['hash = murmurWord(hash, word);', 'check = murmurWord(check, word);'],
      /the GPU's candidate dictionary holds 1 distinct rows, the replay's \d+|the GPU recorded log-probability .* the policy gives/,
    ],
  ] as [string, string[], RegExp | null][])('a candidate dictionary with %s: the host lays the rows out, or the rollout stops', async (_, lines, failure) => {
    let source = VITE_SHADERS['gridhouse-rollout'];
    for (const line of lines) {
      expect(source, 'the fault must change the kernel').toContain(line);
      source = source.replace(line, `${line.split(' =')[0]} = 7u;`);
    }
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 8 });
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 16 }, new Rng(3));
    const collector = new GpuRolloutCollector(env, policy, { ...VITE_SHADERS, 'gridhouse-rollout': source });
    try {
      const result = await collector.collect(Uint32Array.of(1, 2, 3, 4), 2, new Rng(7)).catch((e: unknown) => e);
      if (failure) {
        expect(result).toBeInstanceOf(GpuKernelError);
        expect(String(result)).toMatch(failure);
      } else {
        expect(result).not.toBeInstanceOf(Error);
        expect(collector.lastDictionaryRefusal).toBe("two of the rollout's candidate rows shared a hash in the GPU dictionary");
        expect((result as Rollout).gpuRecords?.candidates).toBeUndefined();
        expect((result as Rollout).gpuRecords?.obs).toBeDefined();
      }
    } finally {
      collector.dispose();
      policy.dispose();
    }
  });

  it('the same seed gives the same rollout; another seed another one; no GPU buffer or tensor left behind', async () => {
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 8 });
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 16 }, new Rng(3));
    const collector = new GpuRolloutCollector(env, policy, VITE_SHADERS);
    try {
      const seeds = Uint32Array.of(1, 2, 3, 4);
      const first = await collector.collect(seeds, 2, new Rng(7));
      const buffers = collector.liveBuffers;
      const tensors = tf.memory().numTensors;
      const again = await collector.collect(seeds, 2, new Rng(7));
      expect(Array.from(again.actions)).toEqual(Array.from(first.actions));
      expect(Array.from(again.logProbs)).toEqual(Array.from(first.logProbs));
      const other = await collector.collect(seeds, 2, new Rng(8));
      expect(Array.from(other.actions)).not.toEqual(Array.from(first.actions));
      expect(collector.liveBuffers).toBe(buffers);
      expect(tf.memory().numTensors).toBe(tensors);
      collector.dispose();
      expect(collector.liveBuffers, 'dispose destroys every buffer the collector made').toBe(0);
    } finally {
      collector.dispose();
      policy.dispose();
    }
  });
});
