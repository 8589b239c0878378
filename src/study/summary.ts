/**
 * From one run's iteration records to the figures the study reports, and from many runs to mean ± sd.
 *
 * Definitions (also written into study.json and the README):
 * - finalSuccess: mean success over the last FINAL_WINDOW iterations (all of them if fewer): the last 5, as the
 *   pre-registration defines the secondary endpoint (docs/results/preregistration.md).
 * - itersTo60: iterations to TARGET_SUCCESS, as on the page (src/metrics/iterations-to-target.ts);
 *   null if the target is not reached within the budget.
 * - sampleUtilization, zeroAdvantageRatio, contradictoryRatio, signalRetention, ccr: means over the
 *   run's iterations of the per-iteration figures (docs/maths.md §5); iterations where a figure is undefined
 *   (NaN, e.g. no repeated state keys) are left out; null if it is undefined throughout.
 * - contradictoryPeak: the largest TRAILING_WINDOW-iteration moving average of contradictoryRatio (the
 *   paper quotes the ratio "at its peak"; the moving average keeps one noisy batch from setting it).
 * - envSteps: environment steps the run used (its budget, passed by less than one batch, or fewer when
 *   it hit the iteration cap); stepsTo60: env steps used up to the iteration itersTo60.
 * - cost: the wall-time split summed over the run (ms); learnMsPerKiloStep: advantages + update + critic
 *   per 1000 env steps (the compute a method spends on learning from a sample; the rollout is the same
 *   policy forward pass for every method); secondsPerIteration: the run's wall seconds per iteration.
 */
import { CREDIT_METRIC_NAMES } from '../metrics/credit-metrics.ts';
import { itersToTarget, TARGET_SUCCESS, TRAILING_WINDOW } from '../metrics/iterations-to-target.ts';
import type { IterationRecord } from '../trainer/iteration-record.ts';
import { runKey, type RunSpec } from './matrix.ts';
import type { VariantName } from './variants.ts';

export const FINAL_WINDOW = TRAILING_WINDOW;
export { itersToTarget, TARGET_SUCCESS, TRAILING_WINDOW };

/** The per-iteration figures the study keeps of each record. */
export type IterationFigures = Pick<
  IterationRecord,
  | 'success'
  | 'partial'
  | 'failure'
  | 'sampleUtilization'
  | 'zeroAdvantageRatio'
  | 'contradictoryRatio'
  | 'contradictoryRatioSigned'
  | 'signalRetention'
  | 'ccr'
  | 'meanEpisodeLength'
  | 'envSteps'
  | 'ms'
  | 'anchorCoverage'
  | 'valueLoss'
>;

const CURVE_NAMES = [...CREDIT_METRIC_NAMES, 'meanEpisodeLength', 'envSteps'] as const satisfies readonly (keyof IterationFigures)[];
export type CurveName = (typeof CURVE_NAMES)[number];

/** One run's figures, per iteration; null where a figure is undefined (NaN). `envSteps` is cumulative. */
export type RunCurves = Record<CurveName, (number | null)[]>;

/** The wall-time split of a run, summed over its iterations (ms). */
export interface RunCost {
  rollout: number;
  advantage: number;
  update: number;
  critic: number;
}

/** The starting policy (the SFT prior) measured on the evaluation stream, before any update. */
export interface StartFigures {
  success: number;
  partial: number;
}

export interface RunResult extends RunSpec {
  key: string;
  variant: VariantName;
  /** The variant's config overrides on its method (src/study/variants.ts). */
  overrides: Record<string, unknown>;
  /** The 40-hex commit of the clean tree the run was trained at (set by the study when it stores the run). */
  commit?: string;
  /** Iterations completed (the budget, unless training stopped on a non-finite loss). */
  iterations: number;
  /** Set when training stopped early; the figures cover the iterations before it. */
  stopped: string | null;
  finalSuccess: number;
  itersTo60: number | null;
  sampleUtilization: number | null;
  zeroAdvantageRatio: number | null;
  contradictoryRatio: number | null;
  contradictoryPeak: number | null;
  signalRetention: number | null;
  ccr: number | null;
  /** GiGPO: run mean of the anchor-state coverage; null for other methods. */
  anchorCoverage: number | null;
  /** The env-step budget the run trained to, and the steps it used. */
  envStepBudget: number;
  envSteps: number;
  stepsTo60: number | null;
  start: StartFigures | null;
  cost: RunCost;
  learnMsPerKiloStep: number | null;
  secondsPerIteration: number | null;
  /**
   * Wall seconds the run took in its worker (SFT prior and iteration 0 included); in a GPU study, its
   * cell's wall seconds divided by the cell's seeds (they trained as one batch).
   */
  seconds: number;
  /** A GPU study's runs only (absent on wasm, the pre-registered study's backend): where the run trained. */
  backend?: 'webgpu';
  /** A GPU study's runs only: the adapter, as the backend names it. */
  adapter?: string;
  curves: RunCurves;
}

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** Mean of the finite values; null if there are none. */
function meanOf(xs: readonly (number | null)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const x of xs)
    if (finite(x)) {
      sum += x;
      n++;
    }
  return n > 0 ? sum / n : null;
}

