/**
 * The study's charts as data: which runs each chart averages and how, as `Figure`s for svg.ts.
 *
 * - success-<env>: success vs iteration, GRPO and BEACON per horizon, mean ± 1 sd over seeds;
 * - ablations-<env>: the same on the ablation horizon for every variant;
 * - relative-gain: (BEACON − GRPO) / max(GRPO, floor) of mean final success, by horizon and env;
 * - outcome-mix-<env>: shares of full success / partial / failure over training, per method;
 * - signal: run-mean zero-advantage ratio and sample utilisation by variant and env.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import type { AblationName } from '../config.ts';
import { isMethod, METHOD_NAMES, methodSpec } from '../methods/registry.ts';
import type { Variant } from './matrix.ts';
import type { Figure, LineSeries } from './svg.ts';
import { aggregateCurve, meanSd, selectRuns, type CurveName, type RunResult } from './summary.ts';

const ABLATION_COLORS: Record<AblationName, string> = {
  gamma1: '#ff7f0e',
  gamma0: '#2ca02c',
  randomSegments: '#9467bd',
  milestoneDropout: '#8c564b',
  noTrajectoryTerm: '#e377c2',
  stepMean: '#17becf',
};

const ABLATION_LABELS: Record<AblationName, string> = {
  gamma1: 'γ = 1',
  gamma0: 'γ = 0',
  randomSegments: 'random segments',
  milestoneDropout: 'milestone dropout 0.5',
  noTrajectoryTerm: 'no trajectory term',
  stepMean: 'stepMean baseline',
};

/** Colour of a variant: a method's own (the registry's, as on the page), or its ablation's. */
function variantColor(v: Variant): string {
  return isMethod(v) ? methodSpec(v).color.light.line : ABLATION_COLORS[v];
}

/** Name of a variant in tables and charts. */
export function variantLabel(v: Variant): string {
  return isMethod(v) ? methodSpec(v).label : ABLATION_LABELS[v];
}

/** Every variant, methods first, in a stable order. */
export const VARIANTS: readonly Variant[] = [...METHOD_NAMES, ...(Object.keys(ABLATION_LABELS) as AblationName[])];

const VARIANT_ORDER = VARIANTS;

function bandSeries(runs: readonly RunResult[], variant: Variant, curve: CurveName = 'success'): LineSeries | null {
  if (runs.length === 0) return null;
  const agg = aggregateCurve(runs, curve);
  return { label: variantLabel(variant), color: variantColor(variant), x: agg.mean.map((_, i) => i + 1), mean: agg.mean, sd: agg.sd };
}

