/**
 * The kernel model (bench/gpu-kernel-model.ts): serial depth and FLOPs per kernel version, by
 * hand-computed figures at GridHouse's real shapes, the GPU-written kernels' FLOPs at 4,096 runs within 2×
 * of the useful arithmetic (today's parity kernels are not), and the H200 estimate beside what the
 * H200 measured on 2026-12-04 (docs/results/device/h200-2026-12-04.json).
 */
import { describe, expect, it } from 'vitest';
import {
  CURRENT_KERNELS,
  DEVICES,
  KERNEL_VERSIONS,
  type KernelShape,
  kernelFlops,
  measuredShape,
  phaseEstimates,
  seedsEstimate,
  usefulFlops,
} from '../../bench/gpu-kernel-model.ts';

// GridHouse long at the page's width: D 94, F 33, A 8, H 64 (the shapes measured on the H200, 2026-12-04).
const GRIDHOUSE = { obsDim: 94, actionDim: 33, candidates: 8, hiddenSize: 64, epochs: 2, minibatches: 2 };
const AT_4096: KernelShape = { ...GRIDHOUSE, runs: 4096, envSteps: 479_129, distinctRows: 500 };
const DEFAULTS: KernelShape = { ...GRIDHOUSE, runs: 64, envSteps: 7_696, distinctRows: 232 };

describe('the kernel model', () => {
  it('reads the serial depth of each kernel version from its structure', () => {
    const sizes = { D: 94, F: 33, A: 8, H: 64, K: 500, M: 1000 };
    // A candidate lane of today's rollout: 33·64 + 64·64 = 6,208 dependent multiply-adds a step.
    expect(KERNEL_VERSIONS.parity.rolloutDepthPerStep(sizes)).toBe(6208);
    // The rollout written for the GPU: a lane per hidden unit, D + H for the observation tower, then H for a score.
    expect(KERNEL_VERSIONS.gpu.rolloutDepthPerStep(sizes)).toBe(94 + 64 + 64);
    // Its update: spans of M/128 rows, 128 spans, 256 pairs a segment, M·A/256 pieces, the tower once per row.
    expect(KERNEL_VERSIONS.gpu.updateDepthPerMinibatch(sizes)).toBe(94 + 64 + 8 + 64 + 8 + 128 + 256 + 32 + 33 + 64);
    // Today's update: one invocation sums over the M rows, then the K rows twice.
    expect(KERNEL_VERSIONS.parity.updateDepthPerMinibatch(sizes)).toBe(94 + 64 + 8 + 64 + 1000 + 1000);
    const e = phaseEstimates(KERNEL_VERSIONS.parity, DEFAULTS, DEVICES.h200);
    // 7,696 steps over 64 runs, (6,208 + 5 barriers) each: one wave of 64 workgroups.
    expect(e.rollout.depth).toBeCloseTo((7696 / 64) * 6213, 6);
    expect(e.rollout.serial.low).toBeCloseTo(e.rollout.depth * 20e-9, 12);
    expect(e.rollout.serial.high).toBeCloseTo(e.rollout.depth * 150e-9, 12);
    // At 4,096 runs: 1 wave with 32 workgroups per SM (4,224 at once), 4 with 8 (1,056 at once).
    const big = phaseEstimates(KERNEL_VERSIONS.parity, AT_4096, DEVICES.h200);
    expect(big.rollout.serial.high).toBeCloseTo(big.rollout.depth * 150e-9 * 4, 12);
    expect(big.rollout.serial.low).toBeCloseTo(big.rollout.depth * 20e-9 * 1, 12);
    // The update: epochs × minibatches chains of M + 2K + (D + H + A + H), M = 239,565.
    expect(big.update.depth).toBe(4 * (94 + 64 + 8 + 64 + 239_565 + 1000));
  });

  it('counts the kernels’ FLOPs per version: today’s rollout embeds every slot every step, its update builds a dense dS', () => {
    const S = AT_4096.envSteps;
    const parity = kernelFlops(KERNEL_VERSIONS.parity, AT_4096);
    const gpu = kernelFlops(KERNEL_VERSIONS.gpu, AT_4096);
    // Rollout as written: S · (2·(94·64 + 64·64) + 2·8·64 + 8 · 2·(33·64 + 64·64)) = S · 120,576 ≈ 57.8 GFLOP.
    expect(parity.rollout).toBe(S * 120_576);
    // Each distinct row embedded once: S · 21,248 + 500 · 12,416 ≈ 10.2 GFLOP.
    expect(gpu.rollout).toBe(S * 21_248 + 500 * 12_416);
    // The dense dS: 2·K·H = 64,000 a step an epoch where the segmented sum takes 2·A·H = 1,024.
    expect(parity.update - gpu.update).toBe(2 * S * (64_000 - 1_024));
  });

  it('puts the GPU-written kernels’ FLOPs per steady iteration at 4,096 runs within 2× of the useful arithmetic, and not today’s', () => {
    const useful = usefulFlops(AT_4096);
    // About 60 GFLOP: 10 for the rollout, 50 for the update (an estimate of the useful work read from the policy's sizes).
    expect(useful / 1e9).toBeGreaterThan(55);
    expect(useful / 1e9).toBeLessThan(65);
    expect(kernelFlops(KERNEL_VERSIONS.gpu, AT_4096).total / useful).toBeLessThanOrEqual(2);
    // The kernels this tree runs: the update's rows in blocks change its loads, not its FLOPs or chains.
    expect(CURRENT_KERNELS).toBe(KERNEL_VERSIONS.blocked);
    expect(kernelFlops(CURRENT_KERNELS, AT_4096)).toEqual(kernelFlops(KERNEL_VERSIONS.gpu, AT_4096));
    expect(phaseEstimates(CURRENT_KERNELS, AT_4096, DEVICES.h200)).toEqual(phaseEstimates(KERNEL_VERSIONS.gpu, AT_4096, DEVICES.h200));
    expect(kernelFlops(CURRENT_KERNELS, AT_4096).total / useful).toBeLessThanOrEqual(2);
    expect(kernelFlops(KERNEL_VERSIONS.parity, AT_4096).total / useful).toBeGreaterThan(2);
  });

  it('brackets what the H200 measured with today’s kernels, and takes the shapes from the recorded run', () => {
    // docs/results/device/h200-2026-12-04.json: rollout 98.1 ms and update 8.5 ms at the defaults; 291.9 and 408.2 ms at 4,096 runs.
    const measured = [
      { shape: measuredShape(64, 7696, 232), rollout: 0.0981, update: 0.0085 },
      { shape: measuredShape(4096, 479_129, 500), rollout: 0.2919, update: 0.4082 },
    ];
    for (const m of measured) {
      expect(m.shape).toMatchObject({ obsDim: 94, actionDim: 33, candidates: 8, hiddenSize: 64, epochs: 2, minibatches: 2 });
      const e = phaseEstimates(KERNEL_VERSIONS.parity, m.shape, DEVICES.h200);
      for (const phase of ['rollout', 'update'] as const) {
        expect(e[phase].total.low, `${m.shape.runs} runs, ${phase}`).toBeLessThanOrEqual(m[phase]);
        expect(e[phase].total.high, `${m.shape.runs} runs, ${phase}`).toBeGreaterThanOrEqual(m[phase]);
      }
    }
  });
});