export interface MeanSd {
  mean: number | null;
  /** Sample standard deviation (n − 1); 0 for a single value, null for none. */
  sd: number | null;
  n: number;
}

/** Mean ± sample sd of the finite values. */
export function meanSd(xs: readonly (number | null)[]): MeanSd {
  const v = xs.filter(finite);
  const n = v.length;
  if (n === 0) return { mean: null, sd: null, n };
  const mean = v.reduce((a, x) => a + x, 0) / n;
  if (n === 1) return { mean, sd: 0, n };
  const ss = v.reduce((a, x) => a + (x - mean) ** 2, 0);
  return { mean, sd: Math.sqrt(ss / (n - 1)), n };
}

/** Mean success over the last `window` iterations (all of them if fewer). */
export function finalSuccess(success: readonly number[], window = FINAL_WINDOW): number {
  if (success.length === 0) return 0;
  const tail = success.slice(-window);
  return tail.reduce((a, x) => a + x, 0) / tail.length;
}

/** Largest `window`-iteration moving average of the finite values (windows without one are skipped). */
export function peakMovingAverage(xs: readonly (number | null)[], window = TRAILING_WINDOW): number | null {
  let best: number | null = null;
  for (let end = Math.min(window, xs.length); end <= xs.length; end++) {
    const m = meanOf(xs.slice(Math.max(0, end - window), end));
    if (m !== null && (best === null || m > best)) best = m;
  }
  return best;
}

export interface RunExtras {
  envStepBudget: number;
  overrides?: Record<string, unknown>;
  start?: StartFigures | null;
  stopped?: string | null;
}

/** A run's result from its iteration records. */
export function summarizeRun(spec: RunSpec, records: readonly IterationFigures[], seconds: number, extras: RunExtras): RunResult {
  let steps = 0;
  const cumulative = records.map((r) => (steps += r.envSteps));
  const curves = Object.fromEntries(
    CURVE_NAMES.map((name) => [name, name === 'envSteps' ? cumulative : records.map((r) => (finite(r[name]) ? r[name] : null))]),
  ) as RunCurves;
  const success = records.map((r) => r.success);
  const cost: RunCost = { rollout: 0, advantage: 0, update: 0, critic: 0 };
  for (const r of records) {
    cost.rollout += r.ms.rollout;
    cost.advantage += r.ms.advantage;
    cost.update += r.ms.update;
    cost.critic += r.ms.critic ?? 0;
  }
  const itersTo60 = itersToTarget(success);
  const stopped = extras.stopped ?? null;
  return {
    key: runKey(spec),
    ...spec,
    overrides: extras.overrides ?? {},
    iterations: records.length,
    stopped,
    finalSuccess: finalSuccess(success),
    itersTo60,
    sampleUtilization: meanOf(curves.sampleUtilization),
    zeroAdvantageRatio: meanOf(curves.zeroAdvantageRatio),
    contradictoryRatio: meanOf(curves.contradictoryRatio),
    contradictoryPeak: peakMovingAverage(curves.contradictoryRatio),
    signalRetention: meanOf(curves.signalRetention),
    ccr: meanOf(curves.ccr),
    anchorCoverage: meanOf(records.map((r) => r.anchorCoverage ?? null)),
    envStepBudget: extras.envStepBudget,
    envSteps: steps,
    stepsTo60: itersTo60 === null ? null : cumulative[itersTo60 - 1],
    start: extras.start ?? null,
    cost,
    learnMsPerKiloStep: steps > 0 ? ((cost.advantage + cost.update + cost.critic) / steps) * 1000 : null,
    secondsPerIteration: records.length ? (cost.rollout + cost.advantage + cost.update + cost.critic) / 1000 / records.length : null,
    seconds,
    curves,
  };
}

/** Points of the env-step grid a cell's curves are averaged on (charts and study.json's cell curves). */
export const STEP_GRID_POINTS = 60;

/** The common env-step grid of a cell: STEP_GRID_POINTS equal steps, the last one at the budget. */
export function stepGrid(envStepBudget: number): number[] {
  const budget = Math.max(1, envStepBudget);
  return Array.from({ length: STEP_GRID_POINTS }, (_, k) => Math.round(((k + 1) / STEP_GRID_POINTS) * budget));
}

