/**
 * The shapes study v3 adds to study.json (version 3): per-run endpoints, per-cell summaries with
 * bootstrap intervals, whole-seed failures, and claims with their effect, interval and verdict. The
 * definitions are those of docs/results/preregistration.md and docs/maths.md §11; the code that computes
 * them is src/study/endpoints.ts (per run), src/study/confirmatory-stats.ts (tests) and
 * src/study/confirmatory-claims.ts (claims). The results view (src/results/) reads only these shapes.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';

/** The per-run endpoints study v3 adds beside a run's curves (RunResult in summary.ts). */
export interface RunEndpoints {
  /** Primary 1: normalised area under success against env steps, 0…1 (iteration 0 left out). */
  auc: number;
  /** Primary 2: env steps to a last-5 mean success of 0.6; the budget when never reached. */
  stepsTo60Endpoint: number;
  /** True when the run never reached 0.6 (stepsTo60Endpoint is then the budget). */
  never60: boolean;
  /** Whole-seed failure: the last-5 mean success never rose 0.10 above iteration 0's success. */
  failedToStart: boolean;
  /** Outcome mix over every sample of the run (T4): fraction partial (≥ 1 milestone, no success), fraction success. */
  outcomeMix: { partial: number; full: number };
  /**
   * T2: the per-iteration peak of the contradictory ratio with keys whose advantages are all |A| < 1e-6
   * left out of the denominator; null when no iteration has a key with a sign.
   */
  contradictoryPeakSigned: number | null;
  /** Secondary endpoint: mean success of the last 5 iterations (summary.ts's `finalSuccess` uses 10). */
  finalSuccess?: number;
}

/** Mean over seeds with its bootstrap percentile interval. */
export interface MeanWithInterval {
  mean: number;
  ci: [number, number];
  n: number;
}

/** One (env, horizon, variant) cell of the matrix, summarised over its seeds. */
export interface CellSummary {
  env: EnvName;
  horizon: Horizon;
  variant: string;
  label: string;
  envStepBudget: number;
  seeds: number[];
  auc: MeanWithInterval;
  /** Env steps to 60% (the budget for runs that never get there). */
  stepsTo60: MeanWithInterval;
  /** Runs that never reached 60%. */
  never60: number;
  finalSuccess: MeanWithInterval;
  /** Whole-seed failures (runs that never start) and the means without them. */
  failures: number;
  withoutFailures: { auc: number | null; finalSuccess: number | null; n: number };
  /**
   * Mean success curve over every seed of the cell on a common env-step grid ending at the budget, each
   * run carried past its last iteration the way the AUC counts it (docs/maths.md §11), with a bootstrap
   * 95% band per point; `observed` counts the runs that took each point's step themselves (the rest are
   * carried). Documents written before the grid have no `observed` and average per iteration.
   */
  curve: { envSteps: number[]; success: number[]; low: number[]; high: number[]; observed?: number[] };
}

/** One paired test inside a claim (one env, or one cell for per-cell claims). */
export interface PairedTestRecord {
  /** What is compared, e.g. "BEACON − GRPO". */
  comparison: string;
  seeds: number[];
  diffs: number[];
  /** Mean of the per-seed differences. */
  effect: number;
  ci: [number, number];
  /** Exact one-sided sign-flip p (or, for equivalence, the larger of the two TOST p-values). */
  p: number | null;
  /** After Holm within the claim's family; null in family T (descriptive). */
  pAdjusted: number | null;
}

export type ClaimKind = 'empirical' | 'identity';
/** P, M, T, I: study v3; D, S (confirmatory) and E (secondary): the detector study, amendment 2. */
export type ClaimFamily = 'P' | 'M' | 'T' | 'I' | 'D' | 'S' | 'E';

/** A claim as study.json records it: one record per claim and environment (per cell for M8). */
export interface ClaimRecord {
  /** The pre-registered id (P1…P4, M1…M9, T1…T4, I1, I2). */
  id: string;
  family: ClaimFamily;
  kind: ClaimKind;
  /** The environment the record judges; null when the claim spans environments (e.g. M6's contrast is per household env, so it is never null there). */
  env: EnvName | null;
  /** The horizon for per-cell claims (M8); else null. */
  horizon: Horizon | null;
  /** The claim, one sentence. */
  claim: string;
  /** The paper's figure or statement. */
  paper: string;
  /** Our figures, one sentence. */
  ours: string;
  /** 'auc', 'stepsTo60', 'finalSuccess', or the metric of a threshold claim. */
  endpoint: string;
  /** The effect (mean paired difference, or the measured value for family T and identities); null when untestable. */
  effect: number | null;
  ci: [number, number] | null;
  /** true / false; null when untestable (then `untestable` says why). */
  held: boolean | null;
  untestable: string | null;
  /** The rule applied, in words (threshold, minimal effect, margin, α after Holm). */
  rule: string;
  tests: PairedTestRecord[];
}

/** Whole-seed failures per method and cell (reported apart from the means). */
export interface FailureCount {
  env: EnvName;
  horizon: Horizon;
  variant: string;
  failures: number;
  runs: number;
}

/** Where the pre-registration lives and the commit that added it; every run's commit comes after it. */
export interface PreregistrationRef {
  path: string;
  commit: string;
  /**
   * Amendments (dated sections) with the commit that added each and how many runs were trained after it
   * (an amendment that sets the shop's budgets must come before every shop run).
   */
  amendments: { title: string; commit: string; runsAfterIt: number }[];
  /** True when every run's commit descends from `commit` (checked with git when the document is written). */
  runsAfter: boolean;
}
