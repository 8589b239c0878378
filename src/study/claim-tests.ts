/**
 * How a pre-registered claim is tested (docs/results/preregistration.md "Tests", docs/maths.md §11): a
 * claim's paired tests before Holm, one paired comparison of two cells, a contrast of paired differences,
 * the untestable record (with its reason, never a failure), and the family's Holm adjustment with the
 * verdicts it gives. Study v3's families (confirmatory-claims.ts) and the detector study's
 * (detector-claims.ts, amendment 2) are built from these, so every family is judged by the same rules.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import { cellMean, type Endpoint, finite, mean, missing, type Paired, pairBySeed } from './claim-cells.ts';
import { baseRecord, ciFmt, type ClaimText, f2, pFmt, signed, steps } from './claim-texts.ts';
import { bootstrapMeanCI, holmAdjust, MAX_SIGN_FLIP_PAIRS, signFlipP, tostP } from './confirmatory-stats.ts';
import type { ClaimRecord, PairedTestRecord } from './confirmatory-types.ts';
import { labelOf, type StudyCells } from './study-cells.ts';
import type { VariantName } from './variants.ts';

export const ALPHA = 0.05;
export const MIN_EFFECT_AUC = 0.03;
export const MARGIN_AUC = 0.05;
/** Minimal effect and equivalence margin in env steps to 60%, as a share of the cell's budget. */
export const STEPS_SHARE = 0.1;

// ——— Claim construction ———

/** Why n paired seeds cannot be tested exactly, or null when they can. */
export function pairCountProblem(n: number): string | null {
  if (n < 2) return 'fewer than 2 paired seeds';
  if (n > MAX_SIGN_FLIP_PAIRS) return `${n} paired seeds: the exact sign-flip test enumerates 2^n patterns, at most ${MAX_SIGN_FLIP_PAIRS} seeds`;
  return null;
}

/** A test before Holm: its kind decides the verdict once the family is adjusted. */
export interface PendingTest {
  record: PairedTestRecord;
  kind: 'beats' | 'agrees';
  /** Minimal effect (beats) or margin (agrees), in the endpoint's units. */
  threshold: number;
  fmt: (x: number) => string;
}

export interface PendingClaim {
  record: ClaimRecord;
  tests: PendingTest[];
  /** Tests the pre-registration plans for this record; an untestable record enters Holm as that many p = 1. */
  planned: number;
  /** Sentences before the test results (the cells' means). */
  lead: string;
}

export function untestable(t: ClaimText, env: EnvName | null, horizon: Horizon | null, reason: string, rule: string, planned = 1): PendingClaim {
  const record = { ...baseRecord(t, env, horizon), untestable: reason, ours: `untestable: ${reason}`, rule };
  return { record, tests: [], planned, lead: '' };
}

export function pendingTest(comparison: string, paired: Paired, kind: 'beats' | 'agrees', threshold: number, fmt: (x: number) => string): PendingTest {
  const effect = mean(paired.diffs);
  return {
    record: {
      comparison,
      seeds: paired.seeds,
      diffs: paired.diffs,
      effect,
      ci: bootstrapMeanCI(paired.diffs),
      p: kind === 'beats' ? signFlipP(paired.diffs) : tostP(paired.diffs, threshold),
      pAdjusted: null,
    },
    kind,
    threshold,
    fmt,
  };
}

export interface Comparison {
  a: VariantName;
  b: VariantName;
  horizon: Horizon;
}

/** A claim on one paired comparison per environment (P1, P2, P4, M1, M2, M3, M5, M7, M8). */
export function singleComparison(
  cells: StudyCells,
  t: ClaimText,
  env: EnvName,
  c: Comparison,
  kind: 'beats' | 'agrees',
  e: Endpoint,
  perCell: boolean,
): PendingClaim {
  const horizon = perCell ? c.horizon : null;
  const budget = () => cells.budget(env, c.horizon);
  const threshold = e === 'auc' ? (kind === 'beats' ? MIN_EFFECT_AUC : MARGIN_AUC) : STEPS_SHARE;
  const ruleOf = () => ruleText(kind, e, threshold, e === 'stepsTo60' ? budget() : null);
  const why = missing(cells, env, [
    [c.horizon, c.a],
    [c.horizon, c.b],
  ]);
  if (why) return untestable(t, env, horizon, why, ruleOf());
  const aRuns = cells.get(env, c.horizon, c.a);
  const bRuns = cells.get(env, c.horizon, c.b);
  // Steps to 60%: fewer is better, so the difference is b − a (positive when a gets there sooner).
  const paired = e === 'auc' ? pairBySeed(aRuns, bRuns, (r) => r.endpoints.auc) : pairBySeed(bRuns, aRuns, (r) => r.endpoints.stepsTo60Endpoint);
  const tooFew = pairCountProblem(paired.diffs.length);
  if (tooFew) return untestable(t, env, horizon, tooFew, ruleOf());
  const la = labelOf(c.a);
  const lb = labelOf(c.b);
  const fmt = e === 'auc' ? f2 : steps;
  const absolute = e === 'auc' ? threshold : threshold * budget();
  const comparison = e === 'auc' ? `${la} − ${lb}` : `${lb} − ${la}`;
  const unit = e === 'auc' ? 'AUC' : 'env steps to 60%';
  const lead = `${la} ${fmt(cellMean(aRuns, e))} vs ${lb} ${fmt(cellMean(bRuns, e))} ${unit} (${c.horizon})`;
  return { record: { ...baseRecord(t, env, horizon), rule: ruleOf() }, tests: [pendingTest(comparison, paired, kind, absolute, fmt)], planned: 1, lead };
}

