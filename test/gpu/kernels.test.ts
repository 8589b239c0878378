/**
 * The WGSL advantage kernels (src/gpu/, shaders/) against the CPU reference (src/advantages/), on
 * tfjs's WebGPU backend on Dawn (SwiftShader here): layouts, parity over random batches, the exact
 * zeros docs/maths.md §4 promises, buffer ownership and leaks, and errors that name their kernel.
 */
import fc from 'fast-check';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { estimateAdvantages as computeAdvantages, methodSpec } from '../../src/methods/registry.ts';
import type { AdvantageBatch, AdvantageResult, AdvantageSettings } from '../../src/advantages/types.ts';
import { DEFAULT_ADVANTAGE_SETTINGS } from '../../src/config.ts';
import { createGpuAdvantageEngine } from '../../src/engine/gpu-engine.ts';
import { GpuAdvantageEstimator } from '../../src/gpu/advantage-estimator.ts';
import { batchToTensors, type AdvantageTensors } from '../../src/gpu/advantage-tensors.ts';
import { COMBINE_ADVANTAGES } from '../../src/gpu/combine-advantages.ts';
import { composedAdvantages } from '../../bench/composed-ops.ts';
import { GRIDHOUSE_STEP } from '../../src/gpu/gridhouse-step.ts';
import { GROUP_REDUCE } from '../../src/gpu/group-reduce.ts';
import { FUSED_PPO_KERNELS, FUSED_PPO_MAX_ACTIONS, FUSED_PPO_MAX_HIDDEN } from '../../src/gpu/fused-ppo.ts';
import { cachedPipelineCount, GpuKernelError, KernelRunner, type KernelSpec } from '../../src/gpu/kernel.ts';
import { reflectKernel } from '../../src/gpu/kernel-reflect.ts';
import { KERNEL_SEEDS } from '../../src/gpu/kernel-spec.ts';
import { MAX_SEEDS } from '../../src/setting-limits.ts';
import { POLICY_LOGITS } from '../../src/gpu/policy-logits.ts';
import { GRIDHOUSE_ROLLOUT, SHOP_ROLLOUT, TEXTHOUSE_ROLLOUT } from '../../src/gpu/episode-rollout.ts';
import { SAMPLE_ACTIONS } from '../../src/gpu/sample-actions.ts';
import { SEGMENT_PARTIAL_BYTES, SEGMENT_SCAN } from '../../src/gpu/segment-scan.ts';
import { STEP_GROUP_REDUCE } from '../../src/gpu/step-group-reduce.ts';
import { STEP_RETURNS } from '../../src/gpu/step-returns.ts';
import { TEXTHOUSE_STEP } from '../../src/gpu/texthouse-step.ts';
import { SHOP_STEP } from '../../src/gpu/shop-step.ts';
import { KERNEL_NAMES } from '../../src/gpu/shader-source.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { VITE_SHADER_FILES, VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { packUniforms } from '../../src/gpu/uniforms.ts';
import { reflectBindings, reflectStruct } from '../../src/gpu/wgsl-layout.ts';
import { Rng } from '../../src/prng.ts';
import { PPO_GATHER } from '../../src/gpu/ppo-gather.ts';
import { MINIBATCH_PERMUTATION } from '../../src/gpu/minibatch-permutation.ts';
import { CANDIDATE_RANKS, CANDIDATE_ROWS, DICTIONARY_SLOTS } from '../../src/gpu/candidate-dictionary.ts';
import { CREDIT_METRICS_KEYS, CREDIT_METRICS_STEPS, FIXED_SCALE, KEY_WORDS, TOTALS } from '../../src/gpu/credit-metrics.ts';
import { ZERO_ADVANTAGE } from '../../src/advantages/types.ts';
import { FINAL_RECORDS, FINAL_SCAN_WIDTH, FINAL_WORDS } from '../../src/gpu/final-records.ts';
import { MILESTONE_FLAG } from '../../src/trainer/rollout-records.ts';
import { wgslConsts } from '../support/env-parity.ts';
import { makeBatch, type RunSpec } from '../support/batches.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

/** The method's estimator switches, as its spec gives them (docs/maths.md §4). */
const switchesOf = (s: { method: string }) => methodSpec(s.method).switches!;
const BEACON_SWITCHES = methodSpec('beacon').switches!;

