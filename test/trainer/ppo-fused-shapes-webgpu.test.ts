/**
 * The fused PPO update (src/gpu/fused-ppo.ts) at the page's shapes in every environment: width 64,
 * each environment's own observation and candidate feature counts and candidates per step, and
 * hundreds of distinct candidate rows, one of them met by many pairs (its segment spans several
 * chunks of the segmented sum, shaders/ppo-candidate-grads.wgsl) and some by none. Few steps, so it
 * stays short on SwiftShader. Gradients against tfjs autodiff, the weights after one update against
 * the tfjs-ops update (src/trainer/ppo.ts), and the same bits from two runs of the update.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { createEnv, ENV_NAMES } from '../../envs/index.ts';
import { createAdam } from '../../src/backend/webgpu-adam.ts';
import { ownGpuBuffer } from '../../src/backend/webgpu-interop.ts';
import { FusedPpoKernels, variableSizes } from '../../src/gpu/fused-ppo.ts';
import { rowGrouping } from '../../src/gpu/fused-ppo-kernels.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { FusedPpoUpdate, fusedBatchOf, fusedMinibatches, gpuMinibatches, gpuMinibatchOrder } from '../../src/trainer/ppo-fused.ts';
import { lossGradients, type PpoSettings, ppoUpdate } from '../../src/trainer/ppo.ts';
import { C2, disposePpoBatch, makePpoBatch, norm, type RowChoice } from '../support/ppo-batch.ts';
import { relativeError } from '../support/relative-error.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

const HIDDEN = 64;
const STEPS = 96;
const ROWS = 300;
const POPULAR = 150;
const SETTINGS: PpoSettings = { clipRatio: 0.2, epochs: 1, minibatches: 2, entropyCoef: 0.01, klCoef: 0.05, maxGradNorm: 0.5 };
const ADAM = { learningRate: 1e-3, beta1: 0.9, beta2: 0.999, epsilon: 1e-7 };
/**
 * c1, the candidate tower's first bias, starts at zero, so after one update it is Adam's steps alone,
 * each element's normalised to about the learning rate whatever its gradient's size; its gradient
 * sums over the rows terms that mostly cancel, so both float32 sums (tfjs's and the kernels') carry a
 * larger relative error in it. Measured in the shop (the worst): 1.03e-5 here, 1.15e-5 with the
 * kernels before the segmented sum (main 9aeebd5), both against tfjs on SwiftShader.
 */
const C1 = 5;
const C1_TOLERANCE = 2e-5;

/** The first half of each step's candidates on one row; the rest enumerate the rows in turn (some left unmet). */
const rowOf =
  (A: number): RowChoice =>
  (s, a, rows) => {
    const popular = Math.ceil(A / 2);
    return a < popular ? POPULAR : (s * (A - popular) + (a - popular)) % rows;
  };

let device: GPUDevice;
beforeAll(async () => {
  ({ device } = await useWebGpuBackend());
});

