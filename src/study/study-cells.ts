/**
 * Study v3's runs grouped into cells (env, horizon, variant), each run with its endpoints computed once
 * from its curves at the cell's pre-registered budget (src/study/endpoints.ts, docs/maths.md §11); the
 * per-cell summaries and whole-seed failures that study.json records. The claims
 * (confirmatory-claims.ts) read the same cells.
 */
import { ENV_NAMES, type EnvName, type Horizon } from '../../envs/index.ts';
import { bootstrapMeanCI } from './confirmatory-stats.ts';
import type { CellSummary, FailureCount, MeanWithInterval, RunEndpoints } from './confirmatory-types.ts';
import { runEndpoints, type AucDefinition } from './endpoints.ts';
import { HORIZON_ORDER } from './matrix.ts';
import { carriedCurveOnSteps, stepGrid, type RunResult } from './summary.ts';
import { VARIANT_NAMES, variantLabel, type VariantName } from './variants.ts';

/** What the claims read of a run. */
export type StudyRun = Pick<
  RunResult,
  'key' | 'env' | 'horizon' | 'variant' | 'seed' | 'curves' | 'stopped' | 'stepsTo60' | 'envStepBudget' | 'signalRetention' | 'ccr' | 'sampleUtilization'
>;

/** The pre-registered env-step budget per cell; a cell absent here uses the largest budget its runs recorded. */
export type CellBudgets = Partial<Record<EnvName, Partial<Record<Horizon, number>>>>;

/** Resamples of the per-point bootstrap band of a cell's mean curve (a chart, not a test). */
export const CURVE_BAND_RESAMPLES = 1000;

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

export interface EndpointRun {
  run: StudyRun;
  endpoints: RunEndpoints & { finalSuccess: number };
}

export class StudyCells {
  private readonly byCell = new Map<string, EndpointRun[]>();
  private readonly byRun = new Map<string, RunEndpoints>();

  /** `auc` picks the reading of primary 1 the endpoints use (endpoints.ts); the claims use 'asCoded'. */
  constructor(
    runs: readonly StudyRun[],
    private readonly budgets: CellBudgets,
    readonly auc: AucDefinition = 'asCoded',
  ) {
    const grouped = new Map<string, StudyRun[]>();
    for (const run of runs) {
      const key = StudyCells.key(run.env, run.horizon, run.variant);
      const cell = grouped.get(key);
      if (cell) cell.push(run);
      else grouped.set(key, [run]);
    }
    for (const [key, cellRuns] of grouped) {
      const budget = this.budget(cellRuns[0].env, cellRuns[0].horizon, cellRuns);
      const withEndpoints = cellRuns
        .map((run) => ({ run, endpoints: runEndpoints(run, budget, auc) as RunEndpoints & { finalSuccess: number } }))
        .sort((a, b) => a.run.seed - b.run.seed);
      for (const r of withEndpoints) this.byRun.set(r.run.key, r.endpoints);
      this.byCell.set(key, withEndpoints);
    }
  }

  /** A run's endpoints at its cell's budget (the run must be one of the cells'). */
  endpointsOf(run: Pick<StudyRun, 'key'>): RunEndpoints {
    const e = this.byRun.get(run.key);
    if (!e) throw new RangeError(`run ${run.key} is not in the study's cells`);
    return e;
  }

  static key(env: string, horizon: string, variant: string): string {
    return `${env}|${horizon}|${variant}`;
  }

  budget(env: EnvName, horizon: Horizon, cellRuns?: readonly StudyRun[]): number {
    const fixed = this.budgets[env]?.[horizon];
    if (finite(fixed)) return fixed;
    const recorded = (cellRuns ?? this.anyRuns(env, horizon)).map((r) => r.envStepBudget);
    // NaN when the cell did not run (its claims are then untestable).
    return recorded.length > 0 ? Math.max(...recorded) : Number.NaN;
  }

  private anyRuns(env: EnvName, horizon: Horizon): StudyRun[] {
    return [...this.byCell.entries()].filter(([k]) => k.startsWith(`${env}|${horizon}|`)).flatMap(([, rs]) => rs.map((r) => r.run));
  }

  get(env: EnvName, horizon: Horizon, variant: VariantName): EndpointRun[] {
    return this.byCell.get(StudyCells.key(env, horizon, variant)) ?? [];
  }