const SPECS: KernelSpec<string, string>[] = [
  SEGMENT_SCAN,
  GROUP_REDUCE,
  COMBINE_ADVANTAGES,
  STEP_RETURNS,
  STEP_GROUP_REDUCE,
  SAMPLE_ACTIONS,
  GRIDHOUSE_STEP,
  TEXTHOUSE_STEP,
  SHOP_STEP,
  POLICY_LOGITS,
  ...FUSED_PPO_KERNELS,
  GRIDHOUSE_ROLLOUT,
  TEXTHOUSE_ROLLOUT,
  SHOP_ROLLOUT,
  PPO_GATHER,
  MINIBATCH_PERMUTATION,
  CANDIDATE_RANKS,
  CANDIDATE_ROWS,
  CREDIT_METRICS_STEPS,
  CREDIT_METRICS_KEYS,
  FINAL_RECORDS,
];

// ---- Helpers: batches, tolerance. ----

const PATTERNS = ['none', 'all', 'sparse', 'dense', 'success'] as const;

/** A run of `length` steps whose milestones follow `pattern`, drawn from the project's seeded PRNG. */
function milestonePattern(length: number, pattern: (typeof PATTERNS)[number], seed: number): number[] {
  const rng = new Rng(seed);
  const m = Array.from({ length }, () => 0);
  for (let t = 0; t < length; t++) {
    if (pattern === 'all') m[t] = 1;
    else if (pattern === 'sparse') m[t] = rng.bernoulli(0.05) ? 1 : 0;
    else if (pattern === 'dense' || pattern === 'success') m[t] = rng.bernoulli(0.3) ? 1 : 0;
  }
  if (pattern === 'success') m[length - 1] = 1; // a successful run ends on its last milestone: no tail
  return m;
}

/** Runs of length 1 … 256 (often short), every milestone pattern, groups of 2 … 64, 1 … 3 groups. */
function arbGroups(maxGroupSize = 64) {
  const run = fc
    .record({
      length: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 256 })),
      pattern: fc.constantFrom(...PATTERNS),
      reward: fc.constantFrom(0, 0.5, 1, 10),
      seed: fc.integer({ min: 0, max: 2 ** 31 }),
    })
    .map(({ length, pattern, reward, seed }): RunSpec => ({ reward, milestones: milestonePattern(length, pattern, seed) }));
  const group = fc.oneof(fc.array(run, { minLength: 2, maxLength: 4 }), fc.array(run, { minLength: 2, maxLength: maxGroupSize }));
  return fc.array(group, { minLength: 1, maxLength: 3 });
}

function arbSettings() {
  return fc.record({
    method: fc.constantFrom('grpo' as const, 'beacon' as const),
    gamma: fc.constantFrom(0, 0.5, 0.95, 1),
    lambda: fc.constantFrom(0, 0.5, 1, 2),
    rMs: fc.constantFrom(0.1, 1, 10),
    normalize: fc.constantFrom('meanStd' as const, 'mean' as const),
    segmentBaseline: fc.constantFrom('perStepReturn' as const, 'stepMean' as const),
    trajectoryTerm: fc.boolean(),
    variant: fc.constantFrom('paper' as const, 'released' as const),
  });
}

/**
 * f32 GPU value `a` against the f64 reference `b`: |a − b| ≤ 1e-5 · max(1, |b|).
 *
 * Relative alone would fail near 0: every A is a difference of O(1) terms (R_i − mean, r_t − b_k,
 * A_traj + λ·A_seg), and f32 rounds each term to ~6e-8 of its own size, not of the difference's. When
 * the terms cancel, that rounding stays behind as an absolute error of order 1e-7 × the terms while
 * the exact result is ~0, so the bound is relative to the terms' scale (≥ 1 here) below |b| = 1.
 */
function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const b = expected[i];
    if (!(Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b)))) {
      expect.fail(`${what}[${i}]: GPU ${a}, CPU ${b} (|diff| ${Math.abs(a - b)})`);
    }
  }
}

