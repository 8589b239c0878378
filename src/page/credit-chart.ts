/**
 * What the credit view draws, without the DOM: the three bars per step named after the method's parts,
 * the chart's size and padding, where each step sits across the available width (and when three bars
 * no longer fit), the value scale, and how its numbers are written. The element
 * (src/ui/elements/credit-view.ts) renders the text around the chart; the painter
 * (src/ui/painters/credit-painter.ts) draws the canvas.
 */
import { methodSpec, type Method } from '../methods/registry.ts';
import type { RunCredit } from './credit-data.ts';
import { METRIC_DOCS } from './metric-docs.ts';

/** The names of a method's parts (its registry spec), falling back to BEACON's for parts it lacks. */
export function partNames(method: Method) {
  const { parts } = methodSpec(method);
  return { run: parts.run ?? 'A_traj', step: parts.step ?? 'A_seg', reward: parts.reward ?? 'r_t' };
}

/** The three bars per step, named for `method` (GiGPO: A_E and A_S; critic PPO: Â and its returns). */
export function creditBars(method: Method) {
  const n = partNames(method);
  return [
    { key: 'aTraj', label: n.run, color: '--c-atraj', doc: METRIC_DOCS.aTraj.doc },
    { key: 'aSeg', label: n.step, color: '--c-aseg', doc: METRIC_DOCS.aSeg.doc },
    { key: 'a', label: 'A', color: '--c-a', doc: METRIC_DOCS.advantage.doc },
  ] as const;
}

export const CREDIT_HEIGHT = 190;
export const CREDIT_PAD = { top: 22, bottom: 22, left: 40, right: 8 };
/** Below this width per step, three bars no longer fit: A_traj (constant over the run) becomes a line. */
const MIN_GROUP = 9;

export interface CreditGeometry {
  /** CSS pixels across the chart. */
  width: number;
  /** CSS pixels per step. */
  group: number;
  /** True when A_traj is drawn as one line instead of a bar per step. */
  compact: boolean;
}

/** The chart across `availableWidth` CSS pixels (at least 200) for a run of `steps` steps. */
export function creditGeometry(availableWidth: number, steps: number): CreditGeometry {
  const width = Math.max(availableWidth, 200);
  const group = (width - CREDIT_PAD.left - CREDIT_PAD.right) / Math.max(1, steps);
  return { width, group, compact: group < MIN_GROUP };
}

/** The step under `x` CSS pixels from the chart's left edge, or −1 outside the run. */
export function stepAt(x: number, geometry: CreditGeometry, steps: number): number {
  const t = Math.floor((x - CREDIT_PAD.left) / geometry.group);
  return t >= 0 && t < steps ? t : -1;
}

/** The value at the top of the chart (the bottom is its negative): the largest |value|, rounded up to a nice number, at least 0.05. */
export function creditScale(c: RunCredit): number {
  let max = Math.abs(c.aTraj);
  for (let t = 0; t < c.steps; t++) max = Math.max(max, Math.abs(c.aSeg[t]), Math.abs(c.advantages[t]));
  return niceCeil(Math.max(max, 0.05));
}

/** A credit value with its sign and three decimals, '–' when not finite. */
export function formatCredit(v: number): string {
  if (!Number.isFinite(v)) return '–';
  return (v >= 0 ? '+' : '−') + Math.abs(v).toFixed(3);
}

/** An axis tick: no '+', at most three decimals, trailing zeros dropped. */
export function formatAxis(v: number): string {
  if (v === 0) return '0';
  return (v > 0 ? '' : '−') + String(+Math.abs(v).toFixed(3));
}

/** The smallest of 1, 2, 2.5, 5 × 10^k that is ≥ v. */
export function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}
