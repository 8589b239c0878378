/**
 * The lean acting pass (shaders/policy-logits.wgsl) against `Policy.logits` on the same weights and
 * inputs, on Dawn: environment observations and candidates of both environments, several widths (one
 * not a power of two), one dispatch per step.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGridHouse } from '../../envs/gridhouse/gridhouse.ts';
import { createTextHouse } from '../../envs/texthouse/texthouse.ts';
import type { VecEnv } from '../../envs/types.ts';
import { KernelRunner } from '../../src/gpu/kernel.ts';
import { gatherWeights, POLICY_LOGITS, POLICY_LOGITS_WORKGROUP, policyLogitsParams, policyWeightCount } from '../../src/gpu/policy-logits.ts';
import { perEpisodeWorkgroups } from '../../src/gpu/sample-actions.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { emptyBuffer, readBack, uploadBuffer } from '../support/gpu-buffers.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

describe('policy-logits kernel on WebGPU (Dawn) against Policy.logits', () => {
  let device: GPUDevice;
  let runner: KernelRunner<string, string>;
  beforeAll(async () => {
    ({ device } = await useWebGpuBackend());
    runner = await KernelRunner.create(device, POLICY_LOGITS, VITE_SHADERS['policy-logits'], POLICY_LOGITS_WORKGROUP);
  });
  afterAll(() => runner?.destroy());

  const cases: [string, number, () => VecEnv][] = [
    ['gridhouse short', 16, () => createGridHouse({ horizon: 'short', batchSize: 20 })],
    ['gridhouse long', 64, () => createGridHouse({ horizon: 'long', batchSize: 12 })],
    ['texthouse medium', 100, () => createTextHouse({ horizon: 'medium', batchSize: 6 })],
  ];

  it.each(cases)('%s, width %i: equal within float32 rounding, masked at −1e9', async (_, hiddenSize, makeEnv) => {
    const env = makeEnv();
    const rng = new Rng(hiddenSize);
    const B = env.batchSize;
    const A = env.maxActions;
    env.reset(
      Array.from({ length: B }, (_, b) => 77 + (b >> 1)),
      rng.fork('env'),
    );
    // A few random steps, so the features are not all start states.
    const actions = new Int32Array(B);
    const act = rng.fork('act');
    for (let t = 0; t < 3; t++) {
      for (let b = 0; b < B; b++) {
        const ok = [...Array(A).keys()].filter((a) => env.actionMask[b * A + a]);
        actions[b] = ok[act.nextInt(ok.length)];
      }
      env.step(actions);
    }
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize }, rng.fork('policy'));
    const K = B * A;
    const expected = tf.tidy(() =>
      policy.logits({
        obs: tf.tensor2d(env.obs, [B, env.obsDim]),
        candidates: tf.tensor2d(env.actionFeatures, [K, env.actionDim]),
        pick: tf.tensor1d(
          Int32Array.from({ length: K }, (_, i) => Math.floor(i / A) * K + i),
          'int32',
        ),
        mask: tf.tensor2d(env.actionMask, [B, A], 'bool'),
      }),
    );
    const cpu = (await expected.data()) as Float32Array;
    expected.dispose();

    const weights = emptyBuffer(device, 4 * policyWeightCount(env.obsDim, env.actionDim, hiddenSize));
    const copies = device.createCommandEncoder();
    gatherWeights(copies, policy.variables, weights);
    device.queue.submit([copies.finish()]);
    const buffers = {
      weights,
      obs: uploadBuffer(device, env.obs),
      actionFeatures: uploadBuffer(device, env.actionFeatures),
      mask: uploadBuffer(device, Uint32Array.from(env.actionMask)),
      logits: emptyBuffer(device, 4 * K),
    };
    await runner.dispatch(buffers, policyLogitsParams(B, env.obsDim, env.actionDim, A, hiddenSize), perEpisodeWorkgroups(K, POLICY_LOGITS_WORKGROUP));
    const gpu = new Float32Array(await readBack(device, buffers.logits));
    for (const buffer of Object.values(buffers)) buffer.destroy();
    policy.dispose();

    let admissible = 0;
    for (let i = 0; i < K; i++) {
      if (!env.actionMask[i]) {
        expect(gpu[i], `masked logit ${i}`).toBe(Math.fround(-1e9));
        continue;
      }
      admissible++;
      if (!(Math.abs(gpu[i] - cpu[i]) <= 2e-5 * Math.max(1, Math.abs(cpu[i])))) expect.fail(`logit ${i}: GPU ${gpu[i]}, Policy.logits ${cpu[i]}`);
    }
    expect(admissible).toBeGreaterThan(B);
    // The logits are not trivially equal (e.g. all zero): they spread.
    expect(Math.max(...cpu.filter((_, i) => env.actionMask[i])) - Math.min(...cpu.filter((_, i) => env.actionMask[i]))).toBeGreaterThan(1e-3);
  });
});
