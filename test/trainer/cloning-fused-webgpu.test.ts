/**
 * Behaviour cloning through the fused update's kernels (src/trainer/cloning-fused.ts, the cloning loss
 * of shaders/ppo-step-loss.wgsl) against the tfjs-ops cloning of src/trainer/behaviour-cloning.ts on the
 * same demonstrations, on tfjs's WebGPU backend on Dawn (SwiftShader here): gradients against tfjs
 * autodiff, the weights after one step and after a few, the statistics, the calls it makes, and that
 * the trainer and the SFT prior take it on webgpu.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import '../../cli/register-gradients.ts';
import { callsBetween, installWebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { createAdam } from '../../src/backend/webgpu-adam.ts';
import { ownGpuBuffer } from '../../src/backend/webgpu-interop.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { FusedPpoKernels, variableSizes } from '../../src/gpu/fused-ppo.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { behaviourCloning, cloningAccuracy, cloningBatch, cloningLoss } from '../../src/trainer/behaviour-cloning.ts';
import type { Demonstrations } from '../../src/trainer/demonstrations.ts';
import { fusedBatchOf, fusedMinibatches } from '../../src/trainer/ppo-fused.ts';
import { minibatchInputs } from '../../src/trainer/ppo.ts';
import { trainSftPrior } from '../../src/trainer/sft-prior.ts';
import { Trainer } from '../../src/trainer/trainer.ts';
import { disposePpoBatch } from '../../src/trainer/update-batch.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';
import { relativeError } from '../support/relative-error.ts';

const SHAPE = { obsDim: 6, actionDim: 5, hiddenSize: 8 };
const A = 4;
/** Candidate rows the demonstrations draw from (repeats, so deduplication has work to do). */
const ROWS = 9;

let device: GPUDevice;
beforeAll(async () => {
  ({ device } = await useWebGpuBackend());
});

/** Seeded demonstrations of `steps` steps: candidate 0 always admissible, the others 70% of the time. */
function makeDemos(steps: number, seed: number): Demonstrations {
  const rng = new Rng(seed);
  const table = Float32Array.from({ length: ROWS * SHAPE.actionDim }, () => rng.nextFloat() * 2 - 1);
  const features = new Float32Array(steps * A * SHAPE.actionDim);
  for (let i = 0; i < steps * A; i++) {
    const row = Math.floor(rng.nextFloat() * ROWS);
    features.set(table.subarray(row * SHAPE.actionDim, (row + 1) * SHAPE.actionDim), i * SHAPE.actionDim);
  }
  const mask = Float32Array.from({ length: steps * A }, (_, i) => (i % A === 0 || rng.nextFloat() < 0.7 ? 1 : 0));
  const actions = Int32Array.from({ length: steps }, (_, s) => {
    const open = [0, 1, 2, 3].filter((a) => mask[s * A + a]);
    return open[Math.floor(rng.nextFloat() * open.length)];
  });
  const obs = Float32Array.from({ length: steps * SHAPE.obsDim }, () => rng.nextFloat() * 2 - 1);
  return { steps, episodes: 1, obs, features, mask, actions };
}

/** c2 shifts every logit alike: its gradient is 0 in exact arithmetic, rounding noise in both (as in ppo-fused-webgpu.test.ts). */
const C2 = 7;

const norm = (a: ArrayLike<number>) => Math.sqrt(Array.from(a).reduce((s, x) => s + x * x, 0));

const ADAM = { learningRate: 3e-3, beta1: 0.9, beta2: 0.999, epsilon: 1e-7 };

