/**
 * What study v3's claims read of the cells (study-cells.ts): whether the cells a claim needs ran,
 * per-seed values, the per-seed paired differences of two cells (and contrasts of those), and cell
 * means. Both the tested claims (confirmatory-claims.ts) and the descriptive ones
 * (descriptive-claims.ts) read the cells through these.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import { labelOf, type EndpointRun, type StudyCells } from './study-cells.ts';
import type { VariantName } from './variants.ts';

export const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
export const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** Why a comparison of these cells cannot be tested, or null when it can. */
export function missing(cells: StudyCells, env: EnvName, needs: readonly [Horizon, VariantName][]): string | null {
  if (!cellsHaveEnv(cells, env)) return `no ${env} runs`;
  for (const [h, v] of needs) if (cells.get(env, h, v).length === 0) return `no ${env} ${h} runs of ${labelOf(v)}`;
  return null;
}

function cellsHaveEnv(cells: StudyCells, env: EnvName): boolean {
  return cells.list().some((c) => c.env === env);
}

// ——— Paired differences ———

export type Endpoint = 'auc' | 'stepsTo60';
const endpointValue = (r: EndpointRun, e: Endpoint) => (e === 'auc' ? r.endpoints.auc : r.endpoints.stepsTo60Endpoint);

export interface Paired {
  seeds: number[];
  diffs: number[];
}

/** a − b per seed present in both, in seed order. */
export function pairBySeed(a: readonly EndpointRun[], b: readonly EndpointRun[], value: (r: EndpointRun) => number): Paired {
  const bBySeed = new Map(b.map((r) => [r.run.seed, r]));
  const seeds: number[] = [];
  const diffs: number[] = [];
  for (const r of a) {
    const other = bBySeed.get(r.run.seed);
    if (!other) continue;
    seeds.push(r.run.seed);
    diffs.push(value(r) - value(other));
  }
  return { seeds, diffs };
}

/** x − y paired by position in seed order (contrasts across horizons or environments). */
export function pairByIndex(x: Paired, y: Paired): Paired {
  const n = Math.min(x.diffs.length, y.diffs.length);
  return { seeds: x.seeds.slice(0, n), diffs: x.diffs.slice(0, n).map((d, i) => d - y.diffs[i]) };
}

/** x − y over the seeds both have. */
export function combineBySeed(x: Paired, y: Paired): Paired {
  const yBySeed = new Map(y.seeds.map((s, i) => [s, y.diffs[i]]));
  const seeds: number[] = [];
  const diffs: number[] = [];
  x.seeds.forEach((s, i) => {
    const other = yBySeed.get(s);
    if (other === undefined) return;
    seeds.push(s);
    diffs.push(x.diffs[i] - other);
  });
  return { seeds, diffs };
}

/** The paired AUC differences a − b of one (env, horizon), per seed. */
export const aucDiff = (cells: StudyCells, env: EnvName, h: Horizon, a: VariantName, b: VariantName) =>
  pairBySeed(cells.get(env, h, a), cells.get(env, h, b), (r) => r.endpoints.auc);

/** The mean of endpoint `e` over a cell's runs. */
export const cellMean = (runs: readonly EndpointRun[], e: Endpoint) => mean(runs.map((r) => endpointValue(r, e)));

/** A value of each run where it is finite, with the run's seed. */
export function perSeed(runs: readonly EndpointRun[], value: (r: EndpointRun) => number | null | undefined): { seeds: number[]; xs: number[] } {
  const kept = runs.filter((r) => finite(value(r)));
  return { seeds: kept.map((r) => r.run.seed), xs: kept.map((r) => value(r) as number) };
}