const seedsNote = (runs: readonly RunResult[]) => {
  const seeds = new Set(runs.map((r) => r.seed)).size;
  return `line: mean over ${seeds} seed${seeds === 1 ? '' : 's'}; shaded band: ± 1 sd over seeds`;
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
  const variantsOn = (env: EnvName, h: Horizon) => VARIANT_ORDER.filter((v) => selectRuns(runs, { env, horizon: h, variant: v }).length > 0);
  const figures: NamedFigure[] = [];

  for (const env of envs) {
    figures.push({
      name: `success-${env}`,
      caption: `${env}: success vs iteration, GRPO vs BEACON, by horizon`,
      figure: {
        title: `${env}: success rate vs iteration`,
        subtitle: seedsNote(runs),
        panels: horizons.map((h) => ({
          kind: 'line',
          title: `${h} horizon`,
          xLabel: 'iteration',
          yLabel: 'success',
          yDomain: [0, 1],
          percent: true,
          series: (['grpo', 'beacon'] as const).map((v) => bandSeries(selectRuns(runs, { env, horizon: h, variant: v }), v)).filter((s) => s !== null),
        })),
      },
    });
    const H = options.ablationHorizon;
    const ablationVariants = variantsOn(env, H);
    if (ablationVariants.length > 2) {
      figures.push({
        name: `ablations-${env}`,
        caption: `${env}: success vs iteration on the ${H} horizon, every ablation`,
        figure: {
          title: `${env}: ablations on the ${H} horizon`,
          subtitle: seedsNote(runs),
          panels: [
            { kind: 'line', title: 'segment-term ablations', xLabel: 'iteration', yLabel: 'success', yDomain: [0, 1], percent: true,
              series: ablationVariants.filter((v) => ['grpo', 'beacon', 'gamma1', 'gamma0', 'stepMean'].includes(v)).map((v) => bandSeries(selectRuns(runs, { env, horizon: H, variant: v }), v)!) },
            { kind: 'line', title: 'milestone and trajectory ablations', xLabel: 'iteration', yLabel: 'success', yDomain: [0, 1], percent: true,
              series: ablationVariants.filter((v) => ['grpo', 'beacon', 'randomSegments', 'milestoneDropout', 'noTrajectoryTerm'].includes(v)).map((v) => bandSeries(selectRuns(runs, { env, horizon: H, variant: v }), v)!) },
          ],
        },
      });
    }
    figures.push({
      name: `outcome-mix-${env}`,
      caption: `${env}: outcome mix (full success / partial success / complete failure) over training on the ${H} horizon`,
      figure: {
        title: `${env}: outcome mix over training, ${H} horizon`,
        subtitle: 'mean share of runs per iteration over seeds',
        panels: (['grpo', 'beacon'] as const).map((v) => {
          const sel = selectRuns(runs, { env, horizon: H, variant: v });
          const mean = (c: CurveName) => aggregateCurve(sel, c).mean.map((x) => x ?? 0);
          const success = mean('success');
          return {
            kind: 'stack' as const,
            title: variantLabel(v),
            xLabel: 'iteration',
            yLabel: 'share of runs',
            x: success.map((_, i) => i + 1),
            layers: [
              { label: 'full success', color: '#2ca02c', values: success },
              { label: 'partial success', color: '#f2b701', values: mean('partial') },
              { label: 'complete failure', color: '#c7c7c7', values: mean('failure') },
            ],
          };
        }),
      },
    });
  }

  const final = (env: EnvName, h: Horizon, v: Variant) => meanSd(selectRuns(runs, { env, horizon: h, variant: v }).map((r) => r.finalSuccess)).mean;
  const gainSeries = (gain: (b: number, g: number) => number) => envs.map((env, k) => ({
    label: env,
    color: ['#1f77b4', '#ff7f0e', '#2ca02c'][k % 3],
    values: horizons.map((h) => {
      const b = final(env, h, 'beacon');
      const g = final(env, h, 'grpo');
      return b === null || g === null ? null : gain(b, g);
    }),
  }));
  figures.push({
    name: 'relative-gain',
    caption: 'gain of BEACON over GRPO in final success, by horizon (relative, and in points)',
    figure: {
      title: 'Gain of BEACON over GRPO in final success, by horizon',
      subtitle: `final success: mean over seeds of the last-10-iteration success; relative gain divides by max(GRPO, ${options.gainFloor})`,
      panels: [
        { kind: 'bar', title: 'relative gain', yLabel: '(BEACON − GRPO) / GRPO', categories: [...horizons], percent: true, series: gainSeries((b, g) => (b - g) / Math.max(g, options.gainFloor)) },
        { kind: 'bar', title: 'absolute gain', yLabel: 'BEACON − GRPO (points)', categories: [...horizons], percent: true, series: gainSeries((b, g) => b - g) },
      ],
    },
  });

  const H = options.ablationHorizon;
  const variants = VARIANT_ORDER.filter((v) => runs.some((r) => r.horizon === H && r.variant === v));
  const byVariant = (field: 'zeroAdvantageRatio' | 'sampleUtilization') => variants.map((v) => ({
    label: variantLabel(v),
    color: variantColor(v),
    values: envs.map((env) => meanSd(selectRuns(runs, { env, horizon: H, variant: v }).map((r) => r[field])).mean),
    errors: envs.map((env) => meanSd(selectRuns(runs, { env, horizon: H, variant: v }).map((r) => r[field])).sd),
  }));
  figures.push({
    name: 'signal',
    caption: `zero-advantage ratio and sample utilisation by method on the ${H} horizon`,
    figure: {
      title: `Zero-advantage ratio and sample utilisation by method, ${H} horizon`,
      subtitle: 'bar: mean over seeds of the run mean; whisker: ± 1 sd over seeds',
      panels: [
        { kind: 'bar', title: 'zero-advantage ratio (|A| < 1e-6)', yLabel: 'share of steps', categories: envs, percent: true, series: byVariant('zeroAdvantageRatio') },
        { kind: 'bar', title: 'sample utilisation', yLabel: 'share of runs', categories: envs, percent: true, series: byVariant('sampleUtilization') },
      ],
    },
  });
  return figures;
}
