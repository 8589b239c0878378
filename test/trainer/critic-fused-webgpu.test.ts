/**
 * Critic PPO's value network on WGSL kernels (src/gpu/fused-critic.ts, src/trainer/critic-fused.ts)
 * against the tfjs ops of src/policy/critic.ts and src/trainer/critic-update.ts, on tfjs's WebGPU
 * backend on Dawn (SwiftShader here): the values GAE starts from, the weights and the loss after whole
 * updates on the same minibatches, and tensors and GPU buffers flat over updates; then a critic PPO
 * trainer's steady iteration, counted through the WebGPU API.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { createAdam } from '../../src/backend/webgpu-adam.ts';
import { callsBetween, installWebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Critic } from '../../src/policy/critic.ts';
import { Rng } from '../../src/prng.ts';
import { FusedCriticUpdate } from '../../src/trainer/critic-fused.ts';
import { criticUpdate, type CriticSettings } from '../../src/trainer/critic-update.ts';
import { gpuMinibatches, gpuMinibatchOrder } from '../../src/trainer/ppo-fused.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';
import { relativeError } from '../support/relative-error.ts';

const OBS_DIM = 7;
const HIDDEN = 8;
const SETTINGS: CriticSettings = { epochs: 2, minibatches: 2, valueCoef: 0.5, maxGradNorm: 0.5 };

let device: GPUDevice;
beforeAll(async () => {
  ({ device } = await useWebGpuBackend());
});

/** A seeded batch: observations in [−1, 1) and returns in [−2, 3). */
function makeBatch(steps: number, seed: number): { obs: Float32Array; returns: Float64Array; actions: Int32Array } {
  const rng = new Rng(seed);
  const obs = Float32Array.from({ length: steps * OBS_DIM }, () => rng.nextFloat() * 2 - 1);
  const returns = Float64Array.from({ length: steps }, () => rng.nextFloat() * 5 - 2);
  return { obs, returns, actions: new Int32Array(steps) };
}

async function weightsOf(critic: Critic): Promise<Float32Array[]> {
  return Promise.all(critic.variables.map(async (v) => (await v.data()) as Float32Array));
}

