/**
 * What the GPU rollout's tests check of a rollout (test/trainer/gpu-rollout*.test.ts): the WebGPU calls
 * it made, the records it leaves on the GPU, its candidate dictionary against the host layout's, and
 * a replay of every run in the TypeScript environment, step by step, with every draw the CPU twin's
 * under the policy's float64 twin.
 */
import { expect } from 'vitest';
import type { VecEnv } from '../../envs/index.ts';
import type { Detector } from '../../envs/types.ts';
import { installWebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { getWebGpuDevice } from '../../src/backend/webgpu-interop.ts';
import { CANDIDATE_ROWS } from '../../src/gpu/candidate-dictionary.ts';
import { sampleFromLogits, uniformAt } from '../../src/gpu/counter-rng.ts';
import { KernelRunner } from '../../src/gpu/kernel.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { renumberByFirstUse } from '../../src/policy/candidate-table.ts';
import { PlainPolicy } from '../../src/policy/plain-policy.ts';
import type { Policy } from '../../src/policy/policy.ts';
import type { Rng } from '../../src/prng.ts';
import type { GpuRolloutCollector } from '../../src/trainer/gpu-rollout.ts';
import { MILESTONE_FLAG } from '../../src/trainer/rollout-records.ts';
import type { Rollout } from '../../src/trainer/rollout.ts';
import { emptyBuffer, readBack } from './gpu-buffers.ts';

export interface Counts {
  dispatches: number;
  submits: number;
  maps: number;
}

/** Counts dispatches, submits and read-backs made through the WebGPU API while `fn` runs (src/backend/webgpu-call-counter.ts). */
export async function countGpuCalls<T>(fn: () => Promise<T>): Promise<[T, Counts]> {
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
 * The policy's masked logits of the replayed step s of every playing run (run b's at b · A), in float64
 * arithmetic by the policy's twin (src/policy/plain-policy.ts, the acting kernels' order of summation),
 * rounded to float32 as the GPU's are: cheaper than a tfjs pass per replayed step.
 */
function twinLogits(twin: PlainPolicy, env: VecEnv, rollout: Rollout, t: number): Float32Array {
  const A = env.maxActions;
  const out = new Float32Array(env.batchSize * A).fill(-1e9);
  const rows = new Int32Array(A);
  for (let b = 0; b < env.batchSize; b++) {
    const s = rollout.runOffsets[b] + t;
    if (env.done[b] || s >= rollout.runOffsets[b + 1]) continue;
    for (let a = 0; a < A; a++) rows[a] = env.actionMask[b * A + a] ? rollout.candidateRows[s * A + a] : -1;
    const scores = twin.scores(twin.observation(env.obs, b * env.obsDim), rollout.candidates, rows);
    for (let a = 0; a < A; a++) if (rows[a] >= 0) out[b * A + a] = scores[a];
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
export async function expectRecordsMatch(rollout: Rollout, obsDim: number, detector: Detector, checked: number[]): Promise<void> {
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
export async function expectDictionaryMatches(rollout: Rollout, collector: GpuRolloutCollector, actionDim: number, numActions: number): Promise<void> {
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
      { numSteps: S, numRuns: rollout.numRuns, numCandidates: numActions, actionDim, offsetBase: 0, tableBase: 0, stepBase: 0 },
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

export async function replay(rollout: Rollout, makeEnv: () => VecEnv, rngAtStart: Rng, policy: Policy): Promise<number> {
  const env = makeEnv();
  const B = rollout.numRuns;
  const A = env.maxActions;
  env.reset(rollout.taskSeeds, rngAtStart);
  const key = { seed: rngAtStart.seed, iteration: rngAtStart.nextUint32() };
  const actions = new Int32Array(B);
  const F = env.actionDim;
  const twin = new PlainPolicy(Float32Array.from((await policy.weights()).flatMap((w) => Array.from(w))), policy.shape);
  let nearBoundary = 0;
  for (let t = 0; !env.done.every((d) => d === 1); t++) {
    const lg = twinLogits(twin, env, rollout, t);
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
