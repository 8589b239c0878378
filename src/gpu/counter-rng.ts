/**
 * The counter-based generator of GPU rollouts (Philox4x32-10, Salmon et al. 2011) and the action
 * sampler it drives, as TypeScript twins of shaders/lib/philox.wgsl and shaders/lib/sampling.wgsl.
 *
 * A webgpu rollout cannot thread one sequential `Rng` through thousands of parallel episodes, so each
 * draw is a pure function of its coordinates: key (seed, iteration), counter (run, step, 0, 0). The
 * same coordinates give the same bits on the GPU and here, which is what makes a webgpu run
 * reproducible on an adapter and lets a test recompute every GPU draw on the CPU. The cpu/wasm
 * rollouts keep their sequential `Rng` (src/prng.ts), so their records do not change.
 *
 * Only 32-bit integer operations are used (the 64-bit product is split into 16-bit halves, as WGSL has
 * no `mulhi`), so both sides agree bit for bit.
 */

const PHILOX_M0 = 0xd2511f53;
const PHILOX_M1 = 0xcd9e8d57;
const PHILOX_W0 = 0x9e3779b9;
const PHILOX_W1 = 0xbb67ae85;
const PHILOX_ROUNDS = 10;

/** High 32 bits of the 64-bit product of two u32 values, from 16-bit halves (every partial is exact). */
function mulHi(a: number, b: number): number {
  const al = a & 0xffff;
  const ah = a >>> 16;
  const bl = b & 0xffff;
  const bh = b >>> 16;
  const lh = al * bh;
  const hl = ah * bl;
  const mid = ((al * bl) >>> 16) + (lh & 0xffff) + (hl & 0xffff);
  return (ah * bh + (lh >>> 16) + (hl >>> 16) + (mid >>> 16)) >>> 0;
}

/** Philox4x32-10 of counter (c0, c1, c2, c3) under key (k0, k1): four u32 words. */
export function philox4x32(c0: number, c1: number, c2: number, c3: number, k0: number, k1: number): [number, number, number, number] {
  let x0 = c0 >>> 0;
  let x1 = c1 >>> 0;
  let x2 = c2 >>> 0;
  let x3 = c3 >>> 0;
  let key0 = k0 >>> 0;
  let key1 = k1 >>> 0;
  for (let r = 0; r < PHILOX_ROUNDS; r++) {
    if (r > 0) {
      key0 = (key0 + PHILOX_W0) >>> 0;
      key1 = (key1 + PHILOX_W1) >>> 0;
    }
    const hi0 = mulHi(PHILOX_M0, x0);
    const lo0 = Math.imul(PHILOX_M0, x0) >>> 0;
    const hi1 = mulHi(PHILOX_M1, x2);
    const lo1 = Math.imul(PHILOX_M1, x2) >>> 0;
    x0 = (hi1 ^ x1 ^ key0) >>> 0;
    x1 = lo1;
    x2 = (hi0 ^ x3 ^ key1) >>> 0;
    x3 = lo0;
  }
  return [x0, x1, x2, x3];
}

/** Where a draw sits: one per (seed, iteration, run, step). */
export interface DrawCoordinates {
  seed: number;
  iteration: number;
  run: number;
  step: number;
}

/**
 * The uniform draw of (seed, iteration, run, step) in [0, 1): the top 24 bits of Philox's first word,
 * times 2⁻²⁴, so it is exact in float32 and identical on both sides.
 */
export function uniformAt({ seed, iteration, run, step }: DrawCoordinates): number {
  return (philox4x32(run, step, 0, 0, seed, iteration)[0] >>> 8) / 16777216;
}

export interface SampledAction {
  /** Candidate index (within the episode's row), or −1 when nothing is admissible. */
  action: number;
  /** log π(action) under the masked softmax, in float32. */
  logProb: number;
}

/**
 * Samples one candidate by inverse CDF over the admissible ones, with weights exp(logit − max), in
 * float32 as the kernel computes it: the first admissible candidate whose running total exceeds
 * u · total, else the last admissible one (round-off). The GPU's `exp` may differ from Math.exp in the
 * last bits, so a draw landing within rounding of a boundary may pick a neighbour there; tests allow
 * exactly that.
 */
export function sampleFromLogits(logits: ArrayLike<number>, mask: ArrayLike<number>, offset: number, count: number, u: number): SampledAction {
  const f = Math.fround;
  let max = -Infinity;
  for (let a = 0; a < count; a++) if (mask[offset + a] && logits[offset + a] > max) max = logits[offset + a];
  if (max === -Infinity) return { action: -1, logProb: 0 };
  let total = 0;
  for (let a = 0; a < count; a++) if (mask[offset + a]) total = f(total + f(Math.exp(f(logits[offset + a] - max))));
  const threshold = f(f(u) * total);
  let running = 0;
  let action = -1;
  for (let a = 0; a < count; a++) {
    if (!mask[offset + a]) continue;
    action = a;
    running = f(running + f(Math.exp(f(logits[offset + a] - max))));
    if (threshold < running) break;
  }
  return { action, logProb: f(f(logits[offset + action] - max) - f(Math.log(total))) };
}