describe('fused critic on webgpu', () => {
  let fused: FusedCriticUpdate;
  beforeAll(() => {
    fused = new FusedCriticUpdate(VITE_SHADERS, device);
  });
  afterAll(() => fused.dispose());

  it("values match the critic's tfjs forward pass (relative error ≤ 1e-5)", async () => {
    const critic = new Critic(OBS_DIM, HIDDEN, new Rng(3));
    // Away from its initial zero biases, so that every weight shows in the values.
    tf.tidy(() => critic.variables.forEach((v, i) => v.assign(tf.add(v, tf.fill(v.shape, 0.05 * (i + 1))))));
    try {
      const batch = makeBatch(37, 4);
      const want = tf.tidy(() => critic.values(tf.tensor2d(batch.obs, [37, OBS_DIM])));
      const reference = (await want.data()) as Float32Array;
      want.dispose();
      const got = await fused.values(critic, batch);
      expect(got.length).toBe(37);
      expect(new Set(Array.from(reference)).size, 'the values differ step to step').toBeGreaterThan(30);
      expect(relativeError(got, reference)).toBeLessThanOrEqual(1e-5);
    } finally {
      critic.dispose();
    }
  }, 300_000);

  it('weights and loss after updates match the tfjs-ops update (relative error ≤ 1e-5); tensors and GPU buffers stay flat', async () => {
    const reference = new Critic(OBS_DIM, HIDDEN, new Rng(7));
    const fusedCritic = new Critic(OBS_DIM, HIDDEN, new Rng(7));
    const referenceAdam = createAdam(3e-3);
    const fusedAdam = createAdam(3e-3);
    const referenceRng = new Rng(9);
    const fusedRng = new Rng(9);
    const live: number[] = [];
    const tensors: number[] = [];
    try {
      for (let round = 0; round < 4; round++) {
        const batch = makeBatch(48 + round, 20 + round);
        const steps = batch.returns.length;
        expect(fused.refusal(fusedCritic, OBS_DIM, steps, SETTINGS)).toBeNull();
        // The reference visits the minibatches the GPU draws, recomputed by the permutation's CPU twin.
        const order = gpuMinibatchOrder(steps, SETTINGS, gpuMinibatches(steps, SETTINGS, referenceRng).key);
        const want = await criticUpdate(reference, referenceAdam, batch.obs, batch.returns, SETTINGS, referenceRng, order);
        const got = await fused.update(fusedCritic, fusedAdam, batch, batch.returns, SETTINGS, fusedRng);
        expect(want).toBeGreaterThan(0);
        expect(Math.abs(got - want), `loss after update ${round + 1}`).toBeLessThanOrEqual(1e-5 * Math.max(1, want));
        const [a, b] = [await weightsOf(reference), await weightsOf(fusedCritic)];
        a.forEach((w, i) => expect(relativeError(b[i], w), `${reference.variables[i].name} after update ${round + 1}`).toBeLessThanOrEqual(1e-5));
        expect(referenceRng.state()).toEqual(fusedRng.state()); // one draw each: the same stream position
        live.push(fused.kernels.liveBuffers);
        tensors.push(tf.memory().numTensors);
      }
      // The batch grows by one step per round, so the pool's buffers are resized in place, never added.
      expect(new Set(live.slice(1)).size, `live buffers ${live}`).toBe(1);
      expect(new Set(tensors.slice(1)).size, `tensors ${tensors}`).toBe(1);
    } finally {
      for (const c of [reference, fusedCritic]) c.dispose();
      referenceAdam.dispose();
      fusedAdam.dispose();
    }
  }, 300_000);

  it('critic PPO on webgpu takes the value network on the kernels: 0 pipelines, ≤ 4 read-backs, ≤ 10 submits, tensors and live buffers flat', async () => {
    const config: TrainConfig = {
      ...DEFAULT_CONFIG,
      method: 'ppo',
      backend: 'webgpu',
      env: 'gridhouse',
      horizon: 'tiny',
      sftEpisodes: 0,
      tasksPerIteration: 2,
      groupSize: 2,
      hiddenSize: 8,
      seed: 3,
    };
    // The one training driver, which trims tfjs's pool of freed buffers between iterations.
    const run = new TrainingRun(
      config,
      createAdvantageEngine('webgpu', 'ppo', () => VITE_SHADERS),
    );
    const counter = installWebGpuCallCounter();
    const live: number[] = [];
    const tensors: number[] = [];
    try {
      await run.step(); // compiles the pipelines and makes Adam's moments
      for (let i = 0; i < 5; i++) {
        const before = counter.read();
        const record = await run.step();
        if (!record) throw new Error(`the run halted: ${run.halted}`);
        const after = counter.read();
        const calls = callsBetween(before, after);
        expect(Number.isFinite(record.valueLoss), `value loss ${record.valueLoss}`).toBe(true);
        expect(calls.pipelines).toBe(0);
        // The rollout's, the critic's values, the iteration's details and statistics, the critic's loss.
        expect(calls.readBacks).toBeLessThanOrEqual(4);
        expect(calls.submits).toBeLessThanOrEqual(10);
        // The policy's rollout, advantages and update as for BEACON (≤ 40), the critic's values (gather,
        // forward) and update (gather, permutation, 6 per minibatch): no tfjs op for the value network.
        expect(calls.dispatches).toBeLessThanOrEqual(40 + 2 + 2 + 6 * config.epochs * config.minibatches);
        live.push(after.buffersCreated - after.buffersDestroyed);
        tensors.push(tf.memory().numTensors);
      }
    } finally {
      counter.uninstall();
      run.dispose();
    }
    // Pools settle over the first iterations (batch sizes differ); after that nothing accumulates.
    expect(new Set(tensors.slice(2)).size, `tensors ${tensors}`).toBe(1);
    expect(Math.max(...live.slice(2)) - Math.min(...live.slice(2)), `live GPU buffers ${live}`).toBeLessThanOrEqual(2);
  }, 600_000);
});
