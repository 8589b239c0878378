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
import { DETECTOR_PRIMARY, DETECTOR_SECONDARY } from './detector-variants.ts';
import { ABLATION_VARIANTS, type VariantName } from './variants.ts';
import { METHOD_NAMES } from '../methods/registry.ts';

/** Per-cell `limitIterations` (study v3's pre-registered budgets). */
export type CellLimits = Partial<Record<EnvName, Partial<Record<Horizon, number>>>>;

export interface StudyBudget extends Pick<TrainConfig, 'tasksPerIteration' | 'groupSize' | 'hiddenSize'> {
  /**
   * Env-step budget of every run, in iterations whose episodes all run to the step limit: one number
   * for every cell, or one per (env, horizon) (matrix.ts `limitIterationsOf`).
   */
  limitIterations: number | CellLimits;
  /** Most iterations a run may take (its config's `iters`). */
  maxIters: number;
}

export interface StudyProfile {
  name: 'full' | 'quick' | 'shop-pilot';
  /** One line on what this profile is for. */
  purpose: string;
  budget: StudyBudget;
  /** Seeds per cell by default: firstSeed … firstSeed + seeds − 1 (matrix.ts `seedList`). */
  seeds: number;
  firstSeed: number;
  envs: readonly EnvName[];
  horizons: readonly Horizon[];
  /** Variants compared on every horizon. */
  variants: readonly VariantName[];
  /** The horizon on which the ablations run (docs/maths.md §6). */
  ablationHorizon: Horizon;
  /** Variants on the ablation horizon only: the ablations (BEACON plus one override each) and others. */
  ablations: readonly VariantName[];
  /**
   * The detector study's arms (detector-variants.ts, pre-registration amendment 2), on the ablation horizon
   * only; `beaconReleased…` arms stand for each environment's released config (matrix.ts `variantInEnv`).
   */
  detector: readonly VariantName[];
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

/**
 * The compared variants, in every cell: every registered method but `custom` (a visitor's estimator
 * joins with `--estimator`), the released BEACON (the released config of each environment: matrix.ts
 * `variantInEnv`) and shaped-reward PPO, the paper's other baselines.
 */
const COMPARED: readonly VariantName[] = [...METHOD_NAMES.filter((m) => m !== 'custom'), 'beaconReleased', 'ppoShaped'];

/**
 * Pilot measurements (bench/study-pilot.ts), seconds per 1000 env steps; see FULL_PROFILE's notes. Each
 * environment's registry entry carries its own (`secondsPerKiloStep`, envs/<env>/entry.ts).
 */
const PILOT_SECONDS_PER_KILO_STEP = Object.fromEntries(ENV_NAMES.map((env) => [env, envEntry(env).secondsPerKiloStep])) as StudyProfile['secondsPerKiloStep'];

/**
 * Study v3's budgets, fixed by docs/results/preregistration.md before any run (its machine-readable
 * block; test/study/matrix.test.ts checks the two agree): where GRPO's smoothed success first reached half
 * its final value in study v2 (the shop: in the pilot below), at least 8 iterations.
 */
export const PREREGISTERED_LIMIT_ITERATIONS: CellLimits = {
  gridhouse: { short: 8, medium: 8, long: 11 },
  texthouse: { short: 8, medium: 12, long: 19 },
  // Amendment 1 (the shop pilot, `npm run study -- --shop-pilot`).
  shop: { short: 11, medium: 27, long: 23 },
};

export const FULL_PROFILE: StudyProfile = {
  name: 'full',
  purpose: 'study v3, pre-registered (docs/results/preregistration.md): every method, 15 seeds, three environments, three horizons',
  budget: { tasksPerIteration: 8, groupSize: 8, hiddenSize: 64, limitIterations: PREREGISTERED_LIMIT_ITERATIONS, maxIters: 80 },
  seeds: 15,
  firstSeed: 101,
  envs: ['gridhouse', 'texthouse', 'shop'],
  horizons: ['short', 'medium', 'long'],
  variants: COMPARED,
  ablationHorizon: 'long',
  ablations: ABLATION_VARIANTS,
  detector: [...DETECTOR_PRIMARY, ...DETECTOR_SECONDARY],
  outDir: 'docs/results',
  secondsPerKiloStep: PILOT_SECONDS_PER_KILO_STEP,
  notes: [
    'Batch and width are the page’s defaults (8 tasks × 8 runs, width 64), where the auto SFT prior was calibrated.',
    'Budgets are pre-registered per (env, horizon) cell (docs/results/preregistration.md): where GRPO’s last-5 mean success first reached half its final value in study v2 (the shop: in a pilot of GRPO on seeds 901–905, `npm run study -- --shop-pilot`), rounded up to whole full-length iterations, at least 8; so the budgets sit below the ceiling, where methods can differ. A run stops at 80 iterations at most: one whose episodes are short (under limitIterations / 80 of the step limit on average, e.g. under 29% of it on shop long tasks, where a policy that buys early ends its episodes fast) stops before its budget, and its AUC counts the steps it did not use at its last-5 mean success (docs/maths.md §11).',
    'Seeds 101–115: new seeds, so no task stream of study v2, which chose the questions, informs a test.',
    'Nothing was tuned per method: every variant trains with the same budget and shared hyperparameters; the endpoints, tests and margins were fixed in the pre-registration before any run.',
    'The detector study (amendment 2 of the pre-registration): BEACON, the released BEACON and shaped-reward PPO under each detector setting, and GRPO, BEACON and SFT under a sloppy teacher, on the long horizon with the same seeds and budgets; its runs were trained after the amendment’s commit.',
  ],
};

/**
 * The shop's pilot (pre-registration, "Budgets"): GRPO alone on seeds 901–905, every horizon, at study
 * v2's budget (32 full-length iterations), to size the shop's budgets by the same rule as the others.
 */
export const SHOP_PILOT_PROFILE: StudyProfile = {
  name: 'shop-pilot',
  purpose: 'the shop pilot of the pre-registration: GRPO on seeds 901–905, to size the shop’s budgets',
  budget: { tasksPerIteration: 8, groupSize: 8, hiddenSize: 64, limitIterations: 32, maxIters: 128 },
  seeds: 5,
  firstSeed: 901,
  envs: ['shop'],
  horizons: ['short', 'medium', 'long'],
  variants: ['grpo'],
  ablationHorizon: 'long',
  ablations: [],
  detector: [],
  outDir: 'docs/results/shop-pilot',
  secondsPerKiloStep: PILOT_SECONDS_PER_KILO_STEP,
  notes: ['The pilot only sizes the shop’s budgets; it enters no claim.'],
};

/** A smoke run of a few minutes: the whole pipeline on a small matrix, written apart from the real
 *  results so it never overwrites them. Its figures say nothing about the claims. */
export const QUICK_PROFILE: StudyProfile = {
  name: 'quick',
  purpose: 'smoke run of the pipeline (figures too small to judge the claims)',
  budget: { tasksPerIteration: 2, groupSize: 4, hiddenSize: 32, limitIterations: 2, maxIters: 6 },
  seeds: 2,
  firstSeed: 1,
  envs: ['gridhouse', 'texthouse', 'shop'],
  horizons: ['short', 'long'],
  variants: COMPARED,
  ablationHorizon: 'long',
  ablations: ABLATION_VARIANTS,
  // A few arms of each kind, so the smoke run goes through the detector study's code paths.
  detector: ['beaconFalseAlarmsHigh', 'beaconLoose', 'beaconReleasedFine', 'sftDemo30'],
  outDir: 'docs/results/quick',
  secondsPerKiloStep: PILOT_SECONDS_PER_KILO_STEP,
  notes: ['quick profile: a smoke test of the pipeline; its budget is far too small to judge any claim'],
};

export const PROFILES = { full: FULL_PROFILE, quick: QUICK_PROFILE, 'shop-pilot': SHOP_PILOT_PROFILE } as const;
