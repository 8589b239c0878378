/**
 * The GPU's minibatch order (shaders/minibatch-permutation.wgsl) against its CPU twin
 * (src/gpu/minibatch-permutation.ts): every element equal, bit for bit, and each epoch a permutation
 * of [0, S); the twin itself a bijection for every size, different across keys and epochs.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { KernelRunner } from '../../src/gpu/kernel.ts';
import {
  feistelHalfBits,
  MINIBATCH_PERMUTATION,
  type PermutationDraw,
  recordPermutations,
  minibatchPermutation,
  permutationSlices,
  permutedIndex,
  permutationWorkgroups,
} from '../../src/gpu/minibatch-permutation.ts';
import { VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import { emptyBuffer, readBack } from '../support/gpu-buffers.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

const isPermutation = (order: ArrayLike<number>, n: number) => {
  const seen = new Uint8Array(n);
  for (let i = 0; i < order.length; i++) {
    if (!(order[i] >= 0 && order[i] < n) || seen[order[i]]) return false;
    seen[order[i]] = 1;
  }
  return order.length === n;
};

describe('minibatch permutation: the CPU twin', () => {
  it('is a bijection of [0, n) for every n, key and epoch', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.nat(), fc.nat(), fc.integer({ min: 0, max: 7 }), (n, key0, key1, epoch) => {
        const order = Array.from({ length: n }, (_, i) => permutedIndex(i, n, { key0, key1 }, epoch));
        expect(isPermutation(order, n)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('the domain holds n in under 4n values (so cycle walking is short)', () => {
    for (const n of [1, 2, 3, 4, 5, 16, 17, 1000, 8192, 524_288]) {
      const domain = 2 ** (2 * feistelHalfBits(n));
      expect(domain).toBeGreaterThanOrEqual(n);
      expect(domain).toBeLessThan(Math.max(4, 4 * n) + 1);
    }
  });

  it('differs across keys and epochs, and moves most elements', () => {
    const n = 500;
    const a = minibatchPermutation(n, 2, { key0: 1, key1: 2 });
    const b = minibatchPermutation(n, 1, { key0: 1, key1: 3 });
    const fixed = (o: Uint32Array, from: number) => o.subarray(from, from + n).filter((v, i) => v === i).length;
    expect(Array.from(a.subarray(0, n))).not.toEqual(Array.from(a.subarray(n)));
    expect(Array.from(a.subarray(0, n))).not.toEqual(Array.from(b));
    expect(fixed(a, 0)).toBeLessThan(10);
    expect(fixed(a, n)).toBeLessThan(10);
  });

  it('cuts each epoch into near-equal contiguous slices, as the host order is cut', () => {
    expect(permutationSlices(10, 2, 3)).toEqual([
      { offset: 0, size: 3 },
      { offset: 3, size: 3 },
      { offset: 6, size: 4 },
      { offset: 10, size: 3 },
      { offset: 13, size: 3 },
      { offset: 16, size: 4 },
    ]);
    expect(permutationSlices(2, 1, 4)).toEqual([
      { offset: 0, size: 1 },
      { offset: 1, size: 1 },
    ]);
  });
});

describe('minibatch permutation on the GPU', () => {
  let device: GPUDevice;
  beforeAll(async () => {
    ({ device } = await useWebGpuBackend());
  });

  it.each([
    [1, 1],
    [2, 2],
    [37, 2],
    [1024, 2],
    [8193, 3],
  ])('S = %i, %i epochs: every element equals the twin, each epoch a permutation', async (n, epochs) => {
    const runner = await KernelRunner.create(device, MINIBATCH_PERMUTATION, VITE_SHADERS['minibatch-permutation'], 64);
    const perm = emptyBuffer(device, 4 * n * epochs);
    try {
      const key = { key0: 0x9e3779b9, key1: n * 7919 };
      await runner.dispatch({ perm }, { numSteps: n, epochs, ...key, permBase: 0 }, permutationWorkgroups(n, epochs, 64));
      const gpu = new Uint32Array(await readBack(device, perm, 4 * n * epochs));
      expect(Array.from(gpu)).toEqual(Array.from(minibatchPermutation(n, epochs, key)));
      for (let e = 0; e < epochs; e++) expect(isPermutation(gpu.subarray(e * n, (e + 1) * n), n), `epoch ${e}`).toBe(true);
    } finally {
      perm.destroy();
      runner.destroy();
    }
  });

  it('draws several seeds in one dispatch (the seed axis): each seed its own key, steps and place, as the twin draws it alone', async () => {
    const runner = await KernelRunner.create(device, MINIBATCH_PERMUTATION, VITE_SHADERS['minibatch-permutation'], 64);
    const draws: PermutationDraw[] = [
      { numSteps: 37, epochs: 2, key: { key0: 11, key1: 1 }, permBase: 0 },
      { numSteps: 300, epochs: 2, key: { key0: 12, key1: 2 }, permBase: 80 },
      { numSteps: 5, epochs: 2, key: { key0: 13, key1: 3 }, permBase: 700 },
    ];
    const words = 710;
    const perm = emptyBuffer(device, 4 * words);
    try {
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      recordPermutations(pass, runner, 64, draws, perm);
      pass.end();
      device.queue.submit([encoder.finish()]);
      const gpu = new Uint32Array(await readBack(device, perm, 4 * words));
      for (const d of draws) {
        const span = d.numSteps * d.epochs;
        expect(Array.from(gpu.subarray(d.permBase, d.permBase + span)), `seed with key0 ${d.key.key0}`).toEqual(
          Array.from(minibatchPermutation(d.numSteps, d.epochs, d.key)),
        );
      }
      // Nothing written between the seeds' blocks (74 … 79, 680 … 699).
      expect(Array.from(gpu.subarray(74, 80)).concat(Array.from(gpu.subarray(680, 700)))).toEqual(new Array(26).fill(0));
    } finally {
      perm.destroy();
      runner.destroy();
    }
  });
});
