/**
 * The study's settings in one place: which runs it makes (the method × horizon × ablation matrix) and the training
 * budget every one of them gets.
 *
 * Every method and ablation trains with the same budget and the same hyperparameters (the defaults of
 * src/config.ts); only the fields below differ from those defaults, and they differ for every run alike.
 * The budget was chosen from measured iteration times so that the default study fits in 60 minutes on
 * a 2-core machine (docs/results/README.md shows the table and the measurements behind it).
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import type { AblationName, TrainConfig } from '../config.ts';
import type { Method } from '../methods/registry.ts';

/** The config fields the study sets; everything else keeps its default. */
export type StudyBudget = Pick<TrainConfig, 'iters' | 'tasksPerIteration' | 'groupSize' | 'hiddenSize'>;

export interface StudyProfile {
  name: 'full' | 'quick';
  /** One line on what this profile is for. */
  purpose: string;
  budget: StudyBudget;
  /** Seeds 1…seeds per cell. */
  seeds: number;
  envs: readonly EnvName[];
  /** Methods compared on every horizon (keys of the method registry). */
  methods: readonly Method[];
  /** Horizons on which the methods are compared. */
  horizons: readonly Horizon[];
  /** The horizon on which the ablations run (docs/maths.md §6). */
  ablationHorizon: Horizon;
  ablations: readonly AblationName[];
  /** Output folder, relative to the repository root. */
  outDir: string;
  /** Measured mean seconds per iteration at this budget, by env and horizon, on one core: the ETA's
   *  prior before the first runs finish (then measured times take over). */
  secondsPerIteration: Record<EnvName, Partial<Record<Horizon, number>>>;
  /** How the budget was chosen, one line each (copied into the README). */
  notes: readonly string[];
}

const ALL_ABLATIONS: readonly AblationName[] = ['gamma1', 'gamma0', 'randomSegments', 'milestoneDropout', 'noTrajectoryTerm', 'stepMean'];

/**
 * The default study: 2 envs × (3 horizons × 2 methods + 6 ablations on long) × 5 seeds = 120 runs.
 *
 * Budget table (the same for every run; everything else is the trainer's default):
 *
 * | setting           | value | why                                                                   |
 * | ----------------- | ----- | --------------------------------------------------------------------- |
 * | iters             | 80    | texthouse long: BEACON passes 60% near iteration 45 (pilot, seed 1), so 80 leaves room for GRPO to catch up if it can; the most that fits 60 min |
 * | tasksPerIteration | 4     | an iteration's cost is mostly the PPO update, linear in the batch: 4 tasks instead of the default 8 buys twice the iterations |
 * | groupSize         | 8     | the paper's and trainer's G: groups small enough to be all-fail would starve GRPO unfairly |
 * | hiddenSize        | 32    | half the default width costs 2–3× less per step; the pilots learn every horizon with it |
 *
 * Measured (on this 2-core machine, wasm, GRPO's first iterations, when every episode runs to
 * its step limit, i.e. the worst case; two runs at a time): seconds per iteration gridhouse short 0.15,
 * medium 0.25, long 0.42–0.59; texthouse short 0.23, medium 0.36, long 0.59–0.75. Worst case for the
 * whole matrix: 5 seeds × (gridhouse 8 × 0.5 + 2 × 0.3 + 2 × 0.18 + texthouse 8 × 0.75 + 2 × 0.42 +
 * 2 × 0.27) s ≈ 62 s per iteration of the matrix, × 80 iterations / 2 workers ≈ 41 min, plus ~2 min of
 * worker start-up; runs that learn end their episodes early and cost less.
 */
export const FULL_PROFILE: StudyProfile = {
  name: 'full',
  purpose: 'the study of the paper’s claims: every claim, 5 seeds, both environments',
  budget: { iters: 80, tasksPerIteration: 4, groupSize: 8, hiddenSize: 32 },
  seeds: 5,
  envs: ['gridhouse', 'texthouse'],
  methods: ['grpo', 'beacon'],
  horizons: ['short', 'medium', 'long'],
  ablationHorizon: 'long',
  ablations: ALL_ABLATIONS,
  outDir: 'docs/results',
  secondsPerIteration: {
    gridhouse: { short: 0.18, medium: 0.3, long: 0.5 },
    texthouse: { short: 0.27, medium: 0.42, long: 0.75 },
  },
  notes: [
    'Budget chosen so that the default study fits in 60 minutes on a 2-core machine with 2 workers: at 4 tasks × 8 runs, width 32, the worst case (every episode to its step limit) measured 0.15–0.59 s per iteration on gridhouse and 0.23–0.75 s on texthouse (short → long), ≈ 41 min for the matrix.',
    'Pilots before the study (seed 1, 80 iterations): gridhouse long, BEACON reached 97% at iteration 6 and GRPO at iteration 34; texthouse long, BEACON passed 60% near iteration 45 while GRPO stayed below 35%.',
    'Nothing was tuned per method: the pilots only sized the iteration budget. The claim rules (src/study/claims.ts) were fixed before the study ran; the quick smoke run prompted one change, a minimum gain of 5 points, so that 0.4% against 0% no longer counts as BEACON beating GRPO.',
  ],
};

/** A smoke run of a few minutes: the whole pipeline on a small matrix, written apart from the real
 *  results so it never overwrites them. Its figures say nothing about the claims. */
export const QUICK_PROFILE: StudyProfile = {
  name: 'quick',
  purpose: 'smoke run of the pipeline (figures too small to judge the claims)',
  budget: { iters: 12, tasksPerIteration: 4, groupSize: 4, hiddenSize: 32 },
  seeds: 2,
  envs: ['gridhouse', 'texthouse'],
  methods: ['grpo', 'beacon'],
  horizons: ['short', 'long'],
  ablationHorizon: 'long',
  ablations: ALL_ABLATIONS,
  outDir: 'docs/results/quick',
  secondsPerIteration: {
    gridhouse: { short: 0.2, long: 0.3 },
    texthouse: { short: 0.3, long: 0.6 },
  },
  notes: ['quick profile: a smoke test of the pipeline; its budget is far too small to judge any claim'],
};

export const PROFILES = { full: FULL_PROFILE, quick: QUICK_PROFILE } as const;
