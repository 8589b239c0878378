/**
 * The study's document, study.json, built by one pure function from the runs, so a merge of shards gives
 * the same document as one unsharded invocation; readme.ts writes the README from it.
 */
import type { Horizon } from '../../envs/index.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../config.ts';
import { ALPHA, evaluateConfirmatoryClaims, MARGIN_AUC, MIN_EFFECT_AUC, STEPS_SHARE } from './confirmatory-claims.ts';
import { aucReadings, equalUpdates, type AucReadings, type EqualUpdatesCell } from './readings.ts';
import { countFailures, StudyCells, summariseCells } from './study-cells.ts';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, CI_LEVEL } from './confirmatory-stats.ts';
import type { CellSummary, ClaimRecord, FailureCount, PreregistrationRef, RunEndpoints } from './confirmatory-types.ts';
import { stepBudget, type MatrixDefinition, type RunSpec, type StudyBackend } from './matrix.ts';
import type { StudyBudget, StudyProfile } from './profile.ts';
import { FINAL_WINDOW, TARGET_SUCCESS, TRAILING_WINDOW, type RunResult } from './summary.ts';
import { variantSpec, type VariantName } from './variants.ts';

export const DEFINITIONS: Record<string, string> = {
  finalSuccess: `mean success rate over the last ${FINAL_WINDOW} iterations of the run (the iterations that spend the end of its env-step budget)`,
  itersTo60: `first iteration i ≥ ${TRAILING_WINDOW} at which the mean success of iterations i−${TRAILING_WINDOW - 1}…i is ≥ ${TARGET_SUCCESS * 100}%; null if never within the budget (docs/maths.md §5)`,
  stepsTo60: 'environment steps the run had used by the end of iteration itersTo60',
  envStepBudget:
    'the run’s budget in environment steps: limitIterations × tasksPerIteration × groupSize × the step limit of its (env, horizon); a run trains whole iterations until its steps reach it',
  envSteps: 'environment steps the run used (its budget, passed by less than one batch, or fewer when it hit maxIters)',
  start: 'the starting policy (the SFT prior, the same for every variant of a seed) measured on one batch of the evaluation stream before any update',
  sampleUtilization: 'run mean of the per-iteration share of runs with at least one step where |A| ≥ 1e-6 (docs/maths.md §5)',
  zeroAdvantageRatio: 'run mean of the per-iteration share of steps with |A| < 1e-6',
  contradictoryRatio: 'run mean of the per-iteration contradictory action ratio (iterations where it is undefined left out)',
  contradictoryPeak: `largest ${TRAILING_WINDOW}-iteration moving average of the contradictory action ratio`,
  signalRetention: 'run mean of Σ|ΣA| / ΣΣ|A| over repeated (group, state, action) keys',
  ccr: 'run mean of the credit concentration ratio (mean |A| of milestone steps / mean |A| of other steps)',
  anchorCoverage: 'GiGPO: run mean of the share of steps in step groups larger than one',
  cost: 'wall-time split summed over the run (ms): rollout, advantage, update, critic (critic PPO’s value network)',
  learnMsPerKiloStep: '(advantage + update + critic ms) per 1000 env steps: the compute spent learning from a sample',
  secondsPerIteration: 'the run’s iteration wall time (rollout included) per iteration',
  auc: 'primary 1: normalised area under success against env steps, iteration 0 left out (docs/maths.md §11)',
  stepsTo60Endpoint: 'primary 2: env steps to a last-5 mean success of 60%; the budget for a run that never got there (never60)',
  failedToStart: `whole-seed failure: the last-${TRAILING_WINDOW} mean success never rose 0.10 above iteration 0's`,
  outcomeMix: 'shares of partial and full successes over every sample of the run (T4)',
  contradictoryPeakSigned: 'T2: per-iteration peak of the contradictory ratio with all-zero keys left out of its denominator',
  'paired test': `paired by seed; effect = mean per-seed difference; CI = bootstrap percentile ${CI_LEVEL * 100}% (${BOOTSTRAP_RESAMPLES} resamples, seed ${BOOTSTRAP_SEED}); p = exact one-sided sign-flip permutation; Holm within families P and M (and amendment 2's D, S and E); "beats" needs adjusted p ≤ ${ALPHA} and an effect ≥ ${MIN_EFFECT_AUC} AUC (or ${STEPS_SHARE * 100}% of the budget in env steps to 60%); "agrees" = TOST at ±${MARGIN_AUC} AUC (docs/maths.md §11)`,
  'mean ± sd': 'over seeds; sd is the sample standard deviation (n − 1)',
};

