/**
 * The project's one pseudo-random number generator (sfc32, Chris Doty-Humphrey's Small Fast Counter).
 *
 * Every random choice in the learning path (environment layouts, milestone dropout, action sampling,
 * random segmentation, weight init, minibatch shuffles) draws from an `Rng` passed explicitly, so one
 * seed fixes a whole run; the global unseeded generator is never used. Streams come from `fork(label)`,
 * which derives a child seed from the parent's seed and a label without consuming the parent's
 * stream: adding a new consumer of randomness does not shift the draws of existing ones.
 */

/** 32-bit integer hash (splitmix32 finaliser); used to derive seeds, not as a generator. */
function hash32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Combines two 32-bit values into one well-mixed seed. */
export function mixSeeds(a: number, b: number): number {
  return hash32((hash32(a) ^ Math.imul(b >>> 0, 0x27d4eb2f)) >>> 0);
}

function labelHash(label: string | number): number {
  if (typeof label === 'number') return hash32(label >>> 0);
  let h = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A generator's position (see `Rng.state`): plain numbers, so it serialises as JSON. */
export interface RngState {
  seed: number;
  words: number[];
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** The seed this generator was created from (used by `fork`). */
  readonly seed: number;

  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
      throw new RangeError(`seed must be an integer in [0, 4294967295], got ${seed}`);
    }
    this.seed = seed >>> 0;
    this.a = hash32(this.seed);
    this.b = hash32(this.a ^ 0x6a09e667);
    this.c = hash32(this.b ^ 0xbb67ae85);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.nextUint32(); // warm up: sfc32 needs a few rounds to mix
  }

  /** A child generator whose stream depends only on this generator's seed and `label`. */
  fork(label: string | number): Rng {
    return new Rng(mixSeeds(this.seed, labelHash(label)));
  }

  /**
   * The generator's position: its seed and the four sfc32 words. `setState` continues the stream from
   * exactly this draw, which is what a checkpoint needs (forks depend on the seed alone).
   */
  state(): RngState {
    return { seed: this.seed, words: [this.a >>> 0, this.b >>> 0, this.c >>> 0, this.d >>> 0] };
  }

  /**
   * Moves this generator to `state`'s position. The seed must be this generator's own (a stream restored
   * into a run of another seed is a mistake, not a continuation); a malformed state throws a RangeError.
   */
  setState(state: RngState): void {
    const { seed, words } = state;
    if (seed !== this.seed) throw new RangeError(`an Rng state of seed ${String(seed)} cannot continue a stream of seed ${this.seed}`);
    const uint32 = (x: unknown) => Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 0xffffffff;
    if (!Array.isArray(words) || words.length !== 4 || !words.every(uint32))
      throw new RangeError(`an Rng state needs four 32-bit unsigned words, got ${JSON.stringify(words)}`);
    [this.a, this.b, this.c, this.d] = words.map((w) => w | 0);
  }

  /** Uniform integer in [0, 2^32). */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1) with 32 bits of resolution. */
  nextFloat(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n), without modulo bias. */
  nextInt(n: number): number {
    if (!(n >= 1) || n > 0xffffffff || !Number.isInteger(n)) throw new RangeError(`nextInt needs an integer n in [1, 2^32], got ${n}`);
    const limit = 4294967296 - (4294967296 % n);
    let x = this.nextUint32();
    while (x >= limit) x = this.nextUint32();
    return x % n;
  }

  /** True with probability p. */
  bernoulli(p: number): boolean {
    return this.nextFloat() < p;
  }

  /** Standard normal draw (Box–Muller), for weight initialisation. */
  nextGaussian(): number {
    let u = this.nextFloat();
    while (u === 0) u = this.nextFloat();
    const v = this.nextFloat();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** In-place Fisher–Yates shuffle. */
  shuffle<T extends { length: number; [i: number]: unknown }>(xs: T): T {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.nextInt(i + 1);
      const t = xs[i];
      xs[i] = xs[j];
      xs[j] = t;
    }
    return xs;
  }

  /** Index drawn from unnormalised non-negative weights (e.g. masked probabilities). */
  categorical(weights: ArrayLike<number>, offset = 0, length = weights.length - offset): number {
    let total = 0;
    for (let i = 0; i < length; i++) total += weights[offset + i];
    if (!(total > 0)) throw new RangeError('categorical needs at least one positive weight');
    let u = this.nextFloat() * total;
    let last = -1;
    for (let i = 0; i < length; i++) {
      const w = weights[offset + i];
      if (w > 0) {
        last = i;
        if (u < w) return i;
        u -= w;
      }
    }
    return last; // float round-off: fall back to the last positive weight
  }
}
