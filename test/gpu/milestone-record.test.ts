/**
 * The advantages' milestone flags read in place from a GPU rollout's step-major action records (the
 * segment scan's `milestoneRecord`, src/gpu/advantage-tensors.ts): the engine's advantages from them
 * equal, bit for bit, those from the batch's flags uploaded by the host, whatever the runs' lengths,
 * and the host writes neither the S flags nor the B + 1 offsets (the rollout's, on the GPU).
 */
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdvantageBatch } from '../../src/advantages/types.ts';
import { callsBetween, installWebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import { DEFAULT_ADVANTAGE_SETTINGS } from '../../src/config.ts';
import { createGpuAdvantageEngine } from '../../src/engine/gpu-engine.ts';
import type { RolloutRecords } from '../../src/gpu/ppo-gather.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { methodSpec } from '../../src/methods/registry.ts';
import { Rng } from '../../src/prng.ts';
import { MILESTONE_FLAG } from '../../src/trainer/rollout-records.ts';
import { uploadBuffer } from '../support/gpu-buffers.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

let device: GPUDevice;
beforeAll(async () => {
  ({ device } = await useWebGpuBackend());
});

/**
 * A batch of two groups of `G` runs, seeded, and the step-major action records a rollout would leave
 * for it: each slot's action with the flag bit set where Φ fired; unused slots hold garbage with the bit set.
 */
function batchAndRecords(seed: number, G: number): { batch: AdvantageBatch; records: RolloutRecords; actions: Int32Array } {
  const rng = new Rng(seed);
  const B = 2 * G;
  const lengths = Array.from({ length: B }, () => 1 + rng.nextInt(12));
  const runOffsets = Int32Array.from({ length: B + 1 }, (_, b) => lengths.slice(0, b).reduce((x, y) => x + y, 0));
  const S = runOffsets[B];
  const milestones = Uint8Array.from({ length: S }, () => (rng.nextFloat() < 0.3 ? 1 : 0));
  const T = Math.max(...lengths);
  const actions = new Int32Array(T * B).fill(MILESTONE_FLAG | 7);
  for (let b = 0; b < B; b++)
    for (let s = runOffsets[b]; s < runOffsets[b + 1]; s++) actions[(s - runOffsets[b]) * B + b] = rng.nextInt(8) | (milestones[s] ? MILESTONE_FLAG : 0);
  const batch: AdvantageBatch = {
    groupOffsets: Int32Array.of(0, G, B),
    runOffsets,
    milestones,
    rewards: Float64Array.from({ length: B }, () => rng.nextInt(2)),
  };
  const empty = uploadBuffer(device, new Float32Array(1));
  return {
    batch,
    records: { obs: empty, actions: uploadBuffer(device, actions), logProbs: empty, runOffsets, offsets: uploadBuffer(device, runOffsets), milestones: true },
    actions,
  };
}

describe('milestone flags read in the rollout’s records', () => {
  it.each([
    [4, 16],
    [1, 2],
    [3, 33],
  ])(
    'give the engine the same advantages as the host’s flags and offsets, bit for bit, and the host writes neither (seed %i, groups of %i)',
    async (seed, G) => {
      const engine = createGpuAdvantageEngine(VITE_SHADERS, methodSpec('beacon'));
      const counter = installWebGpuCallCounter();
      const tensors = tf.memory().numTensors;
      try {
        const { batch, records } = batchAndRecords(seed, G);
        const S = batch.milestones.length;
        const outputs: Float32Array[] = [];
        const written: number[] = [];
        // Twice each, the second counted (the first compiles and makes the buffers).
        for (let round = 0; round < 2; round++)
          for (const onGpu of [undefined, records]) {
            const before = counter.read();
            const { tensor, result } = await engine.compute(batch, DEFAULT_ADVANTAGE_SETTINGS, onGpu);
            const calls = callsBetween(before, counter.read());
            outputs.push((await tensor.data()) as Float32Array);
            expect(Array.from(result.advantages)).toEqual(Array.from(outputs.at(-1)!));
            tensor.dispose();
            if (round === 1) written.push(calls.bytesWritten);
          }
        for (const out of outputs.slice(1)) expect(Array.from(out)).toEqual(Array.from(outputs[0]));
        expect(outputs[0].some((a) => a !== 0)).toBe(true);
        // Neither the S flags nor the B + 1 offsets are written.
        const B = batch.runOffsets.length - 1;
        expect(written[0] - written[1]).toBe(4 * S + 4 * (B + 1));
        expect(tf.memory().numTensors, 'no tensor left behind').toBe(tensors);
        records.actions.destroy();
        records.offsets.destroy();
        records.obs.destroy();
      } finally {
        counter.uninstall();
        engine.dispose();
      }
    },
  );
});
