/**
 * Leak probe: does any action feature give the answer away? A fixed, observation-blind scorer gives
 * each admissible candidate the score Σ wᵢ·featureᵢ and plays the highest; ties are broken by a seeded
 * uniform draw among the tied candidates (kinder to the scorer than "lowest index", which gets stuck
 * against walls, so a leak shows up more, not less). With honest features no such fixed rule can
 * sequence the sub-goals of a long task; a feature computed from a planner would let it.
 */
import { ACTION_FEATURE_NAMES as GRID_ACTION_FEATURES } from '../../envs/gridhouse/features.ts';
import { createEnv, type Horizon } from '../../envs/index.ts';
import { ACTION_FEATURE_NAMES as TEXT_ACTION_FEATURES } from '../../envs/texthouse/features.ts';
import { ACTION_FEATURE_NAMES as SHOP_ACTION_FEATURES } from '../../envs/shop/features.ts';
import { Rng } from '../../src/prng.ts';

export const ACTION_FEATURES: Record<string, readonly string[]> = {
  gridhouse: GRID_ACTION_FEATURES,
  texthouse: TEXT_ACTION_FEATURES,
  shop: SHOP_ACTION_FEATURES,
};

/** Pseudo-feature index: 1 on the oracle's action. Only for the probe's own positive control. */
export const ORACLE_FEATURE = -1;

export interface Term {
  feature: number;
  weight: number;
}

export interface ScorerResult {
  label: string;
  terms: Term[];
  success: number;
  meanMilestones: number;
}

export interface ProbeOptions {
  env: string;
  horizon: Horizon;
  episodes: number;
  seed: number;
}

export function label(env: string, terms: Term[]): string {
  return terms
    .map(
      (t) =>
        `${t.weight >= 0 ? '+' : '−'}${Math.abs(t.weight) === 1 ? '' : Math.abs(t.weight)}${t.feature === ORACLE_FEATURE ? 'oracle' : ACTION_FEATURES[env][t.feature]}`,
    )
    .join(' ');
}

/** Plays `episodes` episodes (one batch) with the fixed scorer of `terms`; same options ⇒ same figures. */
export function runScorer(options: ProbeOptions, terms: Term[]): ScorerResult {
  const { env: name, horizon, episodes, seed } = options;
  const env = createEnv(name, { horizon, batchSize: episodes });
  const root = new Rng(seed);
  const seeds = new Uint32Array(episodes);
  const taskRng = root.fork('tasks');
  for (let b = 0; b < episodes; b++) seeds[b] = taskRng.nextUint32();
  const tieRng = root.fork('ties');
  env.reset(seeds, root.fork('dropout'));
  const { maxActions: A, actionDim: D } = env;
  const actions = new Int32Array(episodes);
  const oracle = new Int32Array(episodes);
  const usesOracle = terms.some((t) => t.feature === ORACLE_FEATURE);
  const features = terms.filter((t) => t.feature !== ORACLE_FEATURE).map((t) => t.feature);
  const weights = terms.filter((t) => t.feature !== ORACLE_FEATURE).map((t) => t.weight);
  const oracleWeight = terms.find((t) => t.feature === ORACLE_FEATURE)?.weight ?? 0;
  const n = features.length;
  const f = env.actionFeatures;
  const mask = env.actionMask;
  while (!env.done.every((d) => d === 1)) {
    if (usesOracle) env.oracleActions(oracle);
    for (let b = 0; b < episodes; b++) {
      if (env.done[b]) continue;
      let best = -Infinity;
      let ties = 0;
      for (let a = 0; a < A; a++) {
        if (!mask[b * A + a]) continue;
        const row = (b * A + a) * D;
        let score = usesOracle && oracle[b] === a ? oracleWeight : 0;
        for (let i = 0; i < n; i++) score += weights[i] * f[row + features[i]];
        if (score > best) {
          best = score;
          ties = 1;
          actions[b] = a;
        } else if (score === best && tieRng.nextInt(++ties) === 0) {
          actions[b] = a; // reservoir draw: each tied candidate ends up chosen with probability 1/ties
        }
      }
    }
    env.step(actions);
  }
  let success = 0;
  let milestones = 0;
  for (let b = 0; b < episodes; b++) {
    success += env.success[b];
    milestones += env.milestonesReached[b];
  }
  return { label: label(name, terms), terms, success: success / episodes, meanMilestones: milestones / episodes };
}

/** Every single action feature with both signs, best first (by success, then by milestones reached). */
export function probeSingles(options: ProbeOptions): ScorerResult[] {
  const out: ScorerResult[] = [];
  const n = ACTION_FEATURES[options.env].length;
  for (let f = 0; f < n; f++) for (const w of [1, -1]) out.push(runScorer(options, [{ feature: f, weight: w }]));
  return out.sort((x, y) => y.success - x.success || y.meanMilestones - x.meanMilestones);
}

/**
 * Pairs of the `top` most promising distinct features among the singles, every sign combination and
 * three weightings (equal, and each one first with the other breaking its ties).
 */
export function probePairs(options: ProbeOptions, singles: ScorerResult[], top: number): ScorerResult[] {
  const features: number[] = [];
  for (const r of singles) {
    const f = r.terms[0].feature;
    if (!features.includes(f)) features.push(f);
    if (features.length === top) break;
  }
  const out: ScorerResult[] = [];
  for (let i = 0; i < features.length; i++) {
    for (let j = i + 1; j < features.length; j++) {
      for (const si of [1, -1]) {
        for (const sj of [1, -1]) {
          for (const [wi, wj] of [
            [1, 1],
            [2, 1],
            [1, 2],
          ]) {
            out.push(
              runScorer(options, [
                { feature: features[i], weight: si * wi },
                { feature: features[j], weight: sj * wj },
              ]),
            );
          }
        }
      }
    }
  }
  return out.sort((x, y) => y.success - x.success || y.meanMilestones - x.meanMilestones);
}