/** A run as study.json v3 records it: its figures, curves and the pre-registered endpoints. */
export type StudyRunRecord = RunResult & RunEndpoints;

/** The tests' settings, as the pre-registration fixes them. */
export const TEST_SETTINGS = {
  alpha: ALPHA,
  bootstrap: { resamples: BOOTSTRAP_RESAMPLES, interval: 'percentile', level: CI_LEVEL, seed: BOOTSTRAP_SEED },
  pValue: 'exact paired sign-flip permutation',
  minimalEffect: { auc: MIN_EFFECT_AUC, stepsTo60: `${STEPS_SHARE} x budget` },
  equivalenceMargin: { auc: MARGIN_AUC, stepsTo60: `${STEPS_SHARE} x budget` },
  multiplicity: 'holm within family P and within family M; family T descriptive; amendment 2: holm within family D, within S and within E (secondary)',
} as const;

export type SharedHyperparameters = Omit<TrainConfig, 'env' | 'horizon' | 'method' | 'seed'>;

/** The settings every run shares before its variant's overrides (its env, horizon, method and seed are its own). */
export function sharedHyperparameters(budget: StudyBudget, backend: StudyBackend = 'wasm'): SharedHyperparameters {
  const {
    env: _env,
    horizon: _horizon,
    method: _method,
    seed: _seed,
    ...shared
  } = {
    ...DEFAULT_CONFIG,
    tasksPerIteration: budget.tasksPerIteration,
    groupSize: budget.groupSize,
    hiddenSize: budget.hiddenSize,
    iters: budget.maxIters,
    backend,
  };
  return shared;
}

export interface StudyDocument {
  /** 3 since study v3 (2 in v2, absent in v1's document). */
  version: 3;
  profile: StudyProfile['name'];
  purpose: string;
  command: string;
  /** The 40-hex commit of the clean tree the document was written at. */
  commit: string;
  /** Always false: the study refuses to write from a dirty tree (kept from v1's contract). */
  dirty: false;
  /** Distinct commits the runs were trained at (resumed or merged runs may come from earlier commits). */
  runCommits: string[];
  startedAt: string;
  finishedAt: string;
  /** Wall seconds of the invocation that trained the last runs (for a merge: the longest shard's). */
  wallSeconds: number;
  /** Sum of every run's own wall seconds. */
  runSeconds: number;
  workers: number;
  /** Shards the runs were trained in (1: one invocation). */
  shards: number;
  seeds: number;
  /** The matrix; `detector` (amendment 2's arms) is absent from documents written before it. */
  matrix: Omit<MatrixDefinition, 'detector'> & Partial<Pick<MatrixDefinition, 'detector'>>;
  budget: StudyBudget;
  /** Every (env, horizon)'s env-step budget. */
  envStepBudgets: Record<string, Partial<Record<Horizon, number>>>;
  /** The variants of the matrix: method and overrides. */
  variants: { name: VariantName; label: string; method: string; overrides: Partial<TrainConfig>; ablation: string | null }[];
  /** The settings every run shares (before its variant's overrides). */
  hyperparameters: SharedHyperparameters;
  definitions: Record<string, string>;
  /** The pre-registration (path, commit, amendments) and whether every run came after it. */
  preregistration: PreregistrationRef | null;
  tests: typeof TEST_SETTINGS;
  runs: StudyRunRecord[];
  /** Every (env, horizon, variant) cell over its seeds, with bootstrap intervals. */
  cells: CellSummary[];
  /** Whole-seed failures per cell, reported apart from the means. */
  failures: FailureCount[];
  /** Empirical claims (families P, M, T) and identities (family I), one record per claim and environment. */
  claims: ClaimRecord[];
  /** Every AUC claim under the AUC as coded (the claims above) and as the pre-registration reads (readings.ts). */
  aucReadings: AucReadings;
  /** Success against iterations (PPO updates) on the ablation horizon's cells: equal env steps are not equal updates. */
  equalUpdates: EqualUpdatesCell[];
}

