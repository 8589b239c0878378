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
import { createEnv, type VecEnv } from '../../envs/index.ts';
import type { Detector } from '../../envs/types.ts';
import { sampleFromLogits, uniformAt } from '../../src/gpu/counter-rng.ts';
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
import { MILESTONE_FLAG, resetRecords } from '../../src/trainer/rollout-records.ts';
import { CHECKED_RUNS, checkLogProbs } from '../../src/trainer/log-prob-check.ts';
import { armGpuFault } from '../../src/gpu/fault-injection.ts';
import type { Rollout } from '../../src/trainer/rollout.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';
import { emptyBuffer, readBack } from '../support/gpu-buffers.ts';
import { installWebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { gpuEnvKernel } from '../../src/gpu/gpu-envs.ts';
import { CANDIDATE_ROWS } from '../../src/gpu/candidate-dictionary.ts';
import { KernelRunner } from '../../src/gpu/kernel.ts';
import { renumberByFirstUse } from '../../src/policy/candidate-table.ts';
import { faultCases } from '../support/gridhouse-faults.ts';

interface Counts {
  dispatches: number;
  submits: number;
  maps: number;
}

/** Counts dispatches, submits and read-backs made through the WebGPU API while `fn` runs (src/backend/webgpu-call-counter.ts). */
async function countGpuCalls<T>(fn: () => Promise<T>): Promise<[T, Counts]> {
  const counter = installWebGpuCallCounter();
  try {
    const result = await fn();
    const { dispatches, submits, readBacks } = counter.read();
    return [result, { dispatches, submits, maps: readBacks }];
  } finally {
    counter.uninstall();
  }
}

/**
 * The policy's masked logits of every episode's current step, in plain float64 arithmetic from its
 * weights (Policy.logits's function, docs: src/policy/policy.ts; the acting kernel is tested against
 * Policy.logits itself in test/gpu/policy-logits.test.ts). Cheaper than a tfjs pass per replayed step.
 */
function plainLogits([w1, b1, w2, b2, v1, c1, v2, c2]: Float32Array[], H: number, env: VecEnv): Float32Array {
  const layer = (x: ArrayLike<number>, xo: number, n: number, w: Float32Array, bias: Float32Array, tanh: boolean) =>
    Array.from({ length: H }, (_, j) => {
      let z = bias[j];
      for (let i = 0; i < n; i++) z += x[xo + i] * w[i * H + j];
      return tanh ? Math.tanh(z) : z;
    });
  const A = env.maxActions;
  const out = new Float32Array(env.batchSize * A);
  for (let b = 0; b < env.batchSize; b++) {
    const h = layer(layer(env.obs, b * env.obsDim, env.obsDim, w1, b1, true), 0, H, w2, b2, true);
    for (let a = 0; a < A; a++) {
      const e = layer(layer(env.actionFeatures, (b * A + a) * env.actionDim, env.actionDim, v1, c1, true), 0, H, v2, c2, false);
      out[b * A + a] = env.actionMask[b * A + a] ? h.reduce((s, x, j) => s + x * e[j], 0) / Math.sqrt(H) : -1e9;
    }
  }
  return out;
}

/** Replays every run of `rollout` in a fresh environment and checks it step by step; returns how many actions fell near a CDF boundary. */
/**
 * The records the rollout leaves on the GPU for the update (ppo-gather.ts) hold, at run b's step t,
 * slot t · B + b, the replay's action and log-probability exactly and its observation up to float32
 * rounding, with the key of the state it was taken in; and the run offsets it wrote there are the replay's. The rollout brought back the
 * log-probabilities of at most 8 runs, among them the checked ones (NaN elsewhere), and reads the
 * rest on demand.
 */
async function expectRecordsMatch(rollout: Rollout, obsDim: number, detector: Detector, checked: number[]): Promise<void> {
  const records = rollout.gpuRecords;
  expect(records, 'the rollout keeps its records on the GPU').toBeDefined();
  const sampled = Array.from({ length: rollout.numRuns }, (_, b) => b).filter((b) => !Number.isNaN(rollout.logProbs[rollout.runOffsets[b]]));
  expect(sampled.length).toBeLessThanOrEqual(8);
  for (const b of checked) expect(sampled).toContain(b);
  for (let b = 0; b < rollout.numRuns; b++) {
    const run = Array.from(rollout.logProbs.subarray(rollout.runOffsets[b], rollout.runOffsets[b + 1]));
    expect(
      run.every((x) => Number.isNaN(x) === !sampled.includes(b)),
      `run ${b}: its log-probabilities came back whole or not at all`,
    ).toBe(true);
  }
  expect(rollout.completeLogProbs).toBeDefined();
  await rollout.completeLogProbs!();
  expect(
    rollout.logProbs.some((x) => Number.isNaN(x)),
    'every log-probability read',
  ).toBe(false);
  const device = getWebGpuDevice();
  const [obs, actions, logProbs] = [
    new Float32Array(await readBack(device, records!.obs)),
    new Int32Array(await readBack(device, records!.actions)),
    new Float32Array(await readBack(device, records!.logProbs)),
  ];
  const B = rollout.numRuns;
  expect(Array.from(records!.runOffsets)).toEqual(Array.from(rollout.runOffsets));
  expect(Array.from(new Int32Array(await readBack(device, records!.offsets))), 'the run offsets on the GPU').toEqual(Array.from(rollout.runOffsets));
  for (let b = 0; b < B; b++)
    for (let s = rollout.runOffsets[b]; s < rollout.runOffsets[b + 1]; s++) {
      const slot = (s - rollout.runOffsets[b]) * B + b;
      expect(actions[slot] & (MILESTONE_FLAG - 1), `run ${b} step ${s}: action`).toBe(rollout.actions[s]);
      // The key of the state the action was taken in, after the actions (for the credit metrics on the GPU).
      expect(actions[records!.credit!.stateKeysAt + slot] >>> 0, `run ${b} step ${s}: state key`).toBe(rollout.stateKeys[s]);
      // The flag is Φ under the task's detector, the WGSL environments' (the replay's is the batch's detector's).
      if (detector === 'task') expect(actions[slot] & MILESTONE_FLAG ? 1 : 0, `run ${b} step ${s}: milestone flag`).toBe(rollout.milestones[s]);
      expect(logProbs[slot], `run ${b} step ${s}: log-probability`).toBe(rollout.logProbs[s]);
      // The WGSL environments compute a few features (the shop's ratios) with float32 rounding of their own.
      for (let i = 0; i < obsDim; i++) {
        const [gpu, cpu] = [obs[slot * obsDim + i], rollout.obs[s * obsDim + i]];
        if (!(Math.abs(gpu - cpu) <= 1e-6)) expect.fail(`run ${b} step ${s}: observation ${i} is ${gpu} on the GPU, ${cpu} in the replay`);
      }
    }
}

/**
 * The candidate dictionary the rollout built on the GPU (candidate-dictionary.ts) is the host layout's
 * (update-batch.ts): the same distinct rows, bit for bit, in the same order, and every (step,
 * candidate)'s row, −1 where not admissible, as the candidate-rows kernel gathers them for the update.
 */
async function expectDictionaryMatches(rollout: Rollout, collector: GpuRolloutCollector, actionDim: number, numActions: number): Promise<void> {
  const candidates = rollout.gpuRecords?.candidates;
  expect(collector.lastDictionaryRefusal).toBeNull();
  expect(candidates, 'the rollout keeps its candidate dictionary on the GPU').toBeDefined();
  const device = getWebGpuDevice();
  const host = renumberByFirstUse(rollout.candidateRows, rollout.candidates, actionDim);
  expect(candidates!.numRows).toBe(host.count);
  const features = new Uint32Array(await readBack(device, candidates!.features, 4 * host.count * actionDim));
  expect(Array.from(features)).toEqual(Array.from(new Uint32Array(host.rows.buffer, host.rows.byteOffset, host.rows.length)));
  const S = rollout.actions.length;
  const runner = await KernelRunner.create(device, CANDIDATE_ROWS, VITE_SHADERS['candidate-rows'], 64);
  const rows = emptyBuffer(device, 4 * S * numActions);
  try {
    await runner.dispatch(
      { runOffsets: rollout.gpuRecords!.offsets, candidateTable: candidates!.table, rows },
      { numSteps: S, numRuns: rollout.numRuns, numCandidates: numActions, actionDim },
      Math.ceil((S * numActions) / 64),
    );
    const gathered = new Int32Array(await readBack(device, rows));
    const want = host.rowOf.map((row, i) => (rollout.mask[i] ? row : -1));
    expect(Array.from(gathered)).toEqual(Array.from(want));
  } finally {
    runner.destroy();
    rows.destroy();
  }
}

async function replay(rollout: Rollout, makeEnv: () => VecEnv, rngAtStart: Rng, policy: Policy): Promise<number> {
  const env = makeEnv();
  const B = rollout.numRuns;
  const A = env.maxActions;
  env.reset(rollout.taskSeeds, rngAtStart);
  const key = { seed: rngAtStart.seed, iteration: rngAtStart.nextUint32() };
  const actions = new Int32Array(B);
  const F = env.actionDim;
  const weights = await policy.weights();
  let nearBoundary = 0;
  for (let t = 0; !env.done.every((d) => d === 1); t++) {
    const lg = plainLogits(weights, policy.shape.hiddenSize, env);
    for (let b = 0; b < B; b++) {
      if (env.done[b]) continue;
      const s = rollout.runOffsets[b] + t;
      expect(s, `run ${b} is longer on the CPU`).toBeLessThan(rollout.runOffsets[b + 1]);
      const what = `run ${b}, step ${t}`;
      expect(rollout.stateKeys[s], `${what}: state key`).toBe(env.stateKey[b]);
      for (let a = 0; a < A; a++) {
        expect(rollout.mask[s * A + a], `${what}: mask ${a}`).toBe(env.actionMask[b * A + a]);
        const row = rollout.candidateRows[s * A + a];
        for (let j = 0; j < F; j++) {
          const gpu = rollout.candidates[row * F + j];
          const cpu = env.actionFeatures[(b * A + a) * F + j];
          if (!(Math.abs(gpu - cpu) <= 2.5e-7)) expect.fail(`${what}: candidate ${a} feature ${j}: GPU ${gpu}, CPU ${cpu}`);
        }
      }
      for (let j = 0; j < env.obsDim; j++)
        if (!(Math.abs(rollout.obs[s * env.obsDim + j] - env.obs[b * env.obsDim + j]) <= 2.5e-7)) expect.fail(`${what}: obs ${j}`);
      const cpu = sampleFromLogits(lg, env.actionMask, b * A, A, uniformAt({ ...key, run: b, step: t }));
      if (cpu.action !== rollout.actions[s]) nearBoundary++;
      else expect(Math.abs(cpu.logProb - rollout.logProbs[s]), `${what}: log-probability`).toBeLessThan(1e-4 * Math.max(1, Math.abs(cpu.logProb)));
      actions[b] = rollout.actions[s]; // follow the GPU's choice either way, so the replay stays on its path
    }
    env.step(actions);
    for (let b = 0; b < B; b++) {
      const s = rollout.runOffsets[b] + t;
      if (s < rollout.runOffsets[b + 1]) expect(rollout.milestones[s], `run ${b}, step ${t}: milestone`).toBe(env.milestone[b] > 0 ? 1 : 0);
    }
  }
  for (let b = 0; b < B; b++) {
    expect(rollout.runOffsets[b + 1] - rollout.runOffsets[b], `run ${b}: length`).toBe(env.steps[b]);
    expect([rollout.success[b], rollout.milestonesReached[b], rollout.numMilestones[b]], `run ${b}: outcome`).toEqual([
      env.success[b],
      env.milestonesReached[b],
      env.numMilestones[b],
    ]);
    // A graded environment's outcome (the shop's reward) comes back bit for bit; the others have none.
    expect(rollout.outcome?.[b], `run ${b}: graded outcome`).toBe(env.outcome?.[b]);
  }
  return nearBoundary;
}

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
  // the second, and the batch takes the host's layout; rows that share both are merged, which the
  // count against the replay's catches.
  it.each([
    ['every row the same first hash', ['hash = murmurWord(hash, word);'], null],
    [
      'every row the same first and second hash',
      ['hash = murmurWord(hash, word);', 'check = murmurWord(check, word);'],
      /the GPU's candidate dictionary holds 1 distinct rows, the replay's \d+/,
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
