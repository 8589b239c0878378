/**
 * Floors and ceilings: the seeds of a cell that never start and those that sit at the top, and the claims
 * whose verdict rests on them. A paired test between two arms can only read a difference where the runs
 * move; when many of an arm's seeds learned nothing (or could not do better), the verdict says more about
 * the budget than about the method, and the reader should see that beside it.
 *
 * Derived from the runs' curves at reading time (the generated README, the results page's copy of
 * study.json); study.json's runs are never changed. The rule is stated in `BOUND_RULE`.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import type { CellSummary, ClaimRecord } from './confirmatory-types.ts';
import { meanSuccessFrom } from './endpoints.ts';
import type { RunResult } from './summary.ts';

/**
 * A seed sits at the floor: its success over the whole budget (its AUC as coded, docs/maths.md §11) is under
 * this. (Not the study's "failure to start", which asks the last-5 success to rise 0.10 above iteration 0's.)
 */
export const FLOOR_SUCCESS = 0.05;
/** A seed sits at the top: its success from the first quarter of the budget on is over this. */
export const CEILING_SUCCESS = 0.95;
/** Where "from the first quarter on" starts, as a share of the budget B' = budget − n_0. */
export const CEILING_FROM_SHARE = 0.25;
/** A verdict rests on floor (ceiling) runs when an arm it compares has at least this share of its seeds there. */
export const RESTS_ON_SHARE = 1 / 3;

export const BOUND_RULE =
  'a seed sits at the floor when its success over the whole env-step budget (its AUC) is under 5%, and at the ceiling when its success from the first quarter of the budget on is over 95%; a verdict rests on them when an arm it compares has at least a third of its seeds at the floor or at the ceiling';

export type RunBound = 'floor' | 'ceiling' | null;

/** What the rule reads of a run. */
export type BoundRun = Pick<RunResult, 'key' | 'env' | 'horizon' | 'variant' | 'seed' | 'curves' | 'envStepBudget' | 'stopped'>;

/** A run's curve as numbers; a RangeError naming the run where a value is missing. */
function numbers(run: BoundRun, name: 'success' | 'envSteps'): number[] {
  return run.curves[name].map((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new RangeError(`run ${run.key}: curves.${name}[${i}] must be a finite number, got ${String(x)}`);
    return x;
  });
}

/** Whether a run sat at the floor, at the ceiling, or neither. */
export function runBound(run: BoundRun): RunBound {
  const success = numbers(run, 'success');
  const envSteps = numbers(run, 'envSteps');
  const stopped = Boolean(run.stopped);
  if (meanSuccessFrom(success, envSteps, run.envStepBudget, stopped, 0) < FLOOR_SUCCESS) return 'floor';
  if (meanSuccessFrom(success, envSteps, run.envStepBudget, stopped, CEILING_FROM_SHARE) > CEILING_SUCCESS) return 'ceiling';
  return null;
}

/** One cell's seeds at the floor and at the ceiling. */
export interface CellBound {
  env: string;
  horizon: string;
  variant: string;
  seeds: number;
  floor: number;
  ceiling: number;
}

const cellKey = (c: { env: string; horizon: string; variant: string }) => `${c.env}|${c.horizon}|${c.variant}`;

/** Every cell's floor and ceiling counts, in the order the runs first name the cells. */
export function cellBounds(runs: readonly BoundRun[]): CellBound[] {
  const cells = new Map<string, CellBound>();
  for (const r of runs) {
    const key = cellKey(r);
    const c = cells.get(key) ?? { env: r.env, horizon: r.horizon, variant: r.variant, seeds: 0, floor: 0, ceiling: 0 };
    const bound = runBound(r);
    c.seeds += 1;
    if (bound === 'floor') c.floor += 1;
    if (bound === 'ceiling') c.ceiling += 1;
    cells.set(key, c);
  }
  return [...cells.values()];
}

/** A cell a claim compares. */
export interface ClaimArm {
  env: string;
  horizon: string;
  variant: string;
  label: string;
}

const ENV_WORDS: readonly EnvName[] = ['gridhouse', 'texthouse', 'shop'];
const HORIZON_WORDS: readonly Horizon[] = ['short', 'medium', 'long'];

/**
 * The cells a claim's tests compare, read from the tests' comparison texts (the cells' own labels, the
 * longest first so that "BEACON, loose detector, no trajectory term" is not read as "BEACON"), in the
 * order they first appear. The claim's environment, and any other environment a contrast names (M6);
 * the claim's horizon, else the long horizon and any other a contrast names (P3, M9).
 */
