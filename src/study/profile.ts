/**
 * The study's settings in one place: which runs it makes (a list of variants compared on every horizon,
 * a list of ablations on the long horizon, environments, seeds) and the budget every run gets.
 *
 * **The budget is counted in environment steps.** Methods' episodes differ in length (a policy that
 * solves its tasks ends them early; one that does not plays to the step limit), so a fixed number of
 * iterations would give a failing method more environment steps than a succeeding one. Every run of an
 * (env, horizon) cell gets the same step budget: `limitIterations` iterations' worth of episodes that
 * all run to the step limit, i.e. limitIterations × N × G × maxSteps(env, horizon). A run trains whole
 * iterations of the same fixed batch (N tasks × G runs) until its environment steps reach the budget
 * (the last iteration may pass it by less than one batch; study.json records the steps each run used).
 * `maxIters` caps the iterations of a run whose episodes are very short (a quarter of the step limit
 * or less on average); such a run stops with fewer steps than its budget, never more.
 *
 * Every method and variant trains with the same budget and the same shared hyperparameters (the
 * defaults of src/config.ts, the batch and width below); a variant differs only by its overrides
 * (src/study/variants.ts).
 */
import { ENV_NAMES, envEntry, type EnvName, type Horizon } from '../../envs/index.ts';
import type { TrainConfig } from '../config.ts';
import type { Method } from '../methods/registry.ts';
import { ABLATION_VARIANTS, type VariantName } from './variants.ts';
import { METHOD_NAMES } from '../methods/registry.ts';

export interface StudyBudget extends Pick<TrainConfig, 'tasksPerIteration' | 'groupSize' | 'hiddenSize'> {
  /** Env-step budget of every run, in iterations whose episodes all run to the step limit. */
  limitIterations: number;
  /** Most iterations a run may take (its config's `iters`). */
  maxIters: number;
}

export interface StudyProfile {
  name: 'full' | 'quick';
  /** One line on what this profile is for. */
  purpose: string;
  budget: StudyBudget;
  /** Seeds 1…seeds per cell. */
  seeds: number;
  envs: readonly EnvName[];
  horizons: readonly Horizon[];
  /** Variants compared on every horizon. */
  variants: readonly VariantName[];
  /** The horizon on which the ablations run (docs/maths.md §6). */
  ablationHorizon: Horizon;
  /** Variants on the ablation horizon only: the ablations (BEACON plus one override each) and others. */
  ablations: readonly VariantName[];
  /** Output folder, relative to the repository root. */
  outDir: string;
  /**
   * Measured seconds per 1000 env steps by env, horizon and method on one worker (pilots, see notes):
   * the ETA's prior and the shard balancer's cost model until measured runs take over.
   */
  secondsPerKiloStep: Record<EnvName, Partial<Record<Horizon, Partial<Record<Method, number>>>>>;
  /** How the budget was chosen, one line each (copied into the README). */
  notes: readonly string[];
}

/** Every registered method, then the released BEACON (the config it ships for ALFWorld) and shaped-reward PPO, the paper's other baselines. */
const COMPARED: readonly VariantName[] = [...METHOD_NAMES, 'beaconReleased', 'ppoShaped'];
/** On the long horizon only: the ablations, and the released BEACON with the other shipped config. */
const LONG_ONLY: readonly VariantName[] = [...ABLATION_VARIANTS, 'beaconReleasedWebshop'];

/**
 * Pilot measurements (bench/study-pilot.ts), seconds per 1000 env steps; see FULL_PROFILE's notes. Each
 * environment's registry entry carries its own (`secondsPerKiloStep`, envs/<env>/entry.ts).
 */
const PILOT_SECONDS_PER_KILO_STEP = Object.fromEntries(ENV_NAMES.map((env) => [env, envEntry(env).secondsPerKiloStep])) as StudyProfile['secondsPerKiloStep'];

export const FULL_PROFILE: StudyProfile = {
  name: 'full',
  purpose: 'the study of the paper’s claims: every method, 5 seeds, both environments, three horizons',
  budget: { tasksPerIteration: 8, groupSize: 8, hiddenSize: 64, limitIterations: 32, maxIters: 128 },
  seeds: 5,
  envs: ['gridhouse', 'texthouse'],
  horizons: ['short', 'medium', 'long'],
  variants: COMPARED,
  ablationHorizon: 'long',
  ablations: LONG_ONLY,
  outDir: 'docs/results',
  secondsPerKiloStep: PILOT_SECONDS_PER_KILO_STEP,
  notes: [
    'Batch and width are the page’s defaults (8 tasks × 8 runs, width 64), where the auto SFT prior was calibrated and `npm run bench:regime` shows the paper’s regime (GRPO starts at a few percent and learns, BEACON faster).',
    'Budget: 32 iterations’ worth of episodes at the step limit per run (gridhouse 82k / 164k / 262k env steps on short / medium / long, texthouse 61k / 82k / 102k), at most 128 iterations. Sized from pilots (`npx tsx bench/study-pilot.ts`, seed 1, 4 iterations per variant, on this 2-core machine under a load of about 7): 0.09–0.29 s per 1000 env steps by env, horizon and method; 280 runs × their budgets ≈ 91 worker-minutes, ≈ 45 min on 2 workers plus about a second of prior and start-up per run, leaving room for the 90-minute target on a loaded machine.',
    'Nothing was tuned per method: the pilots only sized the budget, before any study v2 run, and the claim rules (src/study/claims.ts) were fixed before it too.',
  ],
};

/** A smoke run of a few minutes: the whole pipeline on a small matrix, written apart from the real
 *  results so it never overwrites them. Its figures say nothing about the claims. */
export const QUICK_PROFILE: StudyProfile = {
  name: 'quick',
  purpose: 'smoke run of the pipeline (figures too small to judge the claims)',
  budget: { tasksPerIteration: 2, groupSize: 4, hiddenSize: 32, limitIterations: 2, maxIters: 6 },
  seeds: 2,
  envs: ['gridhouse', 'texthouse'],
  horizons: ['short', 'long'],
  variants: COMPARED,
  ablationHorizon: 'long',
  ablations: LONG_ONLY,
  outDir: 'docs/results/quick',
  secondsPerKiloStep: PILOT_SECONDS_PER_KILO_STEP,
  notes: ['quick profile: a smoke test of the pipeline; its budget is far too small to judge any claim'],
};

export const PROFILES = { full: FULL_PROFILE, quick: QUICK_PROFILE } as const;
