/**
 * GiGPO on the WGSL kernels (step-returns, group-reduce for A_E, step-group-reduce) against the CPU
 * reference (src/advantages/gigpo.ts), on tfjs's WebGPU backend on Dawn: parity over random keyed
 * batches, the exact zeros of ties and singleton step groups, ω = 0 against the GRPO kernels, dispatch
 * count, the engine, and no leaks over 100 calls.
 */
import fc from 'fast-check';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildStepGroupIndex, computeGigpo, type GigpoResult, type GigpoSettings } from '../../src/advantages/gigpo.ts';
import type { AdvantageBatch } from '../../src/advantages/types.ts';
import { DEFAULT_ADVANTAGE_SETTINGS, DEFAULT_GIGPO_SETTINGS } from '../../src/config.ts';
import { createGpuAdvantageEngine } from '../../src/engine/gpu-engine.ts';
import { methodSpec } from '../../src/methods/registry.ts';
import { GpuAdvantageEstimator } from '../../src/gpu/advantage-estimator.ts';
import { batchToTensors, type AdvantageTensors } from '../../src/gpu/advantage-tensors.ts';
import { cachedPipelineCount, KernelRunner } from '../../src/gpu/kernel.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Rng } from '../../src/prng.ts';
import { keyedRun, makeKeyedBatch, type KeyedRun } from '../support/batches.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

const gigpo = (over: Partial<GigpoSettings> = {}): GigpoSettings => ({ ...DEFAULT_GIGPO_SETTINGS, ...over });

/** f32 GPU value against the f64 reference: |a − b| ≤ 1e-5 · max(1, |b|) (see kernels.test.ts). */
/**
 * Within 1e-5 of `expected`, relative to the larger of |expected| and `scale`: an advantage is a
 * difference of returns, so float32's rounding is relative to the returns' size, not to the difference
 * (rewards of 10 can leave 1.7e-5 on an advantage near 0).
 */
function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string, scale = 1): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const b = expected[i];
    if (!(Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b), scale))) expect.fail(`${what}[${i}]: GPU ${a}, CPU ${b} (|diff| ${Math.abs(a - b)})`);
  }
}

function expectGigpoClose(gpu: GigpoResult, cpu: GigpoResult): void {
  const scale = cpu.stepReturns.reduce((m, r) => Math.max(m, Math.abs(r)), 0);
  expectClose(gpu.stepReturns, cpu.stepReturns, 'stepReturns');
  expectClose(gpu.episodeAdvantages, cpu.episodeAdvantages, 'episodeAdvantages', scale);
  expectClose(gpu.stepAdvantages, cpu.stepAdvantages, 'stepAdvantages', scale);
  expectClose(gpu.advantages, cpu.advantages, 'advantages', scale);
  expect(gpu.anchorCoverage).toBe(cpu.anchorCoverage);
}

/** Steps whose step group is a singleton or holds equal returns (CPU): their A_S must be exactly 0. */
function structuralZeros(batch: AdvantageBatch, keys: Uint32Array, cpu: GigpoResult): number[] {
  const index = buildStepGroupIndex(batch, keys);
  const out: number[] = [];
  for (let s = 0; s < index.numStepGroups; s++) {
    const members = Array.from(index.members.subarray(index.offsets[s], index.offsets[s + 1]));
    if (members.every((t) => cpu.stepReturns[t] === cpu.stepReturns[members[0]])) out.push(...members);
  }
  return out;
}

/** Runs of 1 … 64 steps (sometimes 200), keys from a small alphabet (shared states) or a wide one. */
function arbKeyedGroups(maxGroupSize = 16) {
  const run = fc
    .record({
      reward: fc.constantFrom(0, 0.5, 1, 10),
      length: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 64 }), fc.constant(200)),
      alphabet: fc.constantFrom(1, 3, 8, 1000),
      seed: fc.integer({ min: 0, max: 2 ** 31 }),
    })
    .map(({ reward, length, alphabet, seed }): KeyedRun => {
      const rng = new Rng(seed);
      return keyedRun(
        reward,
        Array.from({ length }, () => rng.nextInt(alphabet)),
      );
    });
  return fc.array(fc.array(run, { minLength: 2, maxLength: maxGroupSize }), { minLength: 1, maxLength: 3 });
}