export interface DocumentMeta {
  profile: StudyProfile;
  seeds: number;
  command: string;
  commit: string;
  startedAt: string;
  finishedAt: string;
  wallSeconds: number;
  workers: number;
  shards: number;
  /** cli/preregistration-ref.ts, from git; null outside a repository. */
  preregistration: PreregistrationRef | null;
  /** Where the runs trained: wasm (the pre-registered study; the default) or webgpu (a GPU study). */
  backend?: StudyBackend;
}

/** The study document of `runs` (in matrix order: `specs`); pure, so shards merge to the same document. */
export function buildStudyDocument(specs: readonly RunSpec[], results: ReadonlyMap<string, RunResult>, meta: DocumentMeta): StudyDocument {
  const { profile } = meta;
  const envStepBudgets: StudyDocument['envStepBudgets'] = {};
  for (const env of profile.envs) {
    envStepBudgets[env] = {};
    for (const h of [...new Set([...profile.horizons, ...(profile.ablations.length ? [profile.ablationHorizon] : [])])])
      envStepBudgets[env][h] = stepBudget({ env, horizon: h }, profile.budget);
  }
  const found = specs.map((s) => results.get(`${s.env}-${s.horizon}-${s.variant}-s${s.seed}`)).filter((r): r is RunResult => r !== undefined);
  // Every run's endpoints are computed once, in the cells that the summaries and the claims read.
  const cells = new StudyCells(found, envStepBudgets);
  const runs: StudyRunRecord[] = found.map((r) => ({ ...r, ...cells.endpointsOf(r) }));
  const matrix: MatrixDefinition = {
    envs: profile.envs,
    horizons: profile.horizons,
    variants: profile.variants,
    ablationHorizon: profile.ablationHorizon,
    ablations: profile.ablations,
    detector: profile.detector,
  };
  const claims = evaluateConfirmatoryClaims(cells);
  const shared = sharedHyperparameters(profile.budget, meta.backend);
  return {
    version: 3,
    profile: profile.name,
    purpose: profile.purpose,
    command: meta.command,
    commit: meta.commit,
    dirty: false,
    runCommits: [...new Set(runs.map((r) => r.commit).filter((c): c is string => typeof c === 'string'))].sort(),
    startedAt: meta.startedAt,
    finishedAt: meta.finishedAt,
    wallSeconds: meta.wallSeconds,
    runSeconds: runs.reduce((a, r) => a + r.seconds, 0),
    workers: meta.workers,
    shards: meta.shards,
    seeds: meta.seeds,
    matrix,
    budget: profile.budget,
    envStepBudgets,
    variants: [...new Set([...profile.variants, ...profile.ablations, ...profile.detector])].map((name) => {
      const v = variantSpec(name);
      return { name, label: v.label, method: v.method, overrides: v.overrides, ablation: v.ablation };
    }),
    hyperparameters: shared,
    definitions: DEFINITIONS,
    preregistration: meta.preregistration,
    tests: TEST_SETTINGS,
    runs,
    cells: summariseCells(cells),
    failures: countFailures(cells),
    claims,
    aucReadings: aucReadings(found, envStepBudgets, claims),
    equalUpdates: equalUpdates(cells, profile.ablationHorizon, shared.epochs * shared.minibatches),
  };
}

/** study.json: indented, but arrays of plain numbers (the curves) kept on one line each. */
export function studyJson(doc: StudyDocument): string {
  const text = JSON.stringify(doc, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 1);
  return `${text.replace(/\[\n[\s\d.eE+\-,null]*\]/g, (m) => m.replace(/\s+/g, ''))}\n`;
}
