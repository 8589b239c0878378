/**
 * The study's charts as data: which runs each chart averages and how, as `Figure`s for svg.ts.
 *
 * Runs train to an env-step budget, so the runs of one cell have different iteration counts: curves
 * are drawn against environment steps (thousands), averaged over seeds on a common step grid
 * (summary.ts `aggregateOnSteps`), every run carried to the budget the way the AUC counts it: a run
 * that spent its steps in fewer iterations, or stopped, still counts at every point, so the last point
 * is the cell's mean at the budget and not the mean of the runs still going (docs/maths.md §11).
 *
 * - success-<env>: success vs env steps, every compared method per horizon, mean ± 1 sd over seeds;
 * - ablations-<env>: the same on the ablation horizon for the ablations, with GRPO and BEACON;
 * - outcome-mix-<env>: shares of full success / partial / failure over training, per method;
 * - relative-gain: (X − GRPO) / max(GRPO, floor) of mean final success, by horizon, per method and env;
 * - signal: run-mean zero-advantage ratio and sample utilisation by variant and env;
 * - cost: learning compute per 1000 env steps and wall seconds per iteration, by method and env.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import type { Figure, LineSeries } from './svg.ts';
import { aggregateOnSteps, meanSd, selectRuns, stepGrid, type CurveName, type RunResult } from './summary.ts';
import { detectorVariant } from './detector-variants.ts';
import { VARIANT_NAMES, variantColor, variantLabel, variantSpec, type VariantName } from './variants.ts';

/** The env-step grid of a set of runs: the common grid up to the largest budget among them. */
const runsGrid = (runs: readonly RunResult[]) => stepGrid(Math.max(1, ...runs.map((r) => r.envStepBudget ?? r.envSteps ?? 0)));

/** A method's mean curve on the grid, every run carried to the budget as the AUC counts it (summary.ts). */
function bandSeries(runs: readonly RunResult[], variant: VariantName, curve: CurveName = 'success', grid = runsGrid(runs)): LineSeries | null {
  if (runs.length === 0) return null;
  const agg = aggregateOnSteps(runs, curve, grid, { carry: true });
  return { label: variantLabel(variant), color: variantColor(variant), x: grid.map((s) => s / 1000), mean: agg.mean, sd: agg.sd };
}

const seedsNote = (runs: readonly RunResult[]) => {
  const seeds = new Set(runs.map((r) => r.seed)).size;
  return `line: mean over all ${seeds} seed${seeds === 1 ? '' : 's'} of the success of the iteration that took each env step, a run past its last step counted at its last-5 success (0 if it stopped), as the AUC counts it; shaded band: ± 1 sd over seeds`;
};

export interface NamedFigure {
  /** File name without extension. */
  name: string;
  /** One line for the README. */
  caption: string;
  figure: Figure;
}