function arbSettings() {
  return fc.record({
    gamma: fc.constantFrom(0, 0.5, 0.95, 1),
    omega: fc.constantFrom(0, 0.5, 1, 2),
    normalize: fc.constantFrom('meanStd' as const, 'mean' as const),
    variant: fc.constantFrom('paper' as const, 'released' as const),
  });
}

describe('GiGPO on tfjs webgpu (Dawn)', () => {
  let estimator: GpuAdvantageEstimator;

  beforeAll(async () => {
    await useWebGpuBackend();
    estimator = new GpuAdvantageEstimator(VITE_SHADERS);
  });
  afterAll(() => estimator?.dispose());

  /** Runs GiGPO's kernels on the batch and returns the read-back; disposes every tensor it made. */
  async function onGpu(batch: AdvantageBatch, keys: Uint32Array, settings: GigpoSettings, e = estimator): Promise<GigpoResult> {
    const before = tf.memory().numTensors;
    const inputs = batchToTensors(batch);
    try {
      const out = await e.computeGigpo(inputs, buildStepGroupIndex(batch, keys), settings, { details: true });
      expect(tf.memory().numTensors).toBe(before + 5);
      expect(Array.from(await out.advantages.data())).toEqual(Array.from(out.details!.advantages));
      out.advantages.dispose();
      return out.details!;
    } finally {
      tf.dispose(Object.values(inputs));
      expect(tf.memory().numTensors).toBe(before);
    }
  }

  it('parity with the CPU reference over random keyed batches, both variants and normalisations', async () => {
    await fc.assert(
      fc.asyncProperty(arbKeyedGroups(), arbSettings(), async (groups, settings) => {
        const { batch, keys } = makeKeyedBatch(groups);
        const cpu = computeGigpo(batch, keys, settings);
        const gpu = await onGpu(batch, keys, settings);
        expectGigpoClose(gpu, cpu);
        // Singleton and tied step groups: exactly 0 on the GPU too.
        for (const t of structuralZeros(batch, keys, cpu)) expect(gpu.stepAdvantages[t], `A_S[${t}]`).toBe(0);
        cpu.episodeAdvantages.forEach((a, i) => {
          if (a === 0) expect(gpu.episodeAdvantages[i], `A_E[${i}]`).toBe(0);
        });
      }),
      { numRuns: 50 },
    );
  });

  it.each([1, 48, 256])('gives the same numbers with workgroup size %i', async (workgroupSize) => {
    const e = new GpuAdvantageEstimator(VITE_SHADERS, { workgroupSize });
    try {
      await fc.assert(
        fc.asyncProperty(arbKeyedGroups(), arbSettings(), async (groups, settings) => {
          const { batch, keys } = makeKeyedBatch(groups);
          expectGigpoClose(await onGpu(batch, keys, settings, e), computeGigpo(batch, keys, settings));
        }),
        { numRuns: 6 },
      );
    } finally {
      e.dispose();
    }
  });

  it('the hand-worked example: repeated state, singletons (docs/maths.md §7)', async () => {
    // test/advantages/gigpo.test.ts: A = 1/3, 1/2, 13/12 | −11/12, −1/2 at γ = 0.5, mean.
    const { batch, keys } = makeKeyedBatch([[keyedRun(1, [7, 8, 7]), keyedRun(0, [7, 9])]]);
    const gpu = await onGpu(batch, keys, gigpo({ gamma: 0.5, normalize: 'mean' }));
    expectClose(gpu.advantages, [1 / 3, 0.5, 13 / 12, -11 / 12, -0.5], 'advantages');
    expect(gpu.stepAdvantages[1]).toBe(0);
    expect(gpu.stepAdvantages[4]).toBe(0);
    expect(gpu.anchorCoverage).toBe(0.6);
  });

  it('a step group of thousands of steps, few of them non-zero, stays within f32 tolerance (meanStd)', async () => {
    // A found counterexample, scaled up: the std's sum of squares needs compensation in f32.
    const { batch, keys } = makeKeyedBatch([[keyedRun(10, [0, 0, 0, 0, 0]), ...[9, 2, 200, 200, 200, 1000].map((n) => keyedRun(0, Array(n).fill(0)))]]);
    for (const gamma of [0.5, 0.95]) {
      const settings = gigpo({ gamma, normalize: 'meanStd' });
      expectGigpoClose(await onGpu(batch, keys, settings), computeGigpo(batch, keys, settings));
    }
  });

  it('identical runs give exactly 0 everywhere, for any reward and both normalisations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 2, max: 32 }), fc.constantFrom(0.5, 0.95, 1), async (r, n, gamma) => {
        const { batch, keys } = makeKeyedBatch([Array.from({ length: n }, () => keyedRun(r, [3, 1, 4, 1, 5]))].map((g) => g));
        for (const normalize of ['meanStd', 'mean'] as const) {
          for (const variant of ['paper', 'released'] as const) {
            // State 1 is visited twice per run at different distances from the end: not a tie.
            const res = await onGpu(batch, keys, gigpo({ normalize, variant, gamma }));
            expect(res.episodeAdvantages.every((a) => a === 0)).toBe(true);
            for (const t of [0, 2, 4].flatMap((u) => Array.from({ length: n }, (_, i) => 5 * i + u))) expect(res.stepAdvantages[t]).toBe(0);
          }
        }
      }),
      { numRuns: 10 },
    );
  });

  it('ω = 0 gives the GRPO kernels’ advantages bit for bit (paper and released)', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbKeyedGroups(8),
        fc.constantFrom('meanStd' as const, 'mean' as const),
        fc.constantFrom('paper' as const, 'released' as const),
        async (groups, normalize, variant) => {
          const { batch, keys } = makeKeyedBatch(groups);
          const g = await onGpu(batch, keys, gigpo({ omega: 0, normalize, variant }));
          const inputs = batchToTensors(batch);
          const grpo = await estimator.compute(inputs, { ...DEFAULT_ADVANTAGE_SETTINGS, method: 'grpo', normalize, variant }, methodSpec('grpo').switches!, {
            details: true,
          });
          expect(Array.from(g.advantages)).toEqual(Array.from(grpo.details!.advantages));
          tf.dispose([grpo.advantages, ...Object.values(inputs)]);
        },
      ),
      { numRuns: 10 },
    );
  });

  it(`runs ${GpuAdvantageEstimator.GIGPO_DISPATCHES} dispatches per call, and compiles each pipeline once`, async () => {
    const { batch, keys } = makeKeyedBatch([[keyedRun(1, [0, 1]), keyedRun(0, [0])]]);
    await onGpu(batch, keys, gigpo());
    const pipelines = cachedPipelineCount(estimator.device);
    const spy = vi.spyOn(KernelRunner.prototype, 'record'); // recorded into one command buffer (kernel.ts submitDispatches)
    try {
      await onGpu(batch, keys, gigpo());
      expect(spy).toHaveBeenCalledTimes(GpuAdvantageEstimator.GIGPO_DISPATCHES);
    } finally {
      spy.mockRestore();
    }
    const second = new GpuAdvantageEstimator(VITE_SHADERS);
    await onGpu(batch, keys, gigpo(), second);
    second.dispose();
    expect(cachedPipelineCount(estimator.device)).toBe(pipelines);
  });

  it('leaks no tensor and no GPU buffer across 100 calls (GiGPO mixed with BEACON)', async () => {
    const data = [1, 2, 3].map((seed) => {
      const rng = new Rng(seed);
      return makeKeyedBatch(
        Array.from({ length: seed }, () =>
          Array.from({ length: 2 + rng.nextInt(6) }, () =>
            keyedRun(
              rng.nextInt(2),
              Array.from({ length: 1 + rng.nextInt(40) }, () => rng.nextInt(6)),
            ),
          ),
        ),
      );
    });
    const inputs: AdvantageTensors[] = data.map(({ batch }) => batchToTensors(batch));
    const indexes = data.map(({ batch, keys }) => buildStepGroupIndex(batch, keys));
    const e = new GpuAdvantageEstimator(VITE_SHADERS);
    const call = async (i: number) => {
      const out =
        i % 4 === 3
          ? await e.compute(inputs[i % 3], { ...DEFAULT_ADVANTAGE_SETTINGS, variant: 'released' }, methodSpec(DEFAULT_ADVANTAGE_SETTINGS.method).switches!)
          : await e.computeGigpo(inputs[i % 3], indexes[i % 3], gigpo({ variant: i % 2 ? 'released' : 'paper' }), { details: i % 5 === 0 });
      out.advantages.dispose();
    };
    // Warm up: pipelines, scratch sizes, one output per size, every input uploaded by both paths (i = 11).
    for (let i = 0; i < 12; i++) await call(i);
    const tensors = tf.memory().numTensors;
    const gpuBytes = (tf.memory() as { numBytesInGPU?: number }).numBytesInGPU;
    const buffers = e.liveBuffers;
    for (let i = 0; i < 100; i++) await call(i);
    expect(tf.memory().numTensors).toBe(tensors);
    expect((tf.memory() as { numBytesInGPU?: number }).numBytesInGPU).toBe(gpuBytes);
    expect(e.liveBuffers).toBe(buffers);
    expect(e.lentBuffers).toBeLessThanOrEqual(1);
    e.dispose();
    expect(e.liveBuffers).toBe(0);
    tf.dispose(inputs.flatMap((t) => Object.values(t)));
  });

  it('the engine’s computeGigpo: CPU batch and state keys in, loss tensor and GigpoResult out', async () => {
    const engine = createGpuAdvantageEngine(VITE_SHADERS, methodSpec('gigpo'));
    const before = tf.memory().numTensors;
    const { batch, keys } = makeKeyedBatch([[keyedRun(1, [0, 1, 2, 1]), keyedRun(0, [0, 2]), keyedRun(1, [0, 1])]]);
    const settings = gigpo({ gamma: 0.9 });
    const { tensor, result } = await engine.computeGigpo(batch, keys, settings);
    expect(tf.memory().numTensors).toBe(before + 1);
    expectGigpoClose(result, computeGigpo(batch, keys, settings));
    expect(Array.from(await tensor.data())).toEqual(Array.from(result.advantages));
    tensor.dispose();
    await expect(engine.computeGigpo(batch, keys.slice(1), settings)).rejects.toThrow(/stateKeys must have one entry per step/);
    engine.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('rejects an index that does not fit the batch, and bad settings, naming them', async () => {
    const a = makeKeyedBatch([[keyedRun(1, [0, 1]), keyedRun(0, [0])]]);
    const b = makeKeyedBatch([[keyedRun(1, [0]), keyedRun(0, [0])]]);
    const inputs = batchToTensors(a.batch);
    await expect(estimator.computeGigpo(inputs, buildStepGroupIndex(b.batch, b.keys), gigpo())).rejects.toThrow(/step-group index/);
    await expect(estimator.computeGigpo(inputs, buildStepGroupIndex(a.batch, a.keys), gigpo({ omega: Number.NaN }))).rejects.toThrow(/omega/);
    tf.dispose(Object.values(inputs));
  });
});
