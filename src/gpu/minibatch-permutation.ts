/**
 * The fused update's minibatches drawn on the GPU (shaders/minibatch-permutation.wgsl): every epoch's
 * order of the steps is a keyed bijection of [0, S), a Feistel network over Philox rounds with cycle
 * walking (shaders/lib/permutation.wgsl), so the host uploads a key instead of epochs × S indices, and
 * a test recomputes every element here (`permutedIndex`, bit for bit). The minibatches are contiguous
 * slices of near-equal size, cut as src/trainer/minibatches.ts cuts the CPU's shuffled order.
 */
import { philox4x32 } from './counter-rng.ts';
import { defineKernel, type KernelRunner } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const MINIBATCH_PERMUTATION = defineKernel({
  name: 'minibatch-permutation',
  params: uniformFields([
    ['numSteps', 'u32'],
    ['epochs', 'u32'],
    ['key0', 'u32'],
    ['key1', 'u32'],
    ['permBase', 'u32'],
  ]),
  storage: [['perm', 'read_write']],
  seeds: true,
});

/** The key of one update's permutation: the run's seed and a draw of the update stream. */
export interface PermutationKey {
  key0: number;
  key1: number;
}

const FEISTEL_ROUNDS = 4;
/** The largest n: a domain of 2·h ≤ 30 bits keeps every shift below 32 in WGSL. */
export const MAX_PERMUTED = 2 ** 30;

/** Bits of each Feistel half for a domain of 2·h bits that holds n (h ≥ 1). */
export function feistelHalfBits(n: number): number {
  let h = 1;
  while (2 ** (2 * h) < n) h++;
  return h;
}

function feistel(x: number, halfBits: number, key: PermutationKey, tweak: number): number {
  const mask = (1 << halfBits) - 1;
  let left = x >>> halfBits;
  let right = x & mask;
  for (let r = 0; r < FEISTEL_ROUNDS; r++) {
    const f = philox4x32(right, r, tweak, 0, key.key0, key.key1)[0] & mask;
    const next = (left ^ f) >>> 0;
    left = right;
    right = next;
  }
  return ((left << halfBits) | right) >>> 0;
}

/** The i-th element (i < n) of the permutation of [0, n) under (key, tweak): the WGSL's, bit for bit. */
export function permutedIndex(i: number, n: number, key: PermutationKey, tweak: number): number {
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_PERMUTED)) throw new RangeError(`a permutation needs 1 ≤ n ≤ ${MAX_PERMUTED}; got ${n}`);
  const halfBits = feistelHalfBits(n);
  let x = feistel(i, halfBits, key, tweak);
  while (x >= n) x = feistel(x, halfBits, key, tweak);
  return x;
}

/** Every epoch's order back to back (epochs × n), as the kernel writes it. */
export function minibatchPermutation(n: number, epochs: number, key: PermutationKey): Uint32Array {
  const perm = new Uint32Array(n * epochs);
  for (let e = 0; e < epochs; e++) for (let i = 0; i < n; i++) perm[e * n + i] = permutedIndex(i, n, key, e);
  return perm;
}

/** Minibatches as slices of the permuted order: `minibatches` per epoch, of near-equal size (minibatches.ts). */
export function permutationSlices(steps: number, epochs: number, minibatches: number): { offset: number; size: number }[] {
  const slices = Math.max(1, Math.min(minibatches, steps));
  const out: { offset: number; size: number }[] = [];
  for (let e = 0; e < epochs; e++)
    for (let m = 0; m < slices; m++) {
      const from = Math.floor((m * steps) / slices);
      out.push({ offset: e * steps + from, size: Math.floor(((m + 1) * steps) / slices) - from });
    }
  return out;
}

/** Workgroups for one invocation per (epoch, position). */
export const permutationWorkgroups = (steps: number, epochs: number, workgroupSize: number): number => Math.ceil((steps * epochs) / workgroupSize);

/**
 * Records the dispatch that draws every epoch's order of `numSteps` steps from `key` into `perm`, on
 * `runner` (made from MINIBATCH_PERMUTATION with `workgroup` invocations per workgroup).
 */
export function recordPermutation(
  pass: GPUComputePassEncoder,
  runner: KernelRunner<string, string>,
  workgroup: number,
  numSteps: number,
  epochs: number,
  key: PermutationKey,
  perm: GPUBuffer,
): void {
  recordPermutations(pass, runner, workgroup, [{ numSteps, epochs, key, permBase: 0 }], perm);
}

/** One seed's orders to draw: its steps, epochs and key, and where in the joined `perm` they go. */
export interface PermutationDraw {
  numSteps: number;
  epochs: number;
  key: PermutationKey;
  permBase: number;
}

/** As `recordPermutation`, every seed's orders in one dispatch (the kernel's seed axis). */
export function recordPermutations(
  pass: GPUComputePassEncoder,
  runner: KernelRunner<string, string>,
  workgroup: number,
  draws: readonly PermutationDraw[],
  perm: GPUBuffer,
): void {
  const params = draws.map((d) => ({ numSteps: d.numSteps, epochs: d.epochs, ...d.key, permBase: d.permBase }));
  const workgroups = Math.max(...draws.map((d) => permutationWorkgroups(d.numSteps, d.epochs, workgroup)));
  runner.record(pass, runner.prepareSeeds({ perm }, params), workgroups, draws.length);
}
