/**
 * The credit metrics on the GPU (src/gpu/credit-metrics.ts, shaders/credit-metrics-*.wgsl) against
 * the CPU's `creditMetrics` (src/metrics/credit-metrics.ts) on the same batch laid out as a GPU
 * rollout leaves it: step-major action records with their milestone flags and state keys, final
 * records, run offsets. Batches draw actions and state keys from few values so that keys repeat within
 * and across runs, and advantages with zeros and both signs, so every metric is defined and non-trivial.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { creditMetrics, type CreditMetrics } from '../../src/metrics/credit-metrics.ts';
import { creditMetricsRefusal, decodeTotals, GpuCreditMetrics, keyTableSlots, type SeedMetricsCall } from '../../src/gpu/credit-metrics.ts';
import { submitSeedMetrics } from '../../src/gpu/seed-credit-metrics.ts';
import { FINAL_FIELDS, FINAL_WORDS } from '../../src/gpu/final-records.ts';
import { readTogether } from '../../src/gpu/pending-read.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Rng } from '../../src/prng.ts';
import { MILESTONE_FLAG } from '../../src/trainer/rollout-records.ts';
import { SeedMeeting } from '../../src/trainer/seed-meeting.ts';
import { uploadBuffer } from '../support/gpu-buffers.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

let device: GPUDevice;
beforeAll(async () => {
  ({ device } = await useWebGpuBackend());
});

/** A random batch of `groups` × `groupSize` runs of at most `maxSteps` steps, in the CPU's shape and the GPU records'. */
function batchOf(seed: number, groups: number, groupSize: number, maxSteps: number) {
  const rng = new Rng(seed);
  const B = groups * groupSize;
  const lengths = Array.from({ length: B }, () => 1 + rng.nextInt(maxSteps));
  const runOffsets = new Int32Array(B + 1);
  for (let b = 0; b < B; b++) runOffsets[b + 1] = runOffsets[b] + lengths[b];
  const S = runOffsets[B];
  const actions = Int32Array.from({ length: S }, () => rng.nextInt(3));
  const stateKeys = Uint32Array.from({ length: S }, () => (rng.nextInt(4) === 0 ? rng.nextUint32() : rng.nextInt(5)));
  const milestones = Uint8Array.from({ length: S }, () => (rng.nextInt(5) === 0 ? 1 : 0));
  const advantages = Float32Array.from({ length: S }, () => (rng.nextInt(4) === 0 ? 0 : (rng.nextFloat() - 0.5) * 6));
  const success = Uint8Array.from({ length: B }, () => (rng.nextInt(3) === 0 ? 1 : 0));
  const milestonesReached = Uint8Array.from({ length: B }, () => rng.nextInt(3));
  // The GPU rollout's layout: run b's step t at slot t · B + b, the state keys after maxSteps · B slots.
  const record = new Uint32Array(2 * maxSteps * B);
  for (let b = 0; b < B; b++)
    for (let s = runOffsets[b]; s < runOffsets[b + 1]; s++) {
      const slot = (s - runOffsets[b]) * B + b;
      record[slot] = actions[s] | (milestones[s] ? MILESTONE_FLAG : 0);
      record[maxSteps * B + slot] = stateKeys[s];
    }
  const finals = new Uint32Array(B * FINAL_WORDS);
  for (let b = 0; b < B; b++) {
    finals[b * FINAL_WORDS + FINAL_FIELDS.indexOf('success')] = success[b];
    finals[b * FINAL_WORDS + FINAL_FIELDS.indexOf('milestonesReached')] = milestonesReached[b];
  }
  const groupOffsets = Int32Array.from({ length: groups + 1 }, (_, g) => g * groupSize);
  const cpu = creditMetrics({
    batch: { groupOffsets, runOffsets, milestones, rewards: new Float64Array(B) },
    advantages,
    success,
    milestonesReached,
    stateKeys,
    actions,
  });
  return { B, S, maxSteps, record, finals, runOffsets, advantages, cpu };
}

async function onGpu(metrics: GpuCreditMetrics, batch: ReturnType<typeof batchOf>, groupSize: number): Promise<CreditMetrics> {
  const buffers = [
    uploadBuffer(device, batch.record),
    uploadBuffer(device, batch.runOffsets),
    uploadBuffer(device, batch.finals),
    uploadBuffer(device, batch.advantages),
  ];
  const [actions, offsets, finals, advantages] = buffers;
  try {
    const pending = await metrics.compute({ actions, stateKeysAt: batch.maxSteps * batch.B, offsets, finals }, advantages, batch.S, batch.B, groupSize);
    const [result] = await readTogether([pending]);
    return result;
  } finally {
    for (const b of buffers) b.destroy();
  }
}