describe.each(ENV_NAMES)('fused PPO update at the page shapes of %s', (env) => {
  const probe = createEnv(env, { horizon: 'long', batchSize: 1 });
  const shape = { obsDim: probe.obsDim, actionDim: probe.actionDim, hiddenSize: HIDDEN };
  const A = probe.maxActions;
  const batchShape = { obsDim: shape.obsDim, actionDim: shape.actionDim, numActions: A };
  let kernels: FusedPpoKernels;
  beforeAll(async () => {
    kernels = new FusedPpoKernels(device, VITE_SHADERS);
    await kernels.prepare(1);
  }, 300_000);
  afterAll(() => kernels.dispose());

  it('groups its pairs in several blocks and chunks, a row spanning chunks', () => {
    const grouping = rowGrouping(STEPS, A, ROWS, HIDDEN, shape.actionDim, shape.obsDim, STEPS / 2);
    expect(grouping.countBlocks).toBeGreaterThan(1);
    expect(grouping.chunks).toBeGreaterThan(2);
  });

  it('gradients match tfjs autodiff per variable (relative error ≤ 1e-4)', async () => {
    const policy = new Policy(shape, new Rng(3));
    const batch = await makePpoBatch(device, policy, batchShape, STEPS, ROWS, 11, { rowOf: rowOf(A) });
    try {
      const distinct = new Set(Array.from(batch.candidateRows).filter((_, i) => batch.mask[i]));
      expect(distinct.size).toBeGreaterThanOrEqual(200);
      const { perm, minibatches } = fusedMinibatches(STEPS, SETTINGS, new Rng(5));
      for (const mb of minibatches) {
        const indices = Int32Array.from(perm.subarray(mb.offset, mb.offset + mb.size));
        const grads = tf.tidy(() => {
          const { grads, parts } = lossGradients(policy, batch, indices, SETTINGS, 1);
          tf.dispose(parts);
          return policy.variables.map((v) => tf.keep(grads[v.name]));
        });
        const reference = await Promise.all(grads.map((g) => g.data()));
        tf.dispose(grads);
        const weights = policy.variables.map(ownGpuBuffer);
        const fused = await kernels.gradients({ ...shape, numActions: A }, fusedBatchOf(batch, perm), mb, { ...SETTINGS, ...ADAM }, weights);
        // The same bits on a second run: every sum has one order (no float atomics).
        const again = await kernels.gradients({ ...shape, numActions: A }, fusedBatchOf(batch, perm), mb, { ...SETTINGS, ...ADAM }, weights);
        expect(Array.from(again)).toEqual(Array.from(fused));
        const scale = norm(reference.flatMap((g) => Array.from(g)));
        let offset = 0;
        variableSizes(shape).forEach((n, i) => {
          const got = fused.subarray(offset, offset + n);
          offset += n;
          if (i === C2) {
            expect(norm(got)).toBeLessThanOrEqual(1e-4 * scale);
            return;
          }
          expect(Math.max(...Array.from(reference[i], Math.abs)), `variable ${i} has a gradient`).toBeGreaterThan(0);
          expect(relativeError(got, reference[i]), `${env}: variable ${policy.variables[i].name}`).toBeLessThanOrEqual(1e-4);
        });
      }
    } finally {
      disposePpoBatch(batch);
      policy.dispose();
    }
  }, 300_000);

  it('weights after one update match the tfjs-ops update (relative error ≤ 1e-5)', async () => {
    const reference = new Policy(shape, new Rng(7));
    const fusedPolicy = new Policy(shape, new Rng(7));
    const [referenceAdam, fusedAdam] = [createAdam(3e-3), createAdam(3e-3)];
    const update = new FusedPpoUpdate(VITE_SHADERS, device);
    const [referenceRng, fusedRng] = [new Rng(9), new Rng(9)];
    const batch = await makePpoBatch(device, reference, batchShape, STEPS, ROWS, 21, { rowOf: rowOf(A) });
    try {
      expect(update.refusal(fusedPolicy, batch, SETTINGS)).toBeNull();
      const order = gpuMinibatchOrder(STEPS, SETTINGS, gpuMinibatches(STEPS, SETTINGS, referenceRng).key);
      await ppoUpdate(reference, referenceAdam, batch, SETTINGS, referenceRng, order);
      await update.updateDeferred(fusedPolicy, fusedAdam, batch, SETTINGS, fusedRng);
      const [a, b] = [await reference.weights(), await fusedPolicy.weights()];
      a.forEach((w, i) => {
        if (i === C2) expect(Math.max(...Array.from(b[i], Math.abs))).toBeLessThanOrEqual(8 * 2 * 3e-3);
        else expect(relativeError(b[i], w), `${env}: variable ${i}`).toBeLessThanOrEqual(i === C1 ? C1_TOLERANCE : 1e-5);
      });
    } finally {
      disposePpoBatch(batch);
      update.dispose();
      reference.dispose();
      fusedPolicy.dispose();
      referenceAdam.dispose();
      fusedAdam.dispose();
    }
  }, 300_000);
});