export function studyFigures(runs: readonly RunResult[], options: { gainFloor: number; ablationHorizon: Horizon }): NamedFigure[] {
  const envs = [...new Set(runs.map((r) => r.env))].sort() as EnvName[];
  const horizons = (['tiny', 'short', 'medium', 'long'] as const).filter((h) => runs.some((r) => r.horizon === h && r.ablation === null));
  const present = (env: EnvName, h: Horizon, filter: (v: VariantName) => boolean) =>
    VARIANT_NAMES.filter((v) => filter(v) && selectRuns(runs, { env, horizon: h, variant: v }).length > 0);
  const isCompared = (v: VariantName) => variantSpec(v).ablation === null && runs.some((r) => r.variant === v && r.horizon !== options.ablationHorizon);
  const H = options.ablationHorizon;
  const figures: NamedFigure[] = [];

  for (const env of envs) {
    figures.push({
      name: `success-${env}`,
      caption: `${env}: success vs environment steps, every method, by horizon`,
      figure: {
        title: `${env}: success rate vs environment steps`,
        subtitle: seedsNote(runs),
        panels: horizons.map((h) => {
          const sel = selectRuns(runs, { env, horizon: h });
          const grid = runsGrid(sel);
          return {
            kind: 'line',
            title: `${h} horizon`,
            xLabel: 'env steps (thousands)',
            yLabel: 'success',
            yDomain: [0, 1],
            percent: true,
            series: present(env, h, isCompared)
              .map((v) => bandSeries(selectRuns(sel, { variant: v }), v, 'success', grid))
              .filter((s) => s !== null),
          };
        }),
      },
    });
    const ablations = present(env, H, (v) => !isCompared(v));
    if (ablations.length > 0) {
      const sel = selectRuns(runs, { env, horizon: H });
      const grid = runsGrid(sel);
      const panel = (title: string, names: readonly string[]) => ({
        kind: 'line' as const,
        title,
        xLabel: 'env steps (thousands)',
        yLabel: 'success',
        yDomain: [0, 1] as [number, number],
        percent: true,
        series: present(env, H, (v) => v === 'grpo' || v === 'beacon' || names.includes(v)).map(
          (v) => bandSeries(selectRuns(sel, { variant: v }), v, 'success', grid)!,
        ),
      });
      figures.push({
        name: `ablations-${env}`,
        caption: `${env}: success vs environment steps on the ${H} horizon, every ablation`,
        figure: {
          title: `${env}: ablations on the ${H} horizon`,
          subtitle: seedsNote(runs),
          panels: [
            panel('segment-term ablations', ['gamma1', 'gamma0', 'stepMean', 'beaconReleasedWebshop']),
            panel('milestone and trajectory ablations', ['randomSegments', 'milestoneDropout', 'noTrajectoryTerm']),
          ],
        },
      });
    }
    figures.push({
      name: `outcome-mix-${env}`,
      caption: `${env}: outcome mix (full success / partial success / complete failure) over training on the ${H} horizon, every method`,
      figure: {
        title: `${env}: outcome mix over training, ${H} horizon`,
        subtitle: 'mean share of runs per iteration-at-step over all seeds, a run past its last step counted at its last-5 mix',
        panels: present(env, H, isCompared).map((v) => {
          const sel = selectRuns(runs, { env, horizon: H, variant: v });
          const grid = runsGrid(sel);
          const mean = (c: CurveName) => aggregateOnSteps(sel, c, grid, { carry: true }).mean.map((x) => x ?? 0);
          return {
            kind: 'stack' as const,
            title: variantLabel(v),
            xLabel: 'env steps (thousands)',
            yLabel: 'share of runs',
            x: grid.map((s) => s / 1000),
            layers: [
              { label: 'full success', color: '#2ca02c', values: mean('success') },
              { label: 'partial success', color: '#f2b701', values: mean('partial') },
              { label: 'complete failure', color: '#c7c7c7', values: mean('failure') },
            ],
          };
        }),
      },
    });
  }

  const final = (env: EnvName, h: Horizon, v: VariantName) => meanSd(selectRuns(runs, { env, horizon: h, variant: v }).map((r) => r.finalSuccess)).mean;
  const comparedAll = VARIANT_NAMES.filter((v) => v !== 'grpo' && isCompared(v));
  figures.push({
    name: 'relative-gain',
    caption: 'gain of every method over GRPO in final success, by horizon (relative), per environment',
    figure: {
      title: 'Gain over GRPO in final success, by horizon',
      subtitle: `final success: mean over seeds of the last-10-iteration success; relative gain divides by max(GRPO, ${options.gainFloor})`,
      panels: envs.map((env) => ({
        kind: 'bar' as const,
        title: env,
        yLabel: '(X − GRPO) / GRPO',
        categories: [...horizons],
        percent: true,
        series: comparedAll.map((v) => ({
          label: variantLabel(v),
          color: variantColor(v),
          values: horizons.map((h) => {
            const x = final(env, h, v);
            const g = final(env, h, 'grpo');
            return x === null || g === null ? null : (x - g) / Math.max(g, options.gainFloor);
          }),
        })),
      })),
    },
  });

  // Study v3's variants: the detector study's arms (amendment 2, 25 of them) would crowd the bars out.
  const variants = VARIANT_NAMES.filter((v) => !detectorVariant(v) && runs.some((r) => r.horizon === H && r.variant === v));
  const byVariant = (field: 'zeroAdvantageRatio' | 'sampleUtilization', list: readonly VariantName[] = variants) =>
    list.map((v) => {
      const s = envs.map((env) => meanSd(selectRuns(runs, { env, horizon: H, variant: v }).map((r) => r[field])));
      return { label: variantLabel(v), color: variantColor(v), values: s.map((x) => x.mean), errors: s.map((x) => x.sd) };
    });
  figures.push({
    name: 'signal',
    caption: `zero-advantage ratio and sample utilisation by variant on the ${H} horizon`,
    figure: {
      title: `Zero-advantage ratio and sample utilisation by variant, ${H} horizon`,
      subtitle: 'bar: mean over seeds of the run mean; whisker: ± 1 sd over seeds',
      panels: [
        {
          kind: 'bar',
          title: 'zero-advantage ratio (|A| < 1e-6)',
          yLabel: 'share of steps',
          categories: envs,
          percent: true,
          series: byVariant('zeroAdvantageRatio'),
        },
        { kind: 'bar', title: 'sample utilisation', yLabel: 'share of runs', categories: envs, percent: true, series: byVariant('sampleUtilization') },
      ],
    },
  });

  const compared = VARIANT_NAMES.filter(isCompared);
  const costSeries = (field: (r: RunResult) => number | null) =>
    compared.map((v) => {
      const s = envs.map((env) => meanSd(selectRuns(runs, { env, horizon: H, variant: v }).map(field)));
      return { label: variantLabel(v), color: variantColor(v), values: s.map((x) => x.mean), errors: s.map((x) => x.sd) };
    });
  figures.push({
    name: 'cost',
    caption: `compute by method on the ${H} horizon: learning time per 1000 env steps, wall time per iteration`,
    figure: {
      title: `Compute by method, ${H} horizon (wasm, one worker thread per run)`,
      subtitle: 'bar: mean over seeds; whisker: ± 1 sd over seeds',
      panels: [
        {
          kind: 'bar',
          title: 'learning (advantages + update + critic)',
          yLabel: 'ms per 1000 env steps',
          categories: envs,
          series: costSeries((r) => r.learnMsPerKiloStep),
        },
        { kind: 'bar', title: 'one iteration (rollout included)', yLabel: 'seconds', categories: envs, series: costSeries((r) => r.secondsPerIteration) },
      ],
    },
  });
  return figures;
}
