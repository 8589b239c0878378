/**
 * The fused PPO update (src/gpu/fused-ppo.ts, src/trainer/ppo-fused.ts) against the tfjs-ops update
 * of src/trainer/ppo.ts on the same batch, on tfjs's WebGPU backend on Dawn (SwiftShader here):
 * gradients against tfjs autodiff, the weights after whole updates, the statistics, a non-finite loss,
 * and tensors and GPU buffers flat over many updates.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodeEstimatorSandbox } from '../../cli/estimator-sandbox.ts';
import '../../cli/register-gradients.ts';
import { createAdam } from '../../src/backend/webgpu-adam.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { createCustomAdvantageEngine } from '../../src/engine/custom-advantage-engine.ts';
import { GRPO_TEMPLATE } from '../../src/estimator/templates.ts';
import { Trainer } from '../../src/trainer/trainer.ts';
import { callsBetween, installWebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { ownGpuBuffer } from '../../src/backend/webgpu-interop.ts';
import { FUSED_PPO_KERNELS, FusedPpoKernels, variableSizes } from '../../src/gpu/fused-ppo.ts';
import { DICTIONARY_RANKS, DICTIONARY_SLOTS, dictionaryBytes, dictionaryPairs } from '../../src/gpu/candidate-dictionary.ts';
import { MILESTONE_FLAG } from '../../src/trainer/rollout-records.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { FusedPpoUpdate, fusedBatchOf, fusedMinibatches, gpuMinibatches, gpuMinibatchOrder } from '../../src/trainer/ppo-fused.ts';
import { lossGradients, NonFiniteLossError, type PpoBatch, ppoUpdate, type PpoSettings, readPpoStats } from '../../src/trainer/ppo.ts';
import { uploadBuffer } from '../support/gpu-buffers.ts';
import { C2, disposePpoBatch, makePpoBatch, norm } from '../support/ppo-batch.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';
import { relativeError } from '../support/relative-error.ts';

const SHAPE = { obsDim: 6, actionDim: 5, hiddenSize: 8 };
const A = 4;
const SETTINGS: PpoSettings = { clipRatio: 0.2, epochs: 2, minibatches: 2, entropyCoef: 0.01, klCoef: 0.05, maxGradNorm: 0.5 };

let device: GPUDevice;
beforeAll(async () => {
  ({ device } = await useWebGpuBackend());
});

/** A seeded batch of `steps` steps over `rows` distinct candidate rows (test/support/ppo-batch.ts). */
const makeBatch = (policy: Policy, steps: number, rows: number, seed: number, advantage?: (r: Rng) => number): Promise<PpoBatch> =>
  makePpoBatch(device, policy, { ...SHAPE, numActions: A }, steps, rows, seed, { advantage });
const disposeBatch = disposePpoBatch;