  /** Every cell present, in table order: environments, horizons, variants. */
  list(): { env: EnvName; horizon: Horizon; variant: VariantName; runs: EndpointRun[] }[] {
    const out = [...this.byCell.values()].map((runs) => ({ env: runs[0].run.env, horizon: runs[0].run.horizon, variant: runs[0].run.variant, runs }));
    const variantOrder = (v: string) => {
      const i = VARIANT_NAMES.indexOf(v as VariantName);
      return i < 0 ? VARIANT_NAMES.length : i;
    };
    return out.sort(
      (a, b) =>
        ENV_NAMES.indexOf(a.env) - ENV_NAMES.indexOf(b.env) ||
        HORIZON_ORDER[a.horizon] - HORIZON_ORDER[b.horizon] ||
        variantOrder(a.variant) - variantOrder(b.variant) ||
        a.variant.localeCompare(b.variant),
    );
  }
}

function meanWithInterval(xs: readonly number[]): MeanWithInterval {
  return xs.length === 0 ? { mean: Number.NaN, ci: [Number.NaN, Number.NaN], n: 0 } : { mean: mean(xs), ci: bootstrapMeanCI(xs), n: xs.length };
}

/**
 * Mean success curve over a cell's runs on the cell's common env-step grid (summary.ts `stepGrid`),
 * every run carried to the budget the way the AUC counts it (summary.ts `carriedCurveOnSteps`), so the
 * last point is the mean over all the cell's runs at the budget; `observed` counts, per point, the runs
 * that took that step themselves.
 */
function meanCurve(runs: readonly EndpointRun[], envStepBudget: number): CellSummary['curve'] {
  const observed: number[] = [];
  const curve: CellSummary['curve'] = { envSteps: [], success: [], low: [], high: [], observed };
  if (runs.length === 0 || !(envStepBudget > 0)) return curve;
  const grid = stepGrid(envStepBudget);
  const placed = runs.map((r) => carriedCurveOnSteps(r.run, 'success', grid));
  grid.forEach((step, k) => {
    const success = placed.map((p) => p.values[k]).filter(finite);
    if (success.length === 0) return;
    // The band is drawn, not tested: 1,000 resamples per point keep a 1,200-run document quick to write.
    const [low, high] = bootstrapMeanCI(success, { resamples: CURVE_BAND_RESAMPLES });
    curve.envSteps.push(step);
    curve.success.push(mean(success));
    curve.low.push(low);
    curve.high.push(high);
    observed.push(placed.filter((p) => p.observed[k]).length);
  });
  return curve;
}

/**
 * One summary per (env, horizon, variant) present in `runs`: the endpoints' means over seeds with
 * bootstrap intervals, the runs that never reached 60%, whole-seed failures and the means without
 * them, and the mean success curve on the budget's env-step grid with a per-point bootstrap band.
 */
export function summariseCells(cells: StudyCells): CellSummary[] {
  return cells.list().map(({ env, horizon, variant, runs: cellRuns }) => {
    const kept = cellRuns.filter((r) => !r.endpoints.failedToStart);
    return {
      env,
      horizon,
      variant,
      label: labelOf(variant),
      envStepBudget: cells.budget(env, horizon),
      seeds: cellRuns.map((r) => r.run.seed),
      auc: meanWithInterval(cellRuns.map((r) => r.endpoints.auc)),
      stepsTo60: meanWithInterval(cellRuns.map((r) => r.endpoints.stepsTo60Endpoint)),
      never60: cellRuns.filter((r) => r.endpoints.never60).length,
      finalSuccess: meanWithInterval(cellRuns.map((r) => r.endpoints.finalSuccess)),
      failures: cellRuns.length - kept.length,
      withoutFailures: {
        auc: kept.length > 0 ? mean(kept.map((r) => r.endpoints.auc)) : null,
        finalSuccess: kept.length > 0 ? mean(kept.map((r) => r.endpoints.finalSuccess)) : null,
        n: kept.length,
      },
      curve: meanCurve(cellRuns, cells.budget(env, horizon)),
    };
  });
}

/** Whole-seed failures (runs that never start, docs/maths.md §11) per cell, in table order. */
export function countFailures(cells: StudyCells): FailureCount[] {
  return cells.list().map(({ env, horizon, variant, runs: cellRuns }) => ({
    env,
    horizon,
    variant,
    failures: cellRuns.filter((r) => r.endpoints.failedToStart).length,
    runs: cellRuns.length,
  }));
}

export function labelOf(variant: string): string {
  return (VARIANT_NAMES as readonly string[]).includes(variant) ? variantLabel(variant as VariantName) : variant;
}
