/**
 * The final records' pass (shaders/final-records.wgsl, src/gpu/final-records.ts): each run's compact
 * final record gathered from its episode record, the run-major batch's B + 1 step offsets scanned
 * from the lengths, at batch sizes under, at and over the workgroup's width (chunks of one run, of
 * several, and a last chunk cut short), the same records packed for the host (unpacked by
 * `unpackHostFinal`), and the sampled runs' steps: the log-probabilities, action words and state keys
 * of the runs the permutation's CPU twin names, as the host's check draws them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FINAL_RECORDS, FINAL_SCAN_WIDTH, FINAL_WORDS, recordFinalRecords, SAMPLE_WORDS, unpackHostFinal } from '../../src/gpu/final-records.ts';
import { KernelRunner } from '../../src/gpu/kernel.ts';
import { permutedIndex } from '../../src/gpu/minibatch-permutation.ts';
import { CHECKED_RUNS } from '../../src/trainer/log-prob-check.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Rng } from '../../src/prng.ts';
import { emptyBuffer, readBack, uploadBuffer } from '../support/gpu-buffers.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

let device: GPUDevice;
beforeAll(async () => {
  ({ device } = await useWebGpuBackend());
});

/** An episode record's layout for the test: 7 words, the fields at these words (no outcome where `graded` is false). */
const WORDS = 7;
const fields = (graded: boolean) => ({
  done: 1,
  steps: 2,
  success: 5,
  milestone: 4,
  milestonesReached: 0,
  numMilestones: 6,
  stateKey: 4,
  ...(graded ? { outcome: 3 } : {}),
});

describe('final records', () => {
  it.each([1, 8, FINAL_SCAN_WIDTH, FINAL_SCAN_WIDTH + 1, 1000, 4096])(
    '%i runs: the compact records, the run offsets, the packed records, the sample’s steps',
    async (B) => {
      const rng = new Rng(B);
      const graded = B % 2 === 0;
      const f = fields(graded);
      const T = 300;
      // The live records, then room for the reset records, then the rollout's draw key (lib/rollout.wgsl seedKey), which keys the sample.
      const episodes = Uint32Array.from({ length: 2 * B * WORDS + B + 2 }, () => rng.nextUint32());
      // Fields within their environments' ranges (final-records.ts HOST_FINAL_BITS): up to 1,024 steps, 8 milestones.
      for (let b = 0; b < B; b++) {
        const e = b * WORDS;
        episodes[e + f.steps] = 1 + rng.nextInt(b === 0 ? 1024 : T);
        episodes[e + f.success] = rng.nextInt(2);
        episodes[e + f.numMilestones] = rng.nextInt(9);
        episodes[e + f.milestonesReached] = rng.nextInt(episodes[e + f.numMilestones] + 1);
      }
      const maxSteps = 1024;
      const logProbRecord = Float32Array.from({ length: maxSteps * B }, () => -rng.nextFloat());
      // Action words (the milestone flag above the action), then the state keys, as lib/rollout.wgsl records them.
      const actionRecord = Uint32Array.from({ length: 2 * maxSteps * B }, (_, i) => (i < maxSteps * B ? rng.nextInt(0x20000) : rng.nextUint32()));
      const sample = { runs: Math.min(CHECKED_RUNS, B), maxSteps, key: { key0: rng.nextUint32(), key1: rng.nextUint32() } };
      episodes.set([sample.key.key0, sample.key.key1], 2 * B * WORDS + B);
      const runner = await KernelRunner.create(device, FINAL_RECORDS, VITE_SHADERS[FINAL_RECORDS.name], FINAL_SCAN_WIDTH);
      const buffers = {
        episodes: uploadBuffer(device, episodes),
        finals: emptyBuffer(device, 4 * B * FINAL_WORDS),
        runOffsets: emptyBuffer(device, 4 * (B + 1)),
        logProbRecord: uploadBuffer(device, logProbRecord),
        actionRecord: uploadBuffer(device, actionRecord),
        sampleSteps: emptyBuffer(device, 4 * SAMPLE_WORDS * CHECKED_RUNS * maxSteps),
        hostFinals: emptyBuffer(device, 2 * 4 * B),
      };
      try {
        const encoder = device.createCommandEncoder();
        const pass = encoder.beginComputePass();
        recordFinalRecords(pass, runner, B, WORDS, f, sample, buffers);
        pass.end();
        device.queue.submit([encoder.finish()]);
        const finals = new Uint32Array(await readBack(device, buffers.finals));
        const offsets = new Int32Array(await readBack(device, buffers.runOffsets));
        const want = new Int32Array(B + 1);
        for (let b = 0; b < B; b++) {
          const e = b * WORDS;
          want[b + 1] = want[b] + episodes[e + f.steps];
          const record = [f.steps, f.success, f.milestonesReached, f.numMilestones].map((w) => episodes[e + w]);
          expect(Array.from(finals.subarray(b * FINAL_WORDS, (b + 1) * FINAL_WORDS)), `run ${b}`).toEqual([...record, graded ? episodes[e + 3] : 0]);
        }
        expect(Array.from(offsets)).toEqual(Array.from(want));
        const packed = new Uint32Array(await readBack(device, buffers.hostFinals));
        for (let b = 0; b < B; b++) {
          const e = b * WORDS;
          expect(unpackHostFinal(packed[b]), `run ${b} packed`).toEqual({
            steps: episodes[e + f.steps],
            success: episodes[e + f.success],
            milestonesReached: episodes[e + f.milestonesReached],
            numMilestones: episodes[e + f.numMilestones],
          });
          expect(packed[B + b], `run ${b}'s outcome`).toBe(graded ? episodes[e + 3] : 0);
        }
        const words = new Uint32Array(await readBack(device, buffers.sampleSteps));
        const logProbWords = new Uint32Array(logProbRecord.buffer);
        const block = sample.runs * maxSteps;
        for (let i = 0; i < sample.runs; i++) {
          const b = permutedIndex(i, B, sample.key, 0);
          const steps = episodes[b * WORDS + f.steps];
          const got = (k: number) => Array.from(words.subarray(k * block + i * maxSteps, k * block + i * maxSteps + steps));
          const want = (record: Uint32Array, at: number) => Array.from({ length: steps }, (_, t) => record[at + t * B + b]);
          expect(got(0), `sampled run ${i} (run ${b}): log-probabilities`).toEqual(want(logProbWords, 0));
          expect(got(1), `sampled run ${i} (run ${b}): action words`).toEqual(want(actionRecord, 0));
          expect(got(2), `sampled run ${i} (run ${b}): state keys`).toEqual(want(actionRecord, maxSteps * B));
        }
      } finally {
        runner.destroy();
        for (const buffer of Object.values(buffers)) buffer.destroy();
      }
    },
  );
});