/**
 * A curve on an env-step grid: the value at step s is the figure of the iteration during which the
 * run's s-th step was taken (null past the steps the run used). Runs of one cell have different
 * iteration counts under an env-step budget, so their curves are averaged on this grid.
 */
export function curveOnSteps(run: Pick<RunResult, 'curves'>, name: CurveName, grid: readonly number[]): (number | null)[] {
  return placeOnSteps(run, name, grid).values;
}

/** Each grid step's value from the iteration that took it, and whether the step lies past the run's last. */
function placeOnSteps(run: Pick<RunResult, 'curves'>, name: CurveName, grid: readonly number[]): { values: (number | null)[]; past: boolean[] } {
  const steps = run.curves.envSteps;
  const curve = run.curves[name];
  const values: (number | null)[] = [];
  const past: boolean[] = [];
  let i = 0;
  for (const s of grid) {
    while (i < steps.length && (steps[i] ?? Infinity) < s) i++;
    values.push(i < steps.length ? (curve[i] ?? null) : null);
    past.push(i >= steps.length);
  }
  return { values, past };
}

/**
 * A curve on an env-step grid with the run carried to the end of the grid the way the AUC counts the
 * steps it left unused (docs/maths.md §11): at the mean of its last 5 iterations, or at 0 when it
 * stopped on a non-finite loss (as a complete failure on the failure curve). A run whose episodes end sooner runs more iterations within the same
 * budget; without this, a cell's late points would average only the runs still going (the learners'
 * peers drop out first or last depending on the method, and the mean flatters whoever remains).
 * `observed[k]` says whether the run itself took grid step k.
 */
export function carriedCurveOnSteps(
  run: Pick<RunResult, 'curves' | 'stopped'>,
  name: CurveName,
  grid: readonly number[],
): { values: (number | null)[]; observed: boolean[] } {
  const { values, past } = placeOnSteps(run, name, grid);
  const tail = run.stopped ? (name === 'failure' ? 1 : 0) : finalSuccess(run.curves[name].filter(finite));
  return { values: values.map((v, k) => (past[k] ? tail : v)), observed: past.map((p) => !p) };
}

/**
 * Per-grid-point mean ± sd of one curve over runs, on an env-step grid (curveOnSteps); `n` counts the
 * runs behind each point. With `carry`, every run counts at every point (carriedCurveOnSteps) and
 * `observed` counts the runs that took that step themselves.
 */
export function aggregateOnSteps(
  runs: readonly Pick<RunResult, 'curves' | 'stopped'>[],
  name: CurveName,
  grid: readonly number[],
  options: { carry?: boolean } = {},
): { mean: (number | null)[]; sd: (number | null)[]; n: number[]; observed: number[] } {
  const placed = runs.map((r) => {
    if (options.carry) return carriedCurveOnSteps(r, name, grid);
    const values = curveOnSteps(r, name, grid);
    return { values, observed: values.map((v) => v !== null) };
  });
  const mean: (number | null)[] = [];
  const sd: (number | null)[] = [];
  const n: number[] = [];
  const observed: number[] = [];
  grid.forEach((_, k) => {
    const s = meanSd(placed.map((c) => c.values[k]));
    mean.push(s.mean);
    sd.push(s.sd);
    n.push(s.n);
    observed.push(placed.filter((c) => c.observed[k]).length);
  });
  return { mean, sd, n, observed };
}

/** Median of itersTo60 values with never-reached (null) runs counted as +∞; null for no runs. */
export function medianIters(values: readonly (number | null)[]): number | null {
  if (values.length === 0) return null;
  const v = values.map((x) => x ?? Infinity).sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

/** Per-iteration mean ± sd of one curve over several runs (runs that stopped early drop out). */
export function aggregateCurve(runs: readonly Pick<RunResult, 'curves'>[], name: CurveName): { mean: (number | null)[]; sd: (number | null)[]; n: number[] } {
  const length = Math.max(0, ...runs.map((r) => r.curves[name].length));
  const mean: (number | null)[] = [];
  const sd: (number | null)[] = [];
  const n: number[] = [];
  for (let i = 0; i < length; i++) {
    const s = meanSd(runs.map((r) => r.curves[name][i] ?? null));
    mean.push(s.mean);
    sd.push(s.sd);
    n.push(s.n);
  }
  return { mean, sd, n };
}

/** Selects runs by any of their spec fields (and the variant). */
export function selectRuns<R extends Pick<RunResult, 'env' | 'horizon' | 'variant' | 'seed'>>(
  runs: readonly R[],
  where: Partial<Pick<RunResult, 'env' | 'horizon' | 'variant' | 'seed'>>,
): R[] {
  return runs.filter((r) => (Object.keys(where) as (keyof typeof where)[]).every((k) => r[k] === where[k]));
}