function expectClose(gpu: CreditMetrics, cpu: CreditMetrics) {
  for (const [name, expected] of Object.entries(cpu) as [keyof CreditMetrics, number][]) {
    const actual = gpu[name];
    if (Number.isNaN(expected)) expect(actual, name).toBeNaN();
    // Counts' ratios are exact; the sums' differ by the fixed point's truncation (2^-24 a step).
    else expect(Math.abs(actual - expected), `${name}: GPU ${actual}, CPU ${expected}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(expected)));
  }
}

describe('credit metrics on the GPU', () => {
  it.each([
    [1, 1, 5],
    [2, 8, 12],
    [8, 8, 40],
    [64, 64, 6],
  ])('%i groups of %i runs, up to %i steps: the CPU’s metrics', async (groups, groupSize, maxSteps) => {
    const metrics = new GpuCreditMetrics(device, VITE_SHADERS);
    try {
      for (const seed of [1, 2]) {
        const batch = batchOf(seed * 1000 + groups, groups, groupSize, maxSteps);
        const gpu = await onGpu(metrics, batch, groupSize);
        expectClose(gpu, batch.cpu);
        if (groups * groupSize >= 16) {
          // The batches are built so that these are defined: a test of them, not of NaN.
          expect(batch.cpu.contradictoryRatio).toBeGreaterThan(0);
          expect(batch.cpu.signalRetention).toBeGreaterThan(0);
          expect(batch.cpu.ccr).toBeGreaterThan(0);
        }
      }
      // The buffers were zeroed after each batch: the same batch again gives the same metrics.
      const batch = batchOf(7, groups, groupSize, maxSteps);
      expect(await onGpu(metrics, batch, groupSize)).toEqual(await onGpu(metrics, batch, groupSize));
    } finally {
      metrics.dispose();
      expect(metrics.liveBuffers).toBe(0);
    }
  });

  it('sums of large advantages of both signs carry across the words exactly', async () => {
    // One key in two runs: A = +3000 and −1000.5 (|A| · 2^24 is over 2^32), and small ones elsewhere.
    const B = 2;
    const maxSteps = 2;
    const record = new Uint32Array(2 * maxSteps * B);
    record[maxSteps * B + 0] = 9; // run 0, step 0: state 9, action 0
    record[maxSteps * B + 1] = 9; // run 1, step 0: the same key
    record[maxSteps * B + 2] = 1;
    record[maxSteps * B + 3] = 2;
    const batch = {
      B,
      S: 4,
      maxSteps,
      record,
      finals: new Uint32Array(B * FINAL_WORDS),
      runOffsets: Int32Array.of(0, 2, 4),
      advantages: Float32Array.of(3000, 0.25, -1000.5, -0.125),
      cpu: {} as CreditMetrics,
    };
    const gpu = await onGpu(new GpuCreditMetrics(device, VITE_SHADERS), batch, 2);
    expect(gpu.signalRetention).toBe((3000 - 1000.5) / (3000 + 1000.5));
    expect(gpu.contradictoryRatio).toBe(1);
    expect(gpu.ccr).toBeNaN(); // no milestone steps
  });

  it('the key table is sized by the steps and refused past the binding limit', () => {
    expect(keyTableSlots(1)).toBe(64);
    expect(keyTableSlots(1000)).toBe(2048);
    expect(keyTableSlots(1024)).toBe(2048);
    expect(creditMetricsRefusal(1000, device)).toBeNull();
    expect(creditMetricsRefusal(2 ** 30, device)).toMatch(/key table \(\d+ bytes\) is over the adapter's binding limit/);
    expect(() =>
      decodeTotals(
        Uint32Array.from({ length: 18 }, (_, i) => (i === 17 ? 1 : 0)),
        1,
        1,
      ),
    ).toThrow(/overflowed/);
  });
});

describe('seeds side by side: their credit metrics in one pass of each kernel (src/gpu/seed-credit-metrics.ts)', () => {
  it('each of 3 seeds of different run lengths gets the metrics it gets alone, round after round; a seed that passes is not waited for', async () => {
    const meeting = new SeedMeeting<SeedMetricsCall>('test seed metrics', submitSeedMetrics);
    const seeds = [0, 1, 2].map(() => new GpuCreditMetrics(device, VITE_SHADERS));
    seeds.forEach((m, i) => (m.seat = meeting.seat(i)));
    try {
      const batches = [11, 12, 13].map((seed) => batchOf(seed, 4, 4, 10));
      expect(new Set(batches.map((b) => b.S)).size, 'the seeds differ in steps').toBe(3);
      const alone: CreditMetrics[] = [];
      for (const [i, b] of batches.entries()) alone.push(await onGpu(seeds[i], b, 4));
      for (let round = 1; round <= 2; round++) {
        meeting.arm(3);
        const together = await Promise.all(batches.map((b, i) => onGpu(seeds[i], b, 4)));
        expect(meeting.rounds).toBe(round);
        together.forEach((m, i) => {
          expect(m, `seed ${i}, round ${round}`).toEqual(alone[i]);
          expectClose(m, batches[i].cpu);
        });
      }
      meeting.arm(3);
      seeds[1].pass();
      const [first, last] = await Promise.all([onGpu(seeds[0], batches[0], 4), onGpu(seeds[2], batches[2], 4)]);
      expect([first, last]).toEqual([alone[0], alone[2]]);
      expect(meeting.rounds).toBe(3);
    } finally {
      for (const m of seeds) m.dispose();
      meeting.dispose();
      expect(meeting.liveBuffers).toBe(0);
    }
  });
});