function expectResultClose(gpu: AdvantageResult, cpu: AdvantageResult): void {
  expectClose(gpu.shapedRewards, cpu.shapedRewards, 'shapedRewards');
  expectClose(gpu.trajectoryAdvantages, cpu.trajectoryAdvantages, 'trajectoryAdvantages');
  expectClose(gpu.segmentAdvantages, cpu.segmentAdvantages, 'segmentAdvantages');
  expectClose(gpu.advantages, cpu.advantages, 'advantages');
}

const beacon = (over: Partial<AdvantageSettings> = {}): AdvantageSettings => ({ ...DEFAULT_ADVANTAGE_SETTINGS, ...over });

// ---- Layouts: the TS tables against the WGSL text (no GPU needed). ----

describe('kernel sources and layouts', () => {
  it('the Vite (?raw) and Node (disk) loaders give the same text for every kernel', () => {
    const node = readShaderSources();
    for (const name of KERNEL_NAMES) {
      expect(VITE_SHADERS[name].length).toBeGreaterThan(100);
      expect(node[name]).toBe(VITE_SHADERS[name]);
    }
  });

  it.each(SPECS.map((s) => [s.name, s] as const))('%s: Params struct and bindings, reflected from the WGSL, match the runner’s tables', (_, spec) => {
    const wgsl = VITE_SHADERS[spec.name];
    const layout = reflectKernel(spec, wgsl); // throws naming the first field or binding that differs
    expect(layout.fields.map(({ name, type }) => [name, type])).toEqual(spec.params.map(([name, type]) => [name, type]));
    expect(layout.structSize).toBe(reflectStruct(wgsl, 'Params').size);
    expect(layout.bufferSize % 16).toBe(0);
    expect(layout.bufferSize).toBeGreaterThanOrEqual(layout.structSize);
    // A kernel with a seed axis binds one Params per seed (kernel-spec.ts `seeds`), KERNEL_SEEDS of them.
    expect(reflectBindings(wgsl).map((b) => b.name)).toEqual([spec.seeds ? 'seedParams' : 'params', ...spec.storage.map(([name]) => name)]);
    if (spec.seeds) {
      expect(layout.bufferSize).toBe(KERNEL_SEEDS * layout.structSize);
      expect(layout.structSize % 16, 'a uniform array element is a multiple of 16 bytes').toBe(0);
      expect(wgsl).toContain(`var<uniform> seedParams: array<Params, KERNEL_SEEDS>;`);
    }
    expect(wgsl).toMatch(/override WORKGROUP_SIZE: u32/);
    expect(wgsl).toMatch(/@workgroup_size\(WORKGROUP_SIZE\)/);
  });

  it('the rollout records’ constants are the TypeScript ones: dictionary slots, final record words and scan width, the milestone flag’s bit', () => {
    expect(wgslConsts(VITE_SHADER_FILES['lib/candidate_dictionary.wgsl']).get('DICTIONARY_SLOTS')).toBe(DICTIONARY_SLOTS);
    expect(wgslConsts(VITE_SHADER_FILES['final-records.wgsl']).get('FINAL_WORDS')).toBe(FINAL_WORDS);
    expect(wgslConsts(VITE_SHADER_FILES['final-records.wgsl']).get('FINAL_SCAN_WIDTH')).toBe(FINAL_SCAN_WIDTH);
    expect(VITE_SHADER_FILES['lib/rollout.wgsl']).toContain(`const MILESTONE_FLAG = 0x${MILESTONE_FLAG.toString(16)};`);
    for (const file of ['segment-scan.wgsl', 'lib/credit_metrics.wgsl'])
      expect(wgslConsts(VITE_SHADER_FILES[file]).get('MILESTONE_BIT'), file).toBe(Math.log2(MILESTONE_FLAG));
    // The credit metrics' layouts and constants (src/gpu/credit-metrics.ts).
    const metricsLib = VITE_SHADER_FILES['lib/credit_metrics.wgsl'];
    const metrics = wgslConsts(metricsLib);
    expect(metrics.get('KEY_WORDS')).toBe(KEY_WORDS);
    for (const [name, word] of Object.entries(TOTALS)) expect(metrics.get(`T_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`), name).toBe(word);
    expect(metricsLib).toContain(`const FIXED_SCALE = ${FIXED_SCALE}.0;`);
    expect(metricsLib).toContain(`const ZERO_ADVANTAGE = ${ZERO_ADVANTAGE.toExponential()};`);
    expect(VITE_SHADER_FILES['ppo-gather.wgsl']).toContain(`const ACTION_BITS = 0x${(MILESTONE_FLAG - 1).toString(16)};`);
  });

  it('the fused PPO kernels import their Params and offsets from shaders/lib/ppo_batch.wgsl, one struct for all seven', () => {
    const module = VITE_SHADER_FILES['lib/ppo_batch.wgsl'];
    // (Its imports, WESL's, are not WGSL: the reflection reads the module without them.)
    const params = reflectStruct(module.replace(/^import [^\n]*$/gm, ''), 'Params');
    expect(module).toContain(`const MAX_HIDDEN = ${FUSED_PPO_MAX_HIDDEN}u;`);
    expect(module).toContain(`const MAX_ACTIONS = ${FUSED_PPO_MAX_ACTIONS}u;`);
    expect(wgslConsts(VITE_SHADER_FILES['lib/dispatch.wgsl']).get('KERNEL_SEEDS')).toBe(KERNEL_SEEDS);
    expect(KERNEL_SEEDS, 'every seed the settings allow on webgpu fits one dispatch').toBe(MAX_SEEDS.webgpu);
    for (const spec of FUSED_PPO_KERNELS) {
      const file = VITE_SHADER_FILES[`${spec.name}.wgsl`];
      expect(file, spec.name).toMatch(/^import package::lib::ppo_batch::\{seedParams, Params,/m);
      expect(file, spec.name).toMatch(/let params = seedParams\[[a-zA-Z.]+\.z\];/);
      expect(file, spec.name).not.toMatch(/struct Params|var<uniform>/);
      expect(reflectStruct(VITE_SHADERS[spec.name], 'Params'), spec.name).toEqual(params);
    }
  });

  it('a field added to a WGSL Params, or a binding renamed, fails naming it; offsets follow the WGSL', () => {
    const wgsl = VITE_SHADERS['step-returns'];
    const widened = wgsl.replace('numRuns: u32,', 'numRuns: u32,\n  extra: vec2<u32>,');
    expect(widened).not.toBe(wgsl);
    expect(() => reflectKernel(STEP_RETURNS, widened)).toThrow(
      /WGSL kernel step-returns: struct Params field 1 is extra: vec2\S* in the WGSL but gamma: f32 in the runner's table/,
    );
    // The offsets come from the WGSL's layout rules (vec2<u32> aligns to 8), not from the TS table.
    const gamma = reflectStruct(widened, 'Params').fields.find((f) => f.name === 'gamma');
    expect(gamma?.offset).toBe(16);
    const renamed = wgsl.replace('var<storage, read> rewards', 'var<storage, read> returns').replaceAll('rewards[', 'returns[');
    expect(() => reflectKernel(STEP_RETURNS, renamed)).toThrow(/binding 2 is "2 storage read returns" in the WGSL but "2 storage read rewards"/);
  });

  it('SegmentPartial (shaders/lib/segments.wgsl) has the TS stride in both kernels that share it', () => {
    const a = reflectStruct(VITE_SHADERS['segment-scan'], 'SegmentPartial');
    const b = reflectStruct(VITE_SHADERS['group-reduce'], 'SegmentPartial');
    expect(a).toEqual(b);
    expect(a.size).toBe(SEGMENT_PARTIAL_BYTES);
  });

  it('packs uniforms at the reflected offsets, and rejects values that do not fit', () => {
    const layout = reflectKernel(SEGMENT_SCAN, VITE_SHADERS['segment-scan']);
    const bytes = new DataView(
      packUniforms(layout, { numRuns: 7, numGroups: 3, shaping: 1, rMs: 2.5, gamma: 0.95, milestoneRecord: 0, runsPerSeed: 7, seedStride: 0 }),
    );
    expect([bytes.getUint32(0, true), bytes.getUint32(4, true), bytes.getUint32(8, true)]).toEqual([7, 3, 1]);
    expect(bytes.getFloat32(12, true)).toBe(2.5);
    expect(bytes.getFloat32(16, true)).toBe(Math.fround(0.95));
    expect(() =>
      packUniforms(layout, { numRuns: -1, numGroups: 3, shaping: 1, rMs: 2.5, gamma: 0.95, milestoneRecord: 0, runsPerSeed: 7, seedStride: 0 }),
    ).toThrow(/numRuns/);
  });
});

// ---- On the GPU. ----

describe('WGSL advantage kernels on tfjs webgpu (Dawn)', () => {
  let device: GPUDevice;
  let estimator: GpuAdvantageEstimator;

  beforeAll(async () => {
    ({ device } = await useWebGpuBackend());
    estimator = new GpuAdvantageEstimator(VITE_SHADERS);
  });
  afterAll(() => estimator?.dispose());

  /** Runs the kernels on `batch` and returns the read-back result; disposes every tensor it made. */
  async function onGpu(batch: AdvantageBatch, settings: AdvantageSettings, e = estimator): Promise<AdvantageResult> {
    const before = tf.memory().numTensors;
    const inputs = batchToTensors(batch);
    try {
      const out = await e.compute(inputs, settings, switchesOf(settings), { details: true });
      expect(tf.memory().numTensors).toBe(before + 5); // the 4 inputs and the result, nothing else
      // The tensor the loss gets holds exactly the values read back.
      expect(Array.from(await out.advantages.data())).toEqual(Array.from(out.details!.advantages));
      out.advantages.dispose();
      return out.details!;
    } finally {
      tf.dispose(Object.values(inputs));
      expect(tf.memory().numTensors).toBe(before);
    }
  }

  it('parity with the CPU reference over random batches, settings and baselines', async () => {
    await fc.assert(
      fc.asyncProperty(arbGroups(), arbSettings(), async (groups, settings) => {
        const batch = makeBatch(groups);
        expectResultClose(await onGpu(batch, settings), computeAdvantages(batch, settings));
      }),
      { numRuns: 60 },
    );
  });

  it('parity at every sweep point: γ ∈ {0, 0.5, 0.95, 1} × both baselines × both normalisations', async () => {
    // One group of 64 runs of lengths 1 … 256 (all patterns) and a group of 2: run and step counts that
    // are not multiples of the workgroup size, k beyond 64 (several passes of the baseline loop).
    const rng = new Rng(11);
    const big = Array.from(
      { length: 64 },
      (_, i): RunSpec => ({
        reward: [0, 1, 0.5, 10][i % 4],
        milestones: milestonePattern(1 + ((i * 37) % 256), PATTERNS[i % PATTERNS.length], rng.nextInt(2 ** 30)),
      }),
    );
    const batch = makeBatch([
      big,
      [
        { reward: 1, milestones: [1] },
        { reward: 0, milestones: [0] },
      ],
    ]);
    expect(batch.runOffsets[batch.runOffsets.length - 1] % 64).not.toBe(0);
    for (const gamma of [0, 0.5, 0.95, 1]) {
      for (const segmentBaseline of ['perStepReturn', 'stepMean'] as const) {
        for (const normalize of ['meanStd', 'mean'] as const) {
          const settings = beacon({ gamma, segmentBaseline, normalize, rMs: 10, lambda: 2 });
          expectResultClose(await onGpu(batch, settings), computeAdvantages(batch, settings));
        }
      }
      for (const normalize of ['meanStd', 'mean'] as const) {
        const settings = beacon({ gamma, normalize, rMs: 10, lambda: 2, variant: 'released' });
        expectResultClose(await onGpu(batch, settings), computeAdvantages(batch, settings));
      }
    }
  });

  it('the smallest batch: one group of two one-step runs', async () => {
    const batch = makeBatch([
      [
        { reward: 1, milestones: [1] },
        { reward: 0, milestones: [0] },
      ],
    ]);
    for (const settings of [beacon(), beacon({ segmentBaseline: 'stepMean' }), beacon({ method: 'grpo' })]) {
      expectResultClose(await onGpu(batch, settings), computeAdvantages(batch, settings));
    }
  });

  it.each([1, 48, 256])('gives the same numbers with workgroup size %i', async (workgroupSize) => {
    const e = new GpuAdvantageEstimator(VITE_SHADERS, { workgroupSize });
    try {
      await fc.assert(
        fc.asyncProperty(arbGroups(), arbSettings(), async (groups, settings) => {
          const batch = makeBatch(groups);
          expectResultClose(await onGpu(batch, settings, e), computeAdvantages(batch, settings));
        }),
        { numRuns: 8 },
      );
    } finally {
      e.dispose();
    }
  });

  it('γ = 1 makes A_seg exactly 0, so BEACON equals GRPO bit for bit (docs/maths.md §4, 1)', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbGroups(16),
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        fc.constantFrom('meanStd' as const, 'mean' as const),
        async (groups, rMs, normalize) => {
          const batch = makeBatch(groups);
          const be = await onGpu(batch, beacon({ gamma: 1, rMs, normalize }));
          const gr = await onGpu(batch, beacon({ method: 'grpo', normalize }));
          expect(be.segmentAdvantages.every((a) => a === 0)).toBe(true);
          expect(Array.from(be.advantages)).toEqual(Array.from(gr.advantages));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('a tied group gives exactly 0, for any reward value and group size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 2, max: 64 }), async (r, n) => {
        const batch = makeBatch([Array.from({ length: n }, () => ({ reward: r, milestones: [0, 1, 0] }))]);
        for (const normalize of ['meanStd', 'mean'] as const) {
          const res = await onGpu(batch, beacon({ method: 'grpo', normalize }));
          expect(res.trajectoryAdvantages.every((a) => a === 0)).toBe(true);
          expect(res.advantages.every((a) => a === 0)).toBe(true);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('released variant: tied groups, tied keys and one-row keys give exactly 0 (docs/maths.md §4, items 1–3)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.integer({ min: 2, max: 32 }), async (r, n) => {
        // Identical runs at γ = 1: every trajectory row and every key's r is tied.
        const tied = makeBatch([Array.from({ length: n }, () => ({ reward: r, milestones: [0, 1, 0, 1, 0] }))]);
        // One run reaching three milestones, the other none: keys (g, 1) and (g, 2) hold one row each.
        const single = makeBatch([
          [
            { reward: r, milestones: [1, 1, 1] },
            { reward: 0, milestones: Array(n).fill(0) },
          ],
        ]);
        for (const normalize of ['meanStd', 'mean'] as const) {
          const a = await onGpu(tied, beacon({ variant: 'released', gamma: 1, rMs: r, normalize }));
          expect(a.advantages.every((x) => x === 0)).toBe(true);
          const b = await onGpu(single, beacon({ variant: 'released', gamma: 0.9, rMs: r, normalize }));
          expect([b.segmentAdvantages[1], b.segmentAdvantages[2]]).toEqual([0, 0]);
          expectResultClose(b, computeAdvantages(single, beacon({ variant: 'released', gamma: 0.9, rMs: r, normalize })));
        }
      }),
      { numRuns: 10 },
    );
  });

  it('released variant, meanStd: a key of thousands of tail zeros and a few completed steps stays within f32 tolerance', async () => {
    // The key's std must be summed around its baseline: around its first value it loses ~1e-4.
    for (const n of [200, 1000]) {
      const batch = makeBatch([
        [
          { reward: 1, milestones: [1] },
          { reward: 1, milestones: [0, 0, 0, 1] },
          ...Array.from({ length: 6 }, () => ({ reward: 0, milestones: Array(n).fill(0) })),
        ],
      ]);
      const settings = beacon({ variant: 'released', rMs: 10, gamma: 0.95 });
      expectResultClose(await onGpu(batch, settings), computeAdvantages(batch, settings));
    }
  });

  it(`runs ${GpuAdvantageEstimator.DISPATCHES} dispatches per call (at most 4), and compiles each pipeline once`, async () => {
    const batch = makeBatch([
      [
        { reward: 1, milestones: [0, 1] },
        { reward: 0, milestones: [0] },
      ],
    ]);
    await onGpu(batch, beacon());
    const pipelines = cachedPipelineCount(device);
    const spy = vi.spyOn(KernelRunner.prototype, 'record'); // recorded into one command buffer (kernel.ts submitDispatches)
    try {
      await onGpu(batch, beacon());
      expect(spy).toHaveBeenCalledTimes(GpuAdvantageEstimator.DISPATCHES);
      expect(GpuAdvantageEstimator.DISPATCHES).toBeLessThanOrEqual(4);
    } finally {
      spy.mockRestore();
    }
    const second = new GpuAdvantageEstimator(VITE_SHADERS);
    await onGpu(batch, beacon(), second);
    second.dispose();
    expect(cachedPipelineCount(device)).toBe(pipelines);
  });

  it('the advantages tensor feeds tfjs ops directly, and stays valid while any tensor shares its data', async () => {
    const batch = makeBatch([
      [
        { reward: 1, milestones: [0, 1, 1] },
        { reward: 0, milestones: [0, 0] },
      ],
      [
        { reward: 0, milestones: [1] },
        { reward: 1, milestones: [1] },
      ],
    ]);
    const settings = beacon();
    const expected = computeAdvantages(batch, settings).advantages;
    const inputs = batchToTensors(batch);
    const { advantages } = await estimator.compute(inputs, settings, switchesOf(settings));
    const clone = advantages.clone();
    const loss = tf.tidy(() => tf.sum(tf.mul(advantages, advantages)));
    expectClose([(await loss.data())[0]], [expected.reduce((s, a) => s + a * a, 0)], 'Σ A²');
    advantages.dispose(); // the clone still shares the buffer: the next call must not reuse it
    const other = await estimator.compute(inputs, beacon({ method: 'grpo' }), methodSpec('grpo').switches!);
    expectClose(await clone.data(), expected, 'clone after the next call');
    tf.dispose([clone, loss, other.advantages, ...Object.values(inputs)]);
  });

  it('leaks no tensor and no GPU buffer across 100 calls', async () => {
    const batches = [1, 2, 3].map((seed) => {
      const rng = new Rng(seed);
      return makeBatch(
        Array.from({ length: seed }, () =>
          Array.from({ length: 2 + rng.nextInt(6) }, () => ({
            reward: rng.nextInt(2),
            milestones: milestonePattern(1 + rng.nextInt(40), PATTERNS[rng.nextInt(PATTERNS.length)], rng.nextInt(1000)),
          })),
        ),
      );
    });
    const inputs: AdvantageTensors[] = batches.map((b) => batchToTensors(b));
    const e = new GpuAdvantageEstimator(VITE_SHADERS);
    const call = async (i: number) => {
      const { advantages } = await e.compute(inputs[i % 3], beacon({ segmentBaseline: i % 2 ? 'stepMean' : 'perStepReturn' }), BEACON_SWITCHES, {
        details: i % 5 === 0,
      });
      advantages.dispose();
    };
    for (let i = 0; i < 6; i++) await call(i); // warm up: pipelines, scratch sizes, one output per size
    const tensors = tf.memory().numTensors;
    const bytes = tf.memory().numBytes;
    const gpuBytes = (tf.memory() as { numBytesInGPU?: number }).numBytesInGPU;
    const buffers = e.liveBuffers;
    for (let i = 0; i < 100; i++) await call(i);
    expect(tf.memory().numTensors).toBe(tensors);
    expect(tf.memory().numBytes).toBe(bytes);
    expect((tf.memory() as { numBytesInGPU?: number }).numBytesInGPU).toBe(gpuBytes);
    expect(e.liveBuffers).toBe(buffers);
    expect(e.lentBuffers).toBeLessThanOrEqual(1);
    // Undisposed results keep their buffers lent; disposing them returns the buffers.
    const kept = [];
    for (let i = 0; i < 3; i++) kept.push((await e.compute(inputs[0], beacon(), BEACON_SWITCHES)).advantages);
    expect(e.lentBuffers).toBeGreaterThanOrEqual(3);
    tf.dispose(kept);
    await call(0);
    expect(e.lentBuffers).toBe(1);
    e.dispose();
    expect(e.liveBuffers).toBe(0);
    expect(tf.memory().numTensors).toBe(tensors);
    tf.dispose(inputs.flatMap((t) => Object.values(t)));
  });

  it('the trainer’s AdvantageEngine on the kernels: CPU batch in, loss tensor and read-back out', async () => {
    const engine = createGpuAdvantageEngine(VITE_SHADERS, methodSpec('beacon'));
    expect(engine.name).toBe('webgpu-kernels');
    const before = tf.memory().numTensors;
    for (const seed of [1, 2]) {
      const rng = new Rng(seed);
      const batch = makeBatch(
        [0, 1].map(() =>
          Array.from({ length: 4 }, () => ({ reward: rng.nextInt(2), milestones: milestonePattern(1 + rng.nextInt(30), 'dense', rng.nextInt(1000)) })),
        ),
      );
      const settings = beacon({ gamma: 0.5 });
      const { tensor, result } = await engine.compute(batch, settings);
      expect(tf.memory().numTensors).toBe(before + 1);
      expectResultClose(result, computeAdvantages(batch, settings));
      expect(Array.from(await tensor.data())).toEqual(Array.from(result.advantages));
      tensor.dispose();
    }
    engine.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('reports shader errors and GPU validation errors with the kernel’s name', async () => {
    const broken = { ...VITE_SHADERS, 'group-reduce': VITE_SHADERS['group-reduce'].replace('let kMax', 'let kMax: bool') };
    const e = new GpuAdvantageEstimator(broken);
    const inputs = batchToTensors(
      makeBatch([
        [
          { reward: 1, milestones: [1] },
          { reward: 0, milestones: [0] },
        ],
      ]),
    );
    const before = tf.memory().numTensors;
    await expect(e.compute(inputs, beacon(), BEACON_SWITCHES)).rejects.toThrow(/WGSL kernel group-reduce: [\s\S]*error at \d+:\d+/);
    expect(tf.memory().numTensors).toBe(before);
    e.dispose();

    const runner = await KernelRunner.create(device, COMBINE_ADVANTAGES, VITE_SHADERS['combine-advantages'], 64);
    const storage = () => device.createBuffer({ size: 64, usage: GPUBufferUsage.STORAGE });
    const notStorage = device.createBuffer({ size: 64, usage: GPUBufferUsage.COPY_DST });
    const buffers = {
      stepRun: storage(),
      stepSlot: storage(),
      shapedRewards: storage(),
      trajectoryAdvantages: storage(),
      baselines: storage(),
      segmentAdvantages: storage(),
      advantages: notStorage,
      segmentScales: storage(),
    };
    const error = await runner.dispatch(buffers, { numSteps: 4, segmentBaseline: 1, lambda: 1, segmentNormalize: 0 }, 1).catch((x: unknown) => x);
    expect(error).toBeInstanceOf(GpuKernelError);
    expect((error as GpuKernelError).kernel).toBe('combine-advantages');
    runner.destroy();
    Object.values(buffers).forEach((b) => b.destroy());
    tf.dispose(Object.values(inputs));
  });

  it('rejects malformed tensors and settings with a message naming the field', async () => {
    const batch = makeBatch([
      [
        { reward: 1, milestones: [1] },
        { reward: 0, milestones: [0] },
      ],
    ]);
    const inputs = batchToTensors(batch);
    const floatOffsets = { ...inputs, runOffsets: tf.tensor1d([0, 1, 2], 'float32') };
    await expect(estimator.compute(floatOffsets, beacon(), BEACON_SWITCHES)).rejects.toThrow(/runOffsets must be int32/);
    await expect(estimator.compute(inputs, beacon({ gamma: 1.5 }), BEACON_SWITCHES)).rejects.toThrow(/gamma/);
    expect(() => batchToTensors(makeBatch([[{ reward: 1, milestones: [1] }]]))).toThrow(/groups\[0\].*at least 2 runs/);
    tf.dispose([floatOffsets.runOffsets, ...Object.values(inputs)]);
  });

  it('the composed-tfjs-ops version used by the benchmark computes the same advantages', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbGroups(8),
        arbSettings().map((s) => ({ ...s, variant: 'paper' as const })),
        async (groups, settings) => {
          const batch = makeBatch(groups);
          const inputs = batchToTensors(batch);
          const before = tf.memory().numTensors;
          const a = composedAdvantages(inputs, settings);
          expect(tf.memory().numTensors).toBe(before + 1);
          expectClose(await a.data(), computeAdvantages(batch, settings).advantages, 'composed advantages');
          tf.dispose([a, ...Object.values(inputs)]);
        },
      ),
      { numRuns: 12 },
    );
  });
});
