/**
 * Oracle demonstrations for behaviour cloning (docs/maths.md §9): whole oracle episodes of fresh task
 * instances, recorded as (observation, candidate features, mask, oracle action) per step.
 *
 * Their task seeds come from the demonstration half of the seed space (`DEMONSTRATION_SEED_BIT` set),
 * while every training stream draws from the other half (`trainingTaskSeed`), so a prior or the SFT
 * baseline never sees a task that a method is trained or measured on.
 */
import type { VecEnv } from '../../envs/types.ts';
import type { Rng } from '../prng.ts';

/** The top bit of a task seed: set for demonstrations, clear for training and evaluation tasks. */
export const DEMONSTRATION_SEED_BIT = 0x80000000;

/** A task seed for a training stream (top bit clear). */
export function trainingTaskSeed(rng: Rng): number {
  return rng.nextUint32() >>> 1;
}

/** A task seed for demonstrations (top bit set). */
export function demonstrationTaskSeed(rng: Rng): number {
  return ((rng.nextUint32() >>> 1) | DEMONSTRATION_SEED_BIT) >>> 0;
}

/**
 * A sloppy teacher (docs/maths.md §6, `demoNoise`): at each step of each live episode the oracle's action
 * is replaced, with probability `noise`, by a uniformly random admissible one, drawn from `rng`, the
 * teacher's own stream. The demonstration records what the teacher did.
 */
export interface Teacher {
  noise: number;
  rng: Rng;
}

export interface Demonstrations {
  steps: number;
  episodes: number;
  obs: Float32Array; // steps × obsDim
  features: Float32Array; // steps × A × actionDim
  mask: Float32Array; // steps × A
  actions: Int32Array; // the oracle's choice per step
}

/**
 * Plays oracle episodes on `env` (all of its B slots at once) until `episodes` episodes are recorded, or,
 * with `minSteps`, until at least that many steps are: whole episodes only, in slot order. `rng` draws
 * the task seeds (and the env's dropout decisions, which the oracle ignores).
 */
export function collectDemonstrations(env: VecEnv, rng: Rng, budget: { episodes: number } | { minSteps: number }, teacher?: Teacher): Demonstrations {
  const B = env.batchSize;
  const A = env.maxActions;
  const { obsDim, actionDim, maxSteps } = env;
  const obs: Float32Array[] = [];
  const features: Float32Array[] = [];
  const mask: Float32Array[] = [];
  const actions: number[] = [];
  const seeds = new Uint32Array(B);
  const chosen = new Int32Array(B);
  // Per slot, the steps of the episode in play; appended in slot order once the batch is done.
  const perSlot = Array.from({ length: B }, () => ({
    obs: [] as Float32Array[],
    features: [] as Float32Array[],
    mask: [] as Float32Array[],
    actions: [] as number[],
  }));
  let episodes = 0;
  const enough = () => ('episodes' in budget ? episodes >= budget.episodes : actions.length >= budget.minSteps);
  while (!enough()) {
    for (let b = 0; b < B; b++) seeds[b] = demonstrationTaskSeed(rng);
    env.reset(seeds, rng);
    for (const s of perSlot) s.obs.length = s.features.length = s.mask.length = s.actions.length = 0;
    for (let t = 0; t < maxSteps && !env.done.every((d) => d === 1); t++) {
      env.oracleActions(chosen);
      if (teacher && teacher.noise > 0) slipUp(env, chosen, teacher);
      for (let b = 0; b < B; b++) {
        if (env.done[b]) continue;
        const s = perSlot[b];
        s.obs.push(env.obs.slice(b * obsDim, (b + 1) * obsDim));
        s.features.push(env.actionFeatures.slice(b * A * actionDim, (b + 1) * A * actionDim));
        s.mask.push(Float32Array.from(env.actionMask.subarray(b * A, (b + 1) * A)));
        s.actions.push(chosen[b]);
      }
      env.step(chosen);
    }
    for (const s of perSlot) {
      if (enough()) break;
      obs.push(...s.obs);
      features.push(...s.features);
      mask.push(...s.mask);
      actions.push(...s.actions);
      episodes++;
    }
  }
  const concat = (rows: Float32Array[], width: number) => {
    const out = new Float32Array(rows.length * width);
    rows.forEach((r, i) => out.set(r, i * width));
    return out;
  };
  return {
    steps: actions.length,
    episodes,
    obs: concat(obs, obsDim),
    features: concat(features, A * actionDim),
    mask: concat(mask, A),
    actions: Int32Array.from(actions),
  };
}

/** Replaces each live episode's action, with the teacher's probability, by a random admissible one. */
function slipUp(env: VecEnv, chosen: Int32Array, teacher: Teacher): void {
  const A = env.maxActions;
  for (let b = 0; b < env.batchSize; b++) {
    if (env.done[b] || !teacher.rng.bernoulli(teacher.noise)) continue;
    let admissible = 0;
    for (let a = 0; a < A; a++) admissible += env.actionMask[b * A + a];
    let pick = teacher.rng.nextInt(admissible);
    for (let a = 0; a < A; a++) {
      if (env.actionMask[b * A + a] && pick-- === 0) {
        chosen[b] = a;
        break;
      }
    }
  }
}