describe('fused PPO update on webgpu', () => {
  let kernels: FusedPpoKernels;
  beforeAll(async () => {
    kernels = new FusedPpoKernels(device, VITE_SHADERS);
    await kernels.prepare(1); // compiles the pipelines (shared by every runner on the device): minutes on a busy SwiftShader
  }, 300_000);
  afterAll(() => kernels.dispose());

  it('gradients match tfjs autodiff per variable (relative error ≤ 1e-4)', async () => {
    const policy = new Policy(SHAPE, new Rng(3));
    const batch = await makeBatch(policy, 40, 9, 11);
    try {
      const { perm, minibatches } = fusedMinibatches(40, SETTINGS, new Rng(5));
      for (const mb of minibatches) {
        const indices = Int32Array.from(perm.subarray(mb.offset, mb.offset + mb.size));
        const grads = tf.tidy(() => {
          const { grads, parts } = lossGradients(policy, batch, indices, SETTINGS, 1);
          tf.dispose(parts);
          return policy.variables.map((v) => tf.keep(grads[v.name]));
        });
        const reference = await Promise.all(grads.map((g) => g.data()));
        tf.dispose(grads);
        const fused = await kernels.gradients(
          { ...SHAPE, numActions: A },
          fusedBatchOf(batch, perm),
          mb,
          { ...SETTINGS, learningRate: 1e-3, beta1: 0.9, beta2: 0.999, epsilon: 1e-7 },
          policy.variables.map(ownGpuBuffer),
        );
        const scale = norm(reference.flatMap((g) => Array.from(g)));
        let offset = 0;
        variableSizes(SHAPE).forEach((n, i) => {
          const got = fused.subarray(offset, offset + n);
          offset += n;
          expect(reference[i].length).toBe(n);
          if (i === C2) {
            expect(norm(got)).toBeLessThanOrEqual(1e-4 * scale);
            expect(norm(reference[i])).toBeLessThanOrEqual(1e-4 * scale);
            return;
          }
          expect(Math.max(...Array.from(reference[i], Math.abs)), `variable ${i} has a gradient`).toBeGreaterThan(0);
          expect(relativeError(got, reference[i]), `variable ${policy.variables[i].name}`).toBeLessThanOrEqual(1e-4);
        });
      }
    } finally {
      disposeBatch(batch);
      policy.dispose();
    }
  }, 180_000);

  it('weights after updates match the tfjs-ops update (relative error ≤ 1e-5), statistics too', async () => {
    const reference = new Policy(SHAPE, new Rng(7));
    const fusedPolicy = new Policy(SHAPE, new Rng(7));
    const referenceAdam = createAdam(3e-3);
    const fusedAdam = createAdam(3e-3);
    const update = new FusedPpoUpdate(VITE_SHADERS, device);
    const referenceRng = new Rng(9);
    const fusedRng = new Rng(9);
    try {
      for (let round = 0; round < 2; round++) {
        const batch = await makeBatch(reference, 48, 7, 20 + round);
        try {
          expect(update.refusal(fusedPolicy, batch, SETTINGS)).toBeNull();
          // The reference visits the minibatches the GPU draws, recomputed by the permutation's CPU twin.
          const order = gpuMinibatchOrder(48, SETTINGS, gpuMinibatches(48, SETTINGS, referenceRng).key);
          const want = await ppoUpdate(reference, referenceAdam, batch, SETTINGS, referenceRng, order);
          expect(want.policyLoss).not.toBe(0); // the advantages were read: a loss of exactly 0 would hide a batch of zeros
          const got = await readPpoStats(await update.updateDeferred(fusedPolicy, fusedAdam, batch, SETTINGS, fusedRng));
          for (const key of ['policyLoss', 'entropy', 'approxKl', 'clipFraction', 'gradNorm'] as const)
            expect(Math.abs(got[key] - want[key]), key).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(want[key])));
          const [a, b] = [await reference.weights(), await fusedPolicy.weights()];
          a.forEach((w, i) => {
            if (i === C2) expect(Math.max(...Array.from(b[i], Math.abs))).toBeLessThanOrEqual(8 * (round + 1) * 4 * 3e-3);
            else expect(relativeError(b[i], w), `variable ${i} after update ${round + 1}`).toBeLessThanOrEqual(1e-5);
          });
        } finally {
          disposeBatch(batch);
        }
      }
      expect(fusedAdam.iterations).toBe(referenceAdam.iterations);
      const [ra, fa] = [await referenceAdam.getWeights(), await fusedAdam.getWeights()];
      for (let i = 1; i < ra.length; i++) {
        if (ra[i].name.startsWith('c2_')) continue;
        expect(relativeError((await fa[i].tensor.data()) as Float32Array, (await ra[i].tensor.data()) as Float32Array), ra[i].name).toBeLessThanOrEqual(1e-4);
      }
      tf.dispose([ra[0].tensor, fa[0].tensor]); // getWeights makes a fresh scalar for the step count
    } finally {
      update.dispose();
      reference.dispose();
      fusedPolicy.dispose();
      referenceAdam.dispose();
      fusedAdam.dispose();
    }
  }, 180_000);

  it("reading the batch's rows from a GPU rollout's step-major records and its candidate rows from its dictionary gives the same update, bit for bit, and writes less", async () => {
    const steps = 48;
    const runLengths = [10, 14, 8, 16]; // run-major: run b's steps follow run b − 1's
    const B = runLengths.length;
    const maxT = Math.max(...runLengths);
    const runOffsets = Int32Array.from({ length: B + 1 }, (_, b) => runLengths.slice(0, b).reduce((x, y) => x + y, 0));
    expect(runOffsets[B]).toBe(steps);
    const policies = [0, 1, 2].map(() => new Policy(SHAPE, new Rng(12)));
    const adams = policies.map(() => createAdam(3e-3));
    const update = new FusedPpoUpdate(VITE_SHADERS, device);
    const batch = await makeBatch(policies[0], steps, 6, 40);
    // Step-major records as the rollout kernel leaves them; slots no step uses hold garbage.
    const D = SHAPE.obsDim;
    const obsRecord = new Float32Array(maxT * B * D).fill(Number.NaN);
    const actionRecord = new Int32Array(maxT * B).fill(-7);
    const logProbRecord = new Float32Array(maxT * B).fill(Number.NaN);
    for (let b = 0; b < B; b++)
      for (let s = runOffsets[b]; s < runOffsets[b + 1]; s++) {
        const slot = (s - runOffsets[b]) * B + b;
        obsRecord.set(batch.obs.subarray(s * D, (s + 1) * D), slot * D);
        actionRecord[slot] = batch.actions[s] | (s % 3 === 0 ? MILESTONE_FLAG : 0); // the gather strips the milestone flag
        logProbRecord[slot] = batch.oldLogProbs[s];
      }
    const records = {
      obs: uploadBuffer(device, obsRecord),
      actions: uploadBuffer(device, actionRecord),
      logProbs: uploadBuffer(device, logProbRecord),
      runOffsets,
      offsets: uploadBuffer(device, runOffsets),
      milestones: false,
    };
    // A dictionary as candidate-ranks leaves it (candidate-dictionary.ts): here slot k holds row k at
    // rank k, and each step-major pair record holds its row's slot + 1, or 0 where not admissible.
    const F = SHAPE.actionDim;
    const numRows = batch.candidates.shape[0];
    const table = new Uint32Array(dictionaryBytes(F, maxT * B * A) / 4);
    for (let k = 0; k < numRows; k++) table[DICTIONARY_RANKS + k] = k;
    for (let b = 0; b < B; b++)
      for (let s = runOffsets[b]; s < runOffsets[b + 1]; s++)
        for (let a = 0; a < A; a++)
          table[dictionaryPairs(F) + ((s - runOffsets[b]) * B + b) * A + a] = batch.mask[s * A + a] ? batch.candidateRows[s * A + a] + 1 : 0;
    const features = new Float32Array(DICTIONARY_SLOTS * F).fill(Number.NaN);
    features.set(await batch.candidates.data());
    const candidates = { table: uploadBuffer(device, table), features: uploadBuffer(device, features), numRows };
    const counter = installWebGpuCallCounter();
    try {
      const written: number[] = [];
      const dispatches: number[] = [];
      // Two rounds; the second is counted (the first also uploads the policies and makes Adam's state).
      for (let round = 0; round < 2; round++)
        for (const [i, variant] of [batch, { ...batch, records }, { ...batch, records: { ...records, candidates } }].entries()) {
          const before = counter.read();
          await readPpoStats(await update.updateDeferred(policies[i], adams[i], variant, SETTINGS, new Rng(77 + round)));
          const calls = callsBetween(before, counter.read());
          if (round === 0) continue;
          written.push(calls.bytesWritten);
          dispatches.push(calls.dispatches);
        }
      const [a, ...others] = await Promise.all(policies.map((p) => p.weights()));
      for (const [j, b] of others.entries()) a.forEach((w, i) => expect(Array.from(b[i]), `variant ${j + 1}, variable ${i}`).toEqual(Array.from(w)));
      expect(dispatches[1]).toBe(dispatches[0] + 1); // the gather
      expect(dispatches[2]).toBe(dispatches[1] + 1); // the candidate rows
      // The host no longer writes the observations, actions and old log-probabilities, only the
      // gather's uniforms (under 64 bytes): the offsets are the rollout's, on the GPU.
      const saved = 4 * steps * (D + 2);
      expect(written[0] - written[1]).toBeLessThanOrEqual(saved);
      expect(written[0] - written[1]).toBeGreaterThan(saved - 64);
      // Nor the S × A candidate rows, only the candidate-rows kernel's uniforms.
      expect(written[1] - written[2]).toBeLessThanOrEqual(4 * steps * A);
      expect(written[1] - written[2]).toBeGreaterThan(4 * steps * A - 64);
    } finally {
      counter.uninstall();
      for (const buffer of [records.obs, records.actions, records.logProbs, records.offsets, candidates.table, candidates.features]) buffer.destroy();
      disposeBatch(batch);
      update.dispose();
      for (const x of [...policies, ...adams]) x.dispose();
    }
  }, 180_000);

  it('a profiled update (each dispatch submitted alone, bench/profile-fused-update.ts) gives the same weights, bit for bit, and times every kernel', async () => {
    const [plainPolicy, profiledPolicy] = [new Policy(SHAPE, new Rng(11)), new Policy(SHAPE, new Rng(11))];
    const [plainAdam, profiledAdam] = [createAdam(3e-3), createAdam(3e-3)];
    const [plain, profiled] = [new FusedPpoUpdate(VITE_SHADERS, device), new FusedPpoUpdate(VITE_SHADERS, device)];
    const profile = new Map<string, number>();
    profiled.kernels.profile = profile;
    const batch = await makeBatch(plainPolicy, 40, 6, 31);
    try {
      const want = await readPpoStats(await plain.updateDeferred(plainPolicy, plainAdam, batch, SETTINGS, new Rng(5)));
      const got = await readPpoStats(await profiled.updateDeferred(profiledPolicy, profiledAdam, batch, SETTINGS, new Rng(5)));
      expect(got).toEqual(want);
      const [a, b] = [await plainPolicy.weights(), await profiledPolicy.weights()];
      a.forEach((w, i) => expect(Array.from(b[i]), `variable ${i}`).toEqual(Array.from(w)));
      expect([...profile.keys()].sort()).toEqual(FUSED_PPO_KERNELS.map((k) => k.name).sort());
      for (const [name, ms] of profile) expect(ms, name).toBeGreaterThanOrEqual(0);
    } finally {
      disposeBatch(batch);
      [plain, profiled].forEach((u) => u.dispose());
      [plainPolicy, profiledPolicy].forEach((p) => p.dispose());
      [plainAdam, profiledAdam].forEach((o) => o.dispose());
    }
  }, 180_000);

  it('a non-finite loss restores the weights and throws, as the tfjs-ops update does', async () => {
    const policy = new Policy(SHAPE, new Rng(4));
    const adam = createAdam(1e-3);
    const update = new FusedPpoUpdate(VITE_SHADERS, device);
    const batch = await makeBatch(policy, 24, 5, 31, (r) => (r.nextFloat() < 0.2 ? Number.NaN : 1));
    try {
      const before = await policy.weights();
      const pending = await update.updateDeferred(policy, adam, batch, SETTINGS, new Rng(1));
      await expect(readPpoStats(pending)).rejects.toThrow(NonFiniteLossError);
      const after = await policy.weights();
      after.forEach((w, i) => expect(Array.from(w)).toEqual(Array.from(before[i])));
    } finally {
      disposeBatch(batch);
      update.dispose();
      adam.dispose();
      policy.dispose();
    }
  }, 180_000);

  it('keeps tensors and GPU buffers flat over many updates, with 7 dispatches per minibatch and one for the permutation, no read-back', async () => {
    const policy = new Policy(SHAPE, new Rng(8));
    const adam = createAdam(1e-3);
    const update = new FusedPpoUpdate(VITE_SHADERS, device);
    const rng = new Rng(2);
    const counter = installWebGpuCallCounter();
    try {
      let tensors = -1;
      let buffers = -1;
      for (let i = 0; i < 30; i++) {
        const batch = await makeBatch(policy, 20 + (i % 5) * 7, 3 + (i % 4), 100 + i);
        try {
          const before = counter.read();
          const pending = await update.updateDeferred(policy, adam, batch, SETTINGS, rng);
          const calls = callsBetween(before, counter.read());
          // After the first (which makes Adam's moments): the minibatches' permutation, then 2 epochs ×
          // 2 minibatches × 7 kernels, the update in one submit (plus tfjs's flush of the batch's
          // uploads), no read-back.
          if (i > 0) {
            expect(calls.dispatches, `update ${i}`).toBe(1 + 4 * 7);
            expect(calls.submits).toBeLessThanOrEqual(3);
          }
          expect(calls.readBacks).toBe(0);
          const stats = await readPpoStats(pending);
          expect(Number.isFinite(stats.policyLoss)).toBe(true);
        } finally {
          disposeBatch(batch);
        }
        if (i === 4) {
          tensors = tf.memory().numTensors;
          buffers = update.kernels.liveBuffers;
        }
        if (i > 4) {
          expect(tf.memory().numTensors).toBe(tensors);
          expect(update.kernels.liveBuffers).toBe(buffers);
        }
      }
      expect(FusedPpoKernels.DISPATCHES_PER_MINIBATCH).toBe(7);
    } finally {
      counter.uninstall();
      update.dispose();
      adam.dispose();
      policy.dispose();
    }
  }, 180_000);

  // Every learner that updates by the clipped surrogate takes the fused path on webgpu; SFT clones.
  it.each([
    ['grpo', {}, 1],
    ['beacon', {}, 1],
    ['beacon', { variant: 'released' }, 1],
    ['gigpo', {}, 1],
    ['ppo', {}, 1],
    ['custom', {}, 1],
    ['sft', {}, 0],
  ] as const)(
    '%s %o: a webgpu iteration updates through the fused kernels %i time(s)',
    async (method, extra, calls) => {
      const config: TrainConfig = {
        ...DEFAULT_CONFIG,
        ...extra,
        method,
        backend: 'webgpu',
        env: 'gridhouse',
        horizon: 'tiny',
        tasksPerIteration: 2,
        groupSize: 2,
        hiddenSize: 8,
        epochs: 1,
        minibatches: 2,
        sftEpisodes: 0,
      };
      const engine =
        method === 'custom'
          ? createCustomAdvantageEngine(nodeEstimatorSandbox(GRPO_TEMPLATE), GRPO_TEMPLATE, VITE_SHADERS)
          : createAdvantageEngine('webgpu', method, () => VITE_SHADERS);
      const spy = vi.spyOn(FusedPpoUpdate.prototype, 'updateDeferred');
      const trainer = new Trainer(config, engine);
      try {
        const record = await trainer.step();
        expect(Number.isFinite(record.policyLoss)).toBe(true);
        expect(spy).toHaveBeenCalledTimes(calls);
      } finally {
        spy.mockRestore();
        trainer.dispose();
      }
    },
    180_000,
  );
});
