/**
 * Playing TextHouse batches in the tests: an environment, seeds, the random admissible policy, a policy
 * that sees only what a learned policy sees (featurePolicy), and playing rounds to their end with
 * success / partial / failure counts.
 */
import { ACTION_FEATURE_NAMES, OBS_FEATURE_NAMES } from '../../envs/texthouse/features.ts';
import { type TextHouse, createTextHouse } from '../../envs/texthouse/texthouse.ts';
import type { Horizon } from '../../envs/types.ts';
import type { Rng } from '../../src/prng.ts';

export function make(horizon: Horizon, batchSize: number, milestoneDropout = 0): TextHouse {
  return createTextHouse({ horizon, batchSize, milestoneDropout }) as TextHouse;
}

export function seedsFrom(rng: Rng, n: number): Uint32Array {
  const seeds = new Uint32Array(n);
  for (let i = 0; i < n; i++) seeds[i] = rng.nextUint32();
  return seeds;
}

/** Uniformly random admissible action for every live episode. */
export function randomActions(env: TextHouse, rng: Rng, out: Int32Array): void {
  const A = env.maxActions;
  for (let b = 0; b < env.batchSize; b++) {
    if (env.done[b]) continue;
    let n = 0;
    for (let a = 0; a < A; a++) n += env.actionMask[b * A + a];
    let k = rng.nextInt(n);
    for (let a = 0; a < A; a++) {
      if (env.actionMask[b * A + a] && k-- === 0) {
        out[b] = a;
        break;
      }
    }
  }
}

export const VERB_NAMES = ACTION_FEATURE_NAMES.slice(0, 12).map((n) => n.slice('verb:'.length));
export function verbOf(env: TextHouse, b: number, a: number): string {
  const off = (b * env.maxActions + a) * env.actionDim;
  for (let v = 0; v < VERB_NAMES.length; v++) if (env.actionFeatures[off + v] === 1) return VERB_NAMES[v];
  throw new Error(`slot ${a} has no verb`);
}

export const feature = (name: string) => ACTION_FEATURE_NAMES.indexOf(name);
export const obsFeature = (name: string) => OBS_FEATURE_NAMES.indexOf(name);

/**
 * A policy that sees only what a learned policy sees (observation, candidate features, mask) and scores
 * candidates by hand. If it solves the tasks, the features carry what a small network needs to learn them.
 */
export function featurePolicy(env: TextHouse, out: Int32Array): void {
  const { maxActions: A, actionDim: D, obsDim } = env;
  const f = env.actionFeatures;
  const F = {
    target: feature('obj:is_target'),
    placed: feature('obj:placed'),
    processed: feature('obj:processed'),
    dest: feature('rec:is_destination'),
    appliance: feature('rec:is_needed_appliance'),
    unexplored: feature('rec:unexplored'),
    seen: feature('rec:target_seen_here'),
    closed: feature('rec:closed'),
  };
  const holdTarget = obsFeature('holding:target');
  const holdOther = obsFeature('holding:other');
  const needsProcess = [obsFeature('family:pick_clean_then_place'), obsFeature('family:pick_heat_then_place'), obsFeature('family:pick_cool_then_place')];
  const light = obsFeature('family:look_at_obj_in_light');
  const heldProcessed = obsFeature('held:processed');
  for (let b = 0; b < env.batchSize; b++) {
    if (env.done[b]) continue;
    const o = b * obsDim;
    const processing = needsProcess.some((i) => env.obs[o + i] === 1) && env.obs[o + heldProcessed] === 0;
    let best = -1;
    let bestScore = -Infinity;
    for (let a = 0; a < A; a++) {
      if (!env.actionMask[b * A + a]) continue;
      const off = (b * A + a) * D;
      const verb = verbOf(env, b, a);
      const is = (k: number) => f[off + k] === 1;
      let score = 0;
      if (env.obs[o + holdOther] === 1) {
        score = verb === 'put' ? 10 : verb === 'open' ? 5 : verb === 'goto' && !is(F.closed) ? 1 : 0;
      } else if (env.obs[o + holdTarget] === 1) {
        const goal = processing || env.obs[o + light] === 1 ? F.appliance : F.dest;
        if (processing) score = ['heat', 'cool', 'clean'].includes(verb) && is(F.appliance) ? 10 : 0;
        else if (env.obs[o + light] === 1) score = verb === 'use' ? 10 : 0;
        else score = verb === 'put' && is(F.dest) ? 10 : 0;
        if (verb === 'open' && is(goal)) score = 9;
        if (verb === 'goto' && is(goal)) score = 8;
      } else {
        if (verb === 'take' && is(F.target) && !is(F.placed)) score = 10;
        else if (verb === 'goto' && is(F.seen)) score = 9;
        else if (verb === 'open' && is(F.unexplored)) score = 8;
        else if (verb === 'goto' && is(F.unexplored)) score = 7;
        else if (verb === 'goto') score = 1;
      }
      if (score > bestScore) {
        bestScore = score;
        best = a;
      }
    }
    out[b] = best;
  }
}

export interface Stats {
  episodes: number;
  success: number;
  partial: number;
  failure: number;
  meanSteps: number;
}

export function play(env: TextHouse, policy: (out: Int32Array) => void, rng: Rng, rounds: number): Stats {
  const acts = new Int32Array(env.batchSize);
  const s = { episodes: 0, success: 0, partial: 0, failure: 0, meanSteps: 0 };
  for (let i = 0; i < rounds; i++) {
    env.reset(seedsFrom(rng, env.batchSize), rng);
    while (!env.done.every((d) => d === 1)) {
      policy(acts);
      env.step(acts);
    }
    for (let b = 0; b < env.batchSize; b++) {
      s.episodes++;
      s.meanSteps += env.steps[b];
      if (env.success[b]) s.success++;
      else if (env.milestonesReached[b] > 0) s.partial++;
      else s.failure++;
    }
  }
  s.meanSteps /= s.episodes;
  return s;
}
