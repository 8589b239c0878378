/**
 * The counter-based generator (src/gpu/counter-rng.ts) against Philox4x32-10's published known-answer
 * vectors, and the GPU sampler (shaders/sample-actions.wgsl) on Dawn against its CPU twin: every draw
 * u recomputed exactly from (seed, iteration, run, step), every action equal to the twin's unless u
 * lands within float32 rounding of a boundary of the inverse CDF, log-probabilities within rounding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { philox4x32, sampleFromLogits, uniformAt } from '../../src/gpu/counter-rng.ts';
import { KernelRunner } from '../../src/gpu/kernel.ts';
import { perEpisodeWorkgroups, SAMPLE_ACTIONS } from '../../src/gpu/sample-actions.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { Rng } from '../../src/prng.ts';
import { emptyBuffer, readBack, uploadBuffer } from '../support/gpu-buffers.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

const hex = (words: number[]) => words.map((w) => w.toString(16).padStart(8, '0'));

describe('Philox4x32-10 (TypeScript twin)', () => {
  it('gives the Random123 known-answer vectors', () => {
    expect(hex(philox4x32(0, 0, 0, 0, 0, 0))).toEqual(['6627e8d5', 'e169c58d', 'bc57ac4c', '9b00dbd8']);
    const ones = 0xffffffff;
    expect(hex(philox4x32(ones, ones, ones, ones, ones, ones))).toEqual(['408f276d', '41c83b0e', 'a20bc7c6', '6d5451fd']);
    expect(hex(philox4x32(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0))).toEqual(['d16cfe09', '94fdcceb', '5001e420', '24126ea1']);
  });

  it('draws differ across each coordinate and repeat for equal ones', () => {
    const base = { seed: 7, iteration: 3, run: 11, step: 5 };
    const u = uniformAt(base);
    expect(uniformAt({ ...base })).toBe(u);
    for (const key of ['seed', 'iteration', 'run', 'step'] as const) expect(uniformAt({ ...base, [key]: base[key] + 1 })).not.toBe(u);
  });

  it('draws are uniform enough: 20 000 of them fill 10 bins evenly (chi-square < 30)', () => {
    const bins = new Array<number>(10).fill(0);
    for (let run = 0; run < 200; run++) for (let step = 0; step < 100; step++) bins[Math.floor(uniformAt({ seed: 1, iteration: 0, run, step }) * 10)]++;
    const chi = bins.reduce((s, n) => s + (n - 2000) ** 2 / 2000, 0);
    expect(chi).toBeLessThan(30);
  });
});

describe('sample-actions kernel on WebGPU (Dawn)', () => {
  let device: GPUDevice;
  let runner: KernelRunner<string, string>;
  beforeAll(async () => {
    ({ device } = await useWebGpuBackend());
    runner = await KernelRunner.create(device, SAMPLE_ACTIONS, VITE_SHADERS['sample-actions'], 64);
  });
  afterAll(() => runner?.destroy());

  it.each([
    [1, 0, 8],
    [42, 7, 8],
    [0xffffffff, 123, 39],
  ])('seed %i, iteration %i, %i candidates: the GPU draws are the CPU twin’s', async (seed, iteration, A) => {
    const B = 300;
    const rng = new Rng(seed % 1000);
    const logits = new Float32Array(B * A);
    const mask = new Uint32Array(B * A);
    const done = new Uint32Array(B);
    const steps = new Uint32Array(B);
    for (let b = 0; b < B; b++) {
      const scale = [0.1, 1, 5, 30][b % 4];
      for (let a = 0; a < A; a++) {
        logits[b * A + a] = rng.nextGaussian() * scale;
        mask[b * A + a] = rng.bernoulli(0.6) ? 1 : 0;
      }
      mask[b * A + rng.nextInt(A)] = 1; // a live episode always has an admissible candidate
      done[b] = b % 17 === 3 ? 1 : 0;
      steps[b] = rng.nextInt(128);
    }
    // Episode records as the environment kernels lay them out: 5 words, done at 3, steps at 1.
    const episodes = new Uint32Array(B * 5).fill(0xdeadbeef);
    for (let b = 0; b < B; b++) [episodes[b * 5 + 3], episodes[b * 5 + 1]] = [done[b], steps[b]];
    const inputs = { logits: uploadBuffer(device, logits), mask: uploadBuffer(device, mask), episodes: uploadBuffer(device, episodes) };
    const outputs = { actions: emptyBuffer(device, 4 * B), logProbs: emptyBuffer(device, 4 * B), draws: emptyBuffer(device, 4 * B) };
    await runner.dispatch(
      { ...inputs, ...outputs },
      { numEpisodes: B, numCandidates: A, seed, iteration, recordWords: 5, doneField: 3, stepsField: 1 },
      perEpisodeWorkgroups(B, 64),
    );
    const actions = new Int32Array(await readBack(device, outputs.actions));
    const logProbs = new Float32Array(await readBack(device, outputs.logProbs));
    const draws = new Float32Array(await readBack(device, outputs.draws));
    let nearBoundary = 0;
    for (let b = 0; b < B; b++) {
      if (done[b]) {
        expect([actions[b], logProbs[b], draws[b]]).toEqual([0, 0, 0]);
        continue;
      }
      const u = uniformAt({ seed, iteration, run: b, step: steps[b] });
      expect(draws[b], `draw of episode ${b}`).toBe(u);
      const cpu = sampleFromLogits(logits, mask, b * A, A, u);
      expect(mask[b * A + actions[b]], `episode ${b} picked an inadmissible candidate`).toBe(1);
      if (actions[b] !== cpu.action) {
        // Allowed only when u · total is within float32 rounding of a boundary of the CDF.
        expect(distanceToBoundary(logits, mask, b * A, A, u), `episode ${b}: GPU ${actions[b]}, CPU ${cpu.action}`).toBeLessThan(1e-5);
        nearBoundary++;
        continue;
      }
      expect(Math.abs(logProbs[b] - cpu.logProb), `log-probability of episode ${b}`).toBeLessThan(1e-5 * Math.max(1, Math.abs(cpu.logProb)));
    }
    expect(nearBoundary).toBeLessThanOrEqual(2);
    for (const buffer of [...Object.values(inputs), ...Object.values(outputs)]) buffer.destroy();
  });
});

/** Relative distance from u · total to the nearest running total of the admissible weights (float64). */
function distanceToBoundary(logits: Float32Array, mask: Uint32Array, offset: number, A: number, u: number): number {
  let max = -Infinity;
  for (let a = 0; a < A; a++) if (mask[offset + a]) max = Math.max(max, logits[offset + a]);
  const weights: number[] = [];
  for (let a = 0; a < A; a++) if (mask[offset + a]) weights.push(Math.exp(logits[offset + a] - max));
  const total = weights.reduce((s, w) => s + w, 0);
  let running = 0;
  let best = Infinity;
  for (const w of weights) {
    running += w;
    best = Math.min(best, Math.abs(u * total - running) / total);
  }
  return best;
}
