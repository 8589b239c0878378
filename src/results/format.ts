/**
 * How the results page writes numbers: success rates and AUC (0…1) as percentages, env steps with
 * thousands separators, intervals as "[low, high]", p-values to three significant figures, and a claim's
 * verdict in words. Endpoints as docs/maths.md §11 and docs/results/preregistration.md define them.
 */
import type { ClaimRecord } from '../study/confirmatory-types.ts';

const DASH = '–';

/** 0.4567 → "45.7%". */
export function percent(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? DASH : `${(x * 100).toFixed(digits)}%`;
}

/** 40960 → "40,960"; a fraction of a step is rounded (means over seeds). */
export function steps(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? DASH : Math.round(x).toLocaleString('en-US');
}

/** "[45.1%, 52.0%]" with `fmt` for each end. */
export function interval(ci: readonly [number, number] | null | undefined, fmt: (x: number) => string): string {
  return ci ? `[${fmt(ci[0])}, ${fmt(ci[1])}]` : DASH;
}

/** A p-value: "0.00003" would hide its size, so small ones are "< 0.001"; else three decimals. */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return DASH;
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** A signed number for a difference: "+0.034", "−0.010" (a true minus sign). */
function signed(x: number, text: string): string {
  return x > 0 ? `+${text}` : x < 0 ? `−${text.replace('-', '')}` : text;
}

/**
 * An effect or a measured value in its endpoint's unit: env steps for steps to 60%, AUC and success
 * differences in points of a percentage (0.034 → "+3.4 pts"), other metrics (family T's ratios) as they are.
 */
export function effect(endpoint: string, x: number | null | undefined, difference = true): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return DASH;
  if (endpoint === 'stepsTo60') return difference ? `${signed(x, steps(Math.abs(x)))} steps` : `${steps(x)} steps`;
  if (endpoint === 'auc' || endpoint === 'finalSuccess') return difference ? `${signed(x, (Math.abs(x) * 100).toFixed(1))} pts` : percent(x);
  return difference ? signed(x, Math.abs(x).toFixed(3)) : x.toFixed(3);
}

export type Verdict = 'held' | 'not held' | 'untestable';

/** A claim's verdict: `held` null means it could not be tested here (its `untestable` says why). */
export function verdict(claim: Pick<ClaimRecord, 'held'>): Verdict {
  return claim.held === null ? 'untestable' : claim.held ? 'held' : 'not held';
}

/** The first 7 hex digits of a commit, as git prints it. */
export function shortCommit(commit: string): string {
  return commit.slice(0, 7);
}