export function claimArms(
  claim: Pick<ClaimRecord, 'env' | 'horizon' | 'tests'>,
  cells: readonly Pick<CellSummary, 'env' | 'horizon' | 'variant' | 'label'>[],
): ClaimArm[] {
  if (claim.env === null) return [];
  const text = claim.tests.map((t) => t.comparison).join(' ; ');
  const envs = [claim.env, ...ENV_WORDS.filter((e) => e !== claim.env && new RegExp(`\\b${e}\\b`).test(text))];
  const horizons = claim.horizon ? [claim.horizon] : ['long', ...HORIZON_WORDS.filter((h) => h !== 'long' && new RegExp(`\\b${h}\\b`).test(text))];
  const labels = [...new Map(cells.filter((c) => c.env === claim.env).map((c) => [c.label, c.variant])).entries()].sort((a, b) => b[0].length - a[0].length);
  const found: { at: number; variant: string; label: string }[] = [];
  let rest = text;
  for (const [label, variant] of labels) {
    let at = rest.indexOf(label);
    while (at >= 0) {
      if (!found.some((f) => f.variant === variant)) found.push({ at, variant, label });
      rest = rest.slice(0, at) + '\u0000'.repeat(label.length) + rest.slice(at + label.length);
      at = rest.indexOf(label);
    }
  }
  found.sort((a, b) => a.at - b.at);
  const arms: ClaimArm[] = [];
  for (const env of envs)
    for (const horizon of horizons)
      for (const f of found)
        if (cells.some((c) => c.env === env && c.horizon === horizon && c.variant === f.variant))
          arms.push({ env, horizon, variant: f.variant, label: f.label });
  return arms;
}

/** A claim record's arms with their floor and ceiling counts, and whether its verdict rests on them. */
export interface ClaimBound {
  id: string;
  env: string | null;
  horizon: string | null;
  arms: (ClaimArm & { seeds: number; floor: number; ceiling: number })[];
  /** Null when no arm has RESTS_ON_SHARE of its seeds at a floor or a ceiling. */
  restsOn: 'floor' | 'ceiling' | 'floor and ceiling' | null;
  /** The words beside the verdict (`boundNote`), null when it rests on neither. */
  note: string | null;
}

/** Every empirical claim record's bound, in the claims' order. */
export function claimBounds(claims: readonly ClaimRecord[], cells: readonly CellSummary[], bounds: readonly CellBound[]): ClaimBound[] {
  const byCell = new Map(bounds.map((b) => [cellKey(b), b]));
  return claims
    .filter((c) => c.kind === 'empirical')
    .map((c) => {
      const arms = claimArms(c, cells).map((a) => {
        const b = byCell.get(cellKey(a));
        return { ...a, seeds: b?.seeds ?? 0, floor: b?.floor ?? 0, ceiling: b?.ceiling ?? 0 };
      });
      const at = (k: 'floor' | 'ceiling') => arms.some((a) => a.seeds > 0 && a[k] / a.seeds >= RESTS_ON_SHARE);
      const restsOn: ClaimBound['restsOn'] = at('floor') ? (at('ceiling') ? 'floor and ceiling' : 'floor') : at('ceiling') ? 'ceiling' : null;
      const bound = { id: c.id, env: c.env, horizon: c.horizon, arms, restsOn };
      return { ...bound, note: boundNote(bound) };
    });
}

/** The bound of one claim record, or undefined. */
export function boundOf(bounds: readonly ClaimBound[], claim: Pick<ClaimRecord, 'id' | 'env' | 'horizon'>): ClaimBound | undefined {
  return bounds.find((b) => b.id === claim.id && b.env === claim.env && b.horizon === claim.horizon);
}

/**
 * The words beside a verdict that rests on floor or ceiling runs: which arms, and how many of their seeds
 * ("rests on runs at the floor (under 5% success over the budget): GRPO 11 of 15 seeds, BEACON 5 of 15"); null
 * when it does not.
 */
export function boundNote(bound: Omit<ClaimBound, 'note'> | undefined): string | null {
  if (!bound?.restsOn) return null;
  const parts: string[] = [];
  for (const k of ['floor', 'ceiling'] as const) {
    const arms = bound.arms.filter((a) => a.seeds > 0 && a[k] / a.seeds >= RESTS_ON_SHARE);
    if (arms.length === 0) continue;
    const where = (a: ClaimArm) => (bound.arms.some((b) => b.env !== a.env || b.horizon !== a.horizon) ? ` (${a.env} ${a.horizon})` : '');
    const what = k === 'floor' ? `under ${100 * FLOOR_SUCCESS}% success over the budget` : `over ${100 * CEILING_SUCCESS}% from the first quarter on`;
    parts.push(`at the ${k} (${what}): ${arms.map((a, i) => `${a.label}${where(a)} ${a[k]} of ${a.seeds}${i === 0 ? ' seeds' : ''}`).join(', ')}`);
  }
  return `rests on runs ${parts.join('; ')}`;
}

/** What the generated README and the results page's copy of study.json carry: every cell's counts and every claim's bound. */
export interface StudyBounds {
  rule: string;
  cells: CellBound[];
  claims: ClaimBound[];
}

export function studyBounds(study: { runs: readonly BoundRun[]; cells: readonly CellSummary[]; claims: readonly ClaimRecord[] }): StudyBounds {
  const cells = cellBounds(study.runs);
  return { rule: BOUND_RULE, cells, claims: claimBounds(study.claims, study.cells, cells) };
}
