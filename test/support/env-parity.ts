/**
 * Helpers of the WGSL environment parity tests (test/gpu/*-step.test.ts): WGSL `const` tables, first
 * mismatches of exact and of float32 arrays, and the actions both sides take.
 */
import type { VecEnv } from '../../envs/types.ts';
import type { Rng } from '../../src/prng.ts';

/** `const NAME = Nu;` declarations of a WGSL text. */
export function wgslConsts(wgsl: string): Map<string, number> {
  return new Map([...wgsl.matchAll(/^const (\w+) = (\d+)u;/gm)].map((m) => [m[1], Number(m[2])]));
}

export function exactMismatch(name: string, gpu: ArrayLike<number>, cpu: ArrayLike<number>): string | null {
  for (let i = 0; i < cpu.length; i++) if (gpu[i] !== cpu[i]) return `${name}[${i}]: GPU ${gpu[i]}, CPU ${cpu[i]}`;
  return null;
}

/** Features: equal within float32 rounding of a division (WGSL allows 2.5 ulp; values are at most 1 in size). */
export function closeMismatch(name: string, gpu: Float32Array, cpu: Float32Array): string | null {
  for (let i = 0; i < cpu.length; i++)
    if (!(Math.abs(gpu[i] - cpu[i]) <= 2.5e-7 * Math.max(1, Math.abs(cpu[i])))) return `${name}[${i}]: GPU ${gpu[i]}, CPU ${cpu[i]}`;
  return null;
}

/**
 * One action per live episode: even episodes and 30% of the odd ones' steps follow the oracle (so
 * milestones, dropout and successes happen), the rest pick a random admissible candidate.
 */
export function mixedActions(env: VecEnv, rng: Rng, oracle: Int32Array, out: Int32Array): void {
  const A = env.maxActions;
  env.oracleActions(oracle);
  for (let b = 0; b < env.batchSize; b++) {
    if (env.done[b]) continue;
    const admissible: number[] = [];
    for (let a = 0; a < A; a++) if (env.actionMask[b * A + a]) admissible.push(a);
    out[b] = b % 2 === 0 || rng.bernoulli(0.3) ? oracle[b] : admissible[rng.nextInt(admissible.length)];
  }
}
