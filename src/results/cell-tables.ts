/**
 * The cell summaries of study.json arranged for the page: environments and horizons in the registry's
 * order, each environment's rows (variant × horizon) in the study's variant order, the curves of the
 * main methods per (env, horizon) for the charts, and the whole-seed failures apart from the means
 * (docs/results/preregistration.md, "Tests").
 */
import { ENV_NAMES } from '../../envs/index.ts';
import { HORIZONS } from '../../envs/types.ts';
import type { CellSummary, FailureCount } from '../study/confirmatory-types.ts';
import { releasedVariantFor, VARIANT_NAMES } from '../study/variants.ts';

/** Position of `x` in `order`, unknown names after every known one. */
const rank = (order: readonly string[], x: string) => (order.includes(x) ? order.indexOf(x) : order.length);

/** The environments the cells cover, in the env registry's order. */
export function cellEnvs(cells: readonly Pick<CellSummary, 'env'>[]): string[] {
  return [...new Set(cells.map((c) => c.env as string))].sort((a, b) => rank(ENV_NAMES, a) - rank(ENV_NAMES, b) || a.localeCompare(b));
}

/** The horizons the cells of `env` cover, shortest first. */
export function cellHorizons(cells: readonly Pick<CellSummary, 'env' | 'horizon'>[], env: string): string[] {
  const hs = new Set(cells.filter((c) => c.env === env).map((c) => c.horizon as string));
  return [...hs].sort((a, b) => rank(HORIZONS, a) - rank(HORIZONS, b));
}

/** The cells of `env`, by horizon (shortest first), then variant (the study's table order). */
export function envRows(cells: readonly CellSummary[], env: string): CellSummary[] {
  return cells
    .filter((c) => c.env === env)
    .sort((a, b) => rank(HORIZONS, a.horizon) - rank(HORIZONS, b.horizon) || rank(VARIANT_NAMES, a.variant) - rank(VARIANT_NAMES, b.variant));
}

/**
 * The variants each chart draws: GRPO, BEACON, the released BEACON that belongs to the environment,
 * GiGPO, PPO, shaped-reward PPO and SFT (the ablations are in the tables only).
 */
export function chartVariants(env: string): string[] {
  return ['grpo', 'beacon', releasedVariantFor(env), 'gigpo', 'ppo', 'ppoShaped', 'sft'];
}

/** The cells one chart draws, in `chartVariants` order; cells without a curve point are left out. */
export function chartCells(cells: readonly CellSummary[], env: string, horizon: string): CellSummary[] {
  return chartVariants(env).flatMap((v) => cells.filter((c) => c.env === env && c.horizon === horizon && c.variant === v && c.curve?.envSteps?.length > 0));
}

/** The env-step budget of (env, horizon): the document's table, else any of its cells' own. */
export function budgetOf(
  budgets: Record<string, Partial<Record<string, number>>>,
  cells: readonly CellSummary[],
  env: string,
  horizon: string,
): number | undefined {
  return budgets[env]?.[horizon] ?? cells.find((c) => c.env === env && c.horizon === horizon)?.envStepBudget;
}

/** The failure counts of `env` with at least one failure, by horizon then variant; and the total runs counted. */
export function envFailures(failures: readonly FailureCount[], env: string): { rows: FailureCount[]; failed: number; runs: number } {
  const all = failures.filter((f) => f.env === env);
  const rows = all
    .filter((f) => f.failures > 0)
    .sort((a, b) => rank(HORIZONS, a.horizon) - rank(HORIZONS, b.horizon) || rank(VARIANT_NAMES, a.variant) - rank(VARIANT_NAMES, b.variant));
  return { rows, failed: all.reduce((s, f) => s + f.failures, 0), runs: all.reduce((s, f) => s + f.runs, 0) };
}
