/**
 * The uniformly random admissible policy: for each live episode, one of its admissible candidate actions,
 * each with equal probability. The calibration baseline (a random policy almost never solves a long task
 * but often completes a sub-goal, docs/maths.md §1), used by the stats CLI, the benchmark, tests and the trainer.
 * Allocates nothing.
 */
import type { Rng } from '../src/prng.ts';
import type { VecEnv } from './types.ts';

type MaskedBatch = Pick<VecEnv, 'batchSize' | 'maxActions' | 'actionMask' | 'done'>;

/** Writes one uniformly drawn admissible action index per live episode into `out` (0 for ended ones). */
export function randomAdmissibleActions(env: MaskedBatch, rng: Rng, out: Int32Array): void {
  const A = env.maxActions;
  const mask = env.actionMask;
  for (let b = 0; b < env.batchSize; b++) {
    if (env.done[b]) {
      out[b] = 0;
      continue;
    }
    const row = b * A;
    let n = 0;
    for (let a = 0; a < A; a++) n += mask[row + a];
    if (n === 0) throw new Error(`episode ${b} is live but has no admissible action`);
    let k = rng.nextInt(n);
    for (let a = 0; a < A; a++) {
      if (mask[row + a] === 0) continue;
      if (k === 0) {
        out[b] = a;
        break;
      }
      k--;
    }
  }
}