describe('fused behaviour cloning on webgpu', () => {
  let kernels: FusedPpoKernels;
  beforeAll(async () => {
    kernels = new FusedPpoKernels(device, VITE_SHADERS);
    await kernels.prepare(1); // compiles the pipelines (shared on the device): minutes on a busy SwiftShader
  }, 300_000);
  afterAll(() => kernels.dispose());

  it('gradients match tfjs autodiff of the cloning loss per variable (relative error ≤ 1e-4)', async () => {
    const policy = new Policy(SHAPE, new Rng(3));
    const demos = makeDemos(40, 11);
    const batch = cloningBatch(demos);
    try {
      const { perm, minibatches } = fusedMinibatches(40, { epochs: 1, minibatches: 2 }, new Rng(5));
      for (const mb of minibatches) {
        const indices = Int32Array.from(perm.subarray(mb.offset, mb.offset + mb.size));
        const grads = tf.tidy(() => {
          const { input, actions } = minibatchInputs(batch, indices);
          const { grads } = tf.variableGrads(() => cloningLoss(policy.logits(input), actions, A), policy.variables);
          return policy.variables.map((v) => tf.keep(grads[v.name]));
        });
        const reference = await Promise.all(grads.map((g) => g.data()));
        tf.dispose(grads);
        const fused = await kernels.gradients(
          { ...SHAPE, numActions: A },
          fusedBatchOf(batch, perm),
          mb,
          { clipRatio: 0, entropyCoef: 0, klCoef: 0, maxGradNorm: 1, ...ADAM, lossKind: 'cloning' },
          policy.variables.map(ownGpuBuffer),
        );
        const scale = norm(reference.flatMap((g) => Array.from(g)));
        let offset = 0;
        variableSizes(SHAPE).forEach((n, i) => {
          const got = fused.subarray(offset, offset + n);
          offset += n;
          if (i === C2) {
            expect(norm(got)).toBeLessThanOrEqual(1e-4 * scale);
            return;
          }
          expect(Math.max(...Array.from(reference[i], Math.abs)), `variable ${i} has a gradient`).toBeGreaterThan(0);
          expect(relativeError(got, reference[i]), `variable ${policy.variables[i].name}`).toBeLessThanOrEqual(1e-4);
        });
      }
    } finally {
      disposePpoBatch(batch);
      policy.dispose();
    }
  }, 180_000);

  /** The tfjs-ops cloning and the fused one from the same weights, demonstrations and rng seed. */
  async function both(demos: Demonstrations, settings: { epochs: number; minibatches: number; maxGradNorm: number }) {
    const reference = new Policy(SHAPE, new Rng(7));
    const fusedPolicy = new Policy(SHAPE, new Rng(7));
    const [referenceAdam, fusedAdam] = [createAdam(ADAM.learningRate), createAdam(ADAM.learningRate)];
    try {
      const want = await behaviourCloning(reference, referenceAdam, demos, settings, new Rng(9));
      const spy = vi.spyOn(kernels, 'update');
      const got = await behaviourCloning(fusedPolicy, fusedAdam, demos, settings, new Rng(9), kernels);
      expect(spy).toHaveBeenCalledTimes(1); // the fused path ran, in one update
      spy.mockRestore();
      expect(fusedAdam.iterations).toBe(referenceAdam.iterations);
      return { want, got, weights: [await reference.weights(), await fusedPolicy.weights()] };
    } finally {
      for (const d of [reference, fusedPolicy, referenceAdam, fusedAdam]) d.dispose();
    }
  }

  it('the weights after one cloning step match the tfjs-ops step (relative error ≤ 1e-5), the statistics too', async () => {
    const { want, got, weights } = await both(makeDemos(32, 21), { epochs: 1, minibatches: 1, maxGradNorm: 0.5 });
    expect(Math.abs(got.loss - want.loss)).toBeLessThanOrEqual(1e-5 * want.loss);
    expect(got.accuracy).toBe(want.accuracy);
    const [a, b] = weights;
    a.forEach((w, i) => {
      if (i === C2) expect(Math.max(...Array.from(b[i], Math.abs))).toBeLessThanOrEqual(4 * ADAM.learningRate);
      else expect(relativeError(b[i], w), `variable ${i}`).toBeLessThanOrEqual(1e-5);
    });
  }, 180_000);

  it('over epochs and minibatches: the same weights, and the statistics of the last epoch', async () => {
    const settings = { epochs: 3, minibatches: 3, maxGradNorm: 0.5 };
    const { want, got, weights } = await both(makeDemos(50, 31), settings);
    expect(want.loss).toBeGreaterThan(0);
    expect(Math.abs(got.loss - want.loss)).toBeLessThanOrEqual(1e-5 * want.loss);
    expect(got.accuracy).toBe(want.accuracy);
    const [a, b] = weights;
    a.forEach((w, i) => {
      if (i === C2) expect(Math.max(...Array.from(b[i], Math.abs))).toBeLessThanOrEqual(9 * 4 * ADAM.learningRate);
      else expect(relativeError(b[i], w), `variable ${i}`).toBeLessThanOrEqual(1e-4);
    });
  }, 300_000);

  it('accuracy counts the first of equal maxima, as tfjs argMax does', async () => {
    // Every candidate the same row: equal logits, so argMax is candidate 0 wherever it is admissible.
    const demos = makeDemos(24, 41);
    for (let i = 0; i < demos.features.length; i++) demos.features[i] = demos.features[i % SHAPE.actionDim];
    demos.actions.forEach((_, s) => {
      demos.actions[s] = s % 2 === 0 ? 0 : demos.mask.subarray(s * A, (s + 1) * A).lastIndexOf(1);
    });
    const { want, got } = await both(demos, { epochs: 1, minibatches: 1, maxGradNorm: 0.5 });
    const zeros = demos.actions.filter((a) => a === 0).length;
    expect(want.accuracy).toBeCloseTo(zeros / 24, 6); // the check is real: tfjs picks the first maximum
    expect(got.accuracy).toBe(want.accuracy);
  }, 180_000);

  it('makes 7 dispatches per minibatch, one submit (and tfjs flushes) and one read-back for the whole cloning', async () => {
    const policy = new Policy(SHAPE, new Rng(8));
    const adam = createAdam(1e-3);
    const counter = installWebGpuCallCounter();
    try {
      // The first cloning also makes Adam's moments (tfjs fills, 2 per variable): counted from the second on.
      for (const [epochs, minibatches] of [
        [1, 1],
        [2, 2],
        [3, 4],
      ]) {
        const demos = makeDemos(48, epochs);
        const before = counter.read();
        const stats = await behaviourCloning(policy, adam, demos, { epochs, minibatches, maxGradNorm: 0.5 }, new Rng(2), kernels);
        const calls = callsBetween(before, counter.read());
        expect(Number.isFinite(stats.loss)).toBe(true);
        if (epochs === 1) continue;
        expect(calls.dispatches, `${epochs} × ${minibatches}`).toBe(epochs * minibatches * FusedPpoKernels.DISPATCHES_PER_MINIBATCH);
        expect(calls.submits).toBeLessThanOrEqual(3);
        expect(calls.readBacks).toBe(1);
      }
      expect(FusedPpoKernels.DISPATCHES_PER_MINIBATCH).toBeLessThanOrEqual(8);
    } finally {
      counter.uninstall();
      adam.dispose();
      policy.dispose();
    }
  }, 180_000);

  it('the SFT method and the SFT prior clone through the fused kernels on webgpu', async () => {
    const config: TrainConfig = {
      ...DEFAULT_CONFIG,
      method: 'sft',
      backend: 'webgpu',
      env: 'gridhouse',
      horizon: 'tiny',
      tasksPerIteration: 2,
      groupSize: 2,
      hiddenSize: 8,
      epochs: 1,
      minibatches: 2,
      sftEpisodes: 2,
      sftEpochs: 1,
    };
    const spy = vi.spyOn(FusedPpoKernels.prototype, 'update');
    try {
      const prior = await trainSftPrior(config, VITE_SHADERS);
      expect(prior.every((w) => w.every(Number.isFinite))).toBe(true);
      expect(spy.mock.calls.map((c) => c[3].lossKind)).toEqual(['cloning']);
      const trainer = new Trainer(
        config,
        createAdvantageEngine('webgpu', 'sft', () => VITE_SHADERS),
        prior,
      );
      try {
        const record = await trainer.step();
        expect(Number.isFinite(record.policyLoss)).toBe(true);
      } finally {
        trainer.dispose();
      }
      expect(spy.mock.calls.map((c) => c[3].lossKind)).toEqual(['cloning', 'cloning']);
    } finally {
      spy.mockRestore();
    }
  }, 300_000);
});

describe('cloningLoss and cloningAccuracy', () => {
  it('are −mean log p of the demonstrated action and the share where it is the argMax', async () => {
    const logits = tf.tensor2d([
      [0, 1, -1e9],
      [2, 2, 0],
    ]);
    const actions = tf.tensor1d([1, 1], 'int32');
    const lse = (xs: number[]) => Math.log(xs.reduce((s, x) => s + Math.exp(x), 0));
    const want = -(1 - lse([0, 1]) + (2 - lse([2, 2, 0]))) / 2;
    const [loss, accuracy] = [cloningLoss(logits, actions, 3), cloningAccuracy(logits, actions)];
    expect((await loss.data())[0]).toBeCloseTo(want, 5);
    expect((await accuracy.data())[0]).toBe(0.5); // row 2 ties: argMax is the first, 0
    tf.dispose([logits, actions, loss, accuracy]);
  });
});