export function ruleText(kind: 'beats' | 'agrees', e: Endpoint, threshold: number, budget: number | null): string {
  const share = `${Math.round(threshold * 100)}% of the budget`;
  const amount = e === 'auc' ? `${f2(threshold)} AUC` : finite(budget) ? `${share} (${steps(threshold * budget)} env steps)` : share;
  return kind === 'beats'
    ? `beats: one-sided exact sign-flip p ≤ ${ALPHA} after Holm within the family, and effect ≥ ${amount}`
    : `agrees: TOST p ≤ ${ALPHA} after Holm within the family, margin ±${amount}`;
}

/** A claim on a contrast of paired differences (P3, M6, M9), one-sided "> 0" with the AUC minimal effect. */
export function contrastClaim(
  t: ClaimText,
  env: EnvName,
  needs: [EnvName, Horizon, VariantName][],
  cells: StudyCells,
  build: () => Paired,
  comparison: string,
  lead: () => string,
): PendingClaim {
  const rule = `${ruleText('beats', 'auc', MIN_EFFECT_AUC, null)} (the contrast ${comparison} > 0)`;
  for (const [e, h, v] of needs) {
    const why = missing(cells, e, [[h, v]]);
    if (why) return untestable(t, env, null, why, rule);
  }
  const paired = build();
  const tooFew = pairCountProblem(paired.diffs.length);
  if (tooFew) return untestable(t, env, null, tooFew, rule);
  return { record: { ...baseRecord(t, env, null), rule }, tests: [pendingTest(comparison, paired, 'beats', MIN_EFFECT_AUC, f2)], planned: 1, lead: lead() };
}

/** The test's verdict and sentence once its p is adjusted. */
export function judgeTest(t: PendingTest): { held: boolean; text: string } {
  const { effect, ci, p, pAdjusted, diffs } = t.record;
  const pa = pAdjusted as number;
  const ahead = diffs.filter((d) => d > 0).length;
  const held = t.kind === 'beats' ? pa <= ALPHA && effect >= t.threshold : pa <= ALPHA;
  const pName = t.kind === 'beats' ? 'p' : 'TOST p';
  const tail = t.kind === 'beats' ? `, ${ahead}/${diffs.length} seeds ahead` : '';
  const text = `${t.record.comparison} effect ${signed(effect, t.fmt)} ${ciFmt(ci, t.fmt)}, ${pName} = ${pFmt(p as number)} (Holm ${pFmt(pa)})${tail}`;
  return { held, text };
}

export function adjustFamily(claims: PendingClaim[]): void {
  const tests = claims.flatMap((c) => c.tests);
  const padding = claims.filter((c) => c.tests.length === 0).reduce((a, c) => a + c.planned, 0);
  const adjusted = holmAdjust([...tests.map((t) => t.record.p as number), ...new Array<number>(padding).fill(1)]);
  tests.forEach((t, i) => {
    t.record.pAdjusted = adjusted[i];
  });
  const k = tests.length + padding;
  for (const c of claims) {
    if (c.tests.length === 0) continue;
    const judged = c.tests.map(judgeTest);
    c.record.tests = c.tests.map((t) => t.record);
    // The record's effect is its first (headline) test; a claim of several tests holds when all hold.
    c.record.effect = c.tests[0].record.effect;
    c.record.ci = c.tests[0].record.ci;
    c.record.held = judged.every((j) => j.held);
    c.record.ours = `${c.lead ? `${c.lead}; ` : ''}${judged.map((j) => j.text).join('; ')}`;
    c.record.rule = `${c.record.rule} (Holm over the family's ${k} pre-registered tests; untestable ones count as p = 1)`;
  }
}