describe("the kernel model's seeds side by side", () => {
  it('prices k seeds as one rollout and one update of k × the runs: more than one seed, far less than k in turn', () => {
    const one = seedsEstimate(CURRENT_KERNELS, DEFAULTS, 1, DEVICES.h200);
    expect(one.all).toBeCloseTo(one.one, 12);
    const eight = seedsEstimate(CURRENT_KERNELS, DEFAULTS, 8, DEVICES.h200);
    const single = phaseEstimates(CURRENT_KERNELS, DEFAULTS, DEVICES.h200);
    const joined = phaseEstimates(
      CURRENT_KERNELS,
      { ...DEFAULTS, runs: 8 * DEFAULTS.runs, envSteps: 8 * DEFAULTS.envSteps, distinctRows: 8 * DEFAULTS.distinctRows },
      DEVICES.h200,
    );
    const mid = (p: { total: { low: number; high: number } }) => (p.total.low + p.total.high) / 2;
    expect(eight.all).toBeCloseTo(mid(joined.rollout) + mid(joined.update), 12);
    // Both phases are latency-bound at the page defaults: eight seeds cost more than one, less than two.
    expect(eight.all).toBeGreaterThan(one.one);
    expect(eight.all).toBeLessThan(8 * mid(single.update) + mid(single.rollout));
    expect(eight.all).toBeLessThan(2 * eight.one);
  });
});
