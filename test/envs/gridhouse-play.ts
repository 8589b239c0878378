/**
 * Playing GridHouse batches in the tests: seeds for a batch, and stepping every episode to its end under
 * the random admissible policy or the oracle.
 */
import type { GridHouse } from '../../envs/gridhouse/gridhouse.ts';
import { randomAdmissibleActions } from '../../envs/random-policy.ts';
import type { Rng } from '../../src/prng.ts';

export function seedsFrom(start: number, n: number, group = 1): number[] {
  return Array.from({ length: n }, (_, i) => start + Math.floor(i / group));
}

export function allDone(env: GridHouse): boolean {
  return env.done.every((d) => d === 1);
}

/** Steps until every episode ends, calling `onStep` after each step. */
export function play(env: GridHouse, policy: 'random' | 'oracle', rng: Rng, onStep?: () => void): void {
  const actions = new Int32Array(env.batchSize);
  while (!allDone(env)) {
    if (policy === 'oracle') env.oracleActions(actions);
    else randomAdmissibleActions(env, rng, actions);
    env.step(actions);
    onStep?.();
  }
}
