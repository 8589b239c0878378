/**
 * Several seeds' dual-scale and GiGPO advantages in one set of dispatches (src/gpu/seed-advantages.ts, met in
 * src/trainer/seed-meeting.ts), on batches written by hand with per-step milestone flags (the trainer's
 * seeds read theirs from the action records: test/trainer/seed-batch-webgpu.test.ts): seeds of
 * different group counts and run lengths each get, bit for bit, the values they get alone.
 */
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStepGroupIndex, type GigpoResult, type GigpoSettings } from '../../src/advantages/gigpo.ts';
import type { AdvantageBatch, AdvantageResult, AdvantageSettings } from '../../src/advantages/types.ts';
import { DEFAULT_ADVANTAGE_SETTINGS } from '../../src/config.ts';
import { GpuAdvantageEstimator } from '../../src/gpu/advantage-estimator.ts';
import { batchToTensors } from '../../src/gpu/advantage-tensors.ts';
import { type SeedAdvantageCall, submitSeedAdvantages } from '../../src/gpu/seed-advantages.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { methodSpec } from '../../src/methods/registry.ts';
import { Rng } from '../../src/prng.ts';
import { SeedMeeting } from '../../src/trainer/seed-meeting.ts';
import { keyedRun, makeBatch, makeKeyedBatch, type RunSpec } from '../support/batches.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

/** `groups` groups of `size` runs of 1 to 9 steps, flags and rewards drawn from `rng`. */
function drawBatch(rng: Rng, groups: number, size: number): AdvantageBatch {
  const run = (): RunSpec => ({
    reward: rng.nextInt(3) / 2,
    milestones: Array.from({ length: 1 + rng.nextInt(9) }, () => (rng.nextInt(4) === 0 ? 1 : 0)),
  });
  return makeBatch(Array.from({ length: groups }, () => Array.from({ length: size }, run)));
}

const settingsOf = (over: Partial<AdvantageSettings>): AdvantageSettings => ({ ...DEFAULT_ADVANTAGE_SETTINGS, ...over });

describe('seeds side by side: their advantages in one set of dispatches', () => {
  let estimators: GpuAdvantageEstimator[];
  const meeting = new SeedMeeting<SeedAdvantageCall>('test seed advantages', submitSeedAdvantages);

  beforeAll(async () => {
    await useWebGpuBackend();
    estimators = [0, 1, 2].map(() => new GpuAdvantageEstimator(VITE_SHADERS));
    estimators.forEach((e, i) => (e.seat = meeting.seat(i)));
  });
  afterAll(() => {
    for (const e of estimators ?? []) e.dispose();
    meeting.dispose();
  });

  /** Seed `i`'s advantages on its estimator, alone or (with `host`) at the meeting; every tensor it makes disposed. */
  async function advantagesOf(i: number, batch: AdvantageBatch, settings: AdvantageSettings, joined: boolean): Promise<AdvantageResult> {
    const inputs = batchToTensors(batch);
    try {
      const out = await estimators[i].compute(inputs, settings, methodSpec(settings.method).switches!, { details: true, ...(joined ? { host: batch } : {}) });
      // The tensor the seed's update gets holds exactly its values.
      expect(Array.from(await out.advantages.data())).toEqual(Array.from(out.details!.advantages));
      out.advantages.dispose();
      return out.details!;
    } finally {
      tf.dispose(Object.values(inputs));
    }
  }

  it.each([
    ['beacon', { method: 'beacon' as const, gamma: 0.9 }],
    ['grpo', { method: 'grpo' as const }],
    ['beacon, released variant', { method: 'beacon' as const, variant: 'released' as const, segmentBaseline: 'stepMean' as const }],
  ])('%s: each of 3 seeds of different sizes gets the values it gets alone; a seed that leaves is not waited for', async (_, over) => {
    const settings = settingsOf(over as Partial<AdvantageSettings>);
    const rng = new Rng(7);
    const batches = [drawBatch(rng, 2, 3), drawBatch(rng, 3, 2), drawBatch(rng, 1, 4)];
    const tensors = tf.memory().numTensors;
    const alone: AdvantageResult[] = [];
    for (const [i, batch] of batches.entries()) alone.push(await advantagesOf(i, batch, settings, false));
    const rounds = meeting.rounds;
    meeting.arm(3);
    const together = await Promise.all(batches.map((batch, i) => advantagesOf(i, batch, settings, true)));
    expect(meeting.rounds).toBe(rounds + 1);
    together.forEach((r, i) => expect(r, `seed ${i}`).toEqual(alone[i]));
    // Seed 1 leaves before it comes: seeds 0 and 2 meet without it.
    meeting.arm(3);
    meeting.leave(1);
    const [first, last] = await Promise.all([advantagesOf(0, batches[0], settings, true), advantagesOf(2, batches[2], settings, true)]);
    expect(meeting.rounds).toBe(rounds + 2);
    expect(first).toEqual(alone[0]);
    expect(last).toEqual(alone[2]);
    expect(tf.memory().numTensors, 'tensors stay flat').toBe(tensors);
  });

  it("GiGPO: each of 3 seeds of different sizes gets the values it gets alone (its step groups apart from the others')", async () => {
    const settings: GigpoSettings = { gamma: 0.9, omega: 1, normalize: 'meanStd', variant: 'paper' };
    const rng = new Rng(11);
    // Few distinct keys, so that step groups hold several steps; every seed has keys the others have too.
    const keyedBatch = (groups: number, size: number) =>
      makeKeyedBatch(
        Array.from({ length: groups }, () =>
          Array.from({ length: size }, () =>
            keyedRun(
              rng.nextInt(3) / 2,
              Array.from({ length: 1 + rng.nextInt(6) }, () => rng.nextInt(4)),
            ),
          ),
        ),
      );
    const seeds = [keyedBatch(2, 3), keyedBatch(3, 2), keyedBatch(1, 4)];
    const gigpoOf = async (i: number, joined: boolean): Promise<GigpoResult> => {
      const { batch, keys } = seeds[i];
      const inputs = batchToTensors(batch);
      try {
        const out = await estimators[i].computeGigpo(inputs, buildStepGroupIndex(batch, keys), settings, { details: true, ...(joined ? { host: batch } : {}) });
        out.advantages.dispose();
        return out.details!;
      } finally {
        tf.dispose(Object.values(inputs));
      }
    };
    const alone: GigpoResult[] = [];
    for (let i = 0; i < seeds.length; i++) alone.push(await gigpoOf(i, false));
    const rounds = meeting.rounds;
    meeting.arm(3);
    const together = await Promise.all(seeds.map((_, i) => gigpoOf(i, true)));
    expect(meeting.rounds).toBe(rounds + 1);
    together.forEach((r, i) => expect(r, `seed ${i}`).toEqual(alone[i]));
  });

  it('seeds of different settings are refused, naming what differs', async () => {
    const rng = new Rng(3);
    const batches = [drawBatch(rng, 2, 2), drawBatch(rng, 2, 2)];
    meeting.arm(2);
    const results = await Promise.allSettled([
      advantagesOf(0, batches[0], settingsOf({ method: 'beacon', gamma: 0.9 }), true),
      advantagesOf(1, batches[1], settingsOf({ method: 'beacon', gamma: 0.5 }), true),
    ]);
    for (const r of results) expect(r.status === 'rejected' && String(r.reason)).toMatch(/must share settings/);
  });
});
