/**
 * Study v3's tested claims, exactly as docs/results/preregistration.md fixes them (definitions in
 * docs/maths.md §11): every effect is a mean of per-seed paired differences with its bootstrap interval
 * and exact sign-flip p (or TOST p for "agrees"); Holm–Bonferroni within family P and within family M.
 * evaluateConfirmatoryClaims adds the descriptive families, T (the paper's thresholds) and I
 * (identities, checked, never counted as held claims), from descriptive-claims.ts. A claim whose cells
 * did not run is untestable with the reason, never failed, and nothing here throws on a missing cell.
 * What each claim says is claim-texts.ts; what it reads of the cells, claim-cells.ts.
 *
 * The cells (study-cells.ts) hold each run's endpoints, computed from its curves at the cell's budget, so
 * a run's stored summary means never enter a test except T1, T3 and I2, which are run means by definition.
 */
import { ENV_NAMES, type EnvName, type Horizon } from '../../envs/index.ts';
import { aucDiff, cellMean, combineBySeed, type Endpoint, finite, mean, missing, type Paired, pairByIndex, pairBySeed } from './claim-cells.ts';
import { baseRecord, ciFmt, type ClaimText, f2, M_TEXT, P_TEXT, pFmt, signed, steps } from './claim-texts.ts';
import { bootstrapMeanCI, holmAdjust, MAX_SIGN_FLIP_PAIRS, signFlipP, tostP } from './confirmatory-stats.ts';
import type { ClaimRecord, PairedTestRecord } from './confirmatory-types.ts';
import { familyI, familyT } from './descriptive-claims.ts';
import { HORIZON_ORDER } from './matrix.ts';
import { labelOf, type StudyCells } from './study-cells.ts';
import { releasedVariantFor, type VariantName } from './variants.ts';

export const ALPHA = 0.05;
export const MIN_EFFECT_AUC = 0.03;
export const MARGIN_AUC = 0.05;
/** Minimal effect and equivalence margin in env steps to 60%, as a share of the cell's budget. */
export const STEPS_SHARE = 0.1;
const LONG: Horizon = 'long';
const SHORT: Horizon = 'short';
const HOUSEHOLD_ENVS = ENV_NAMES.filter((e) => e !== 'shop');

// ——— Claim construction ———

/** Why n paired seeds cannot be tested exactly, or null when they can. */
function pairCountProblem(n: number): string | null {
  if (n < 2) return 'fewer than 2 paired seeds';
  if (n > MAX_SIGN_FLIP_PAIRS) return `${n} paired seeds: the exact sign-flip test enumerates 2^n patterns, at most ${MAX_SIGN_FLIP_PAIRS} seeds`;
  return null;
}

/** A test before Holm: its kind decides the verdict once the family is adjusted. */
interface PendingTest {
  record: PairedTestRecord;
  kind: 'beats' | 'agrees';
  /** Minimal effect (beats) or margin (agrees), in the endpoint's units. */
  threshold: number;
  fmt: (x: number) => string;
}

interface PendingClaim {
  record: ClaimRecord;
  tests: PendingTest[];
  /** Tests the pre-registration plans for this record; an untestable record enters Holm as that many p = 1. */
  planned: number;
  /** Sentences before the test results (the cells' means). */
  lead: string;
}

function untestable(t: ClaimText, env: EnvName | null, horizon: Horizon | null, reason: string, rule: string, planned = 1): PendingClaim {
  const record = { ...baseRecord(t, env, horizon), untestable: reason, ours: `untestable: ${reason}`, rule };
  return { record, tests: [], planned, lead: '' };
}

function pendingTest(comparison: string, paired: Paired, kind: 'beats' | 'agrees', threshold: number, fmt: (x: number) => string): PendingTest {
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

interface Comparison {
  a: VariantName;
  b: VariantName;
  horizon: Horizon;
}

/** A claim on one paired comparison per environment (P1, P2, P4, M1, M2, M3, M5, M7, M8). */
function singleComparison(cells: StudyCells, t: ClaimText, env: EnvName, c: Comparison, kind: 'beats' | 'agrees', e: Endpoint, perCell: boolean): PendingClaim {
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

function ruleText(kind: 'beats' | 'agrees', e: Endpoint, threshold: number, budget: number | null): string {
  const share = `${Math.round(threshold * 100)}% of the budget`;
  const amount = e === 'auc' ? `${f2(threshold)} AUC` : finite(budget) ? `${share} (${steps(threshold * budget)} env steps)` : share;
  return kind === 'beats'
    ? `beats: one-sided exact sign-flip p ≤ ${ALPHA} after Holm within the family, and effect ≥ ${amount}`
    : `agrees: TOST p ≤ ${ALPHA} after Holm within the family, margin ±${amount}`;
}

/** A claim on a contrast of paired differences (P3, M6, M9), one-sided "> 0" with the AUC minimal effect. */
function contrastClaim(
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
function judgeTest(t: PendingTest): { held: boolean; text: string } {
  const { effect, ci, p, pAdjusted, diffs } = t.record;
  const pa = pAdjusted as number;
  const ahead = diffs.filter((d) => d > 0).length;
  const held = t.kind === 'beats' ? pa <= ALPHA && effect >= t.threshold : pa <= ALPHA;
  const pName = t.kind === 'beats' ? 'p' : 'TOST p';
  const tail = t.kind === 'beats' ? `, ${ahead}/${diffs.length} seeds ahead` : '';
  const text = `${t.record.comparison} effect ${signed(effect, t.fmt)} ${ciFmt(ci, t.fmt)}, ${pName} = ${pFmt(p as number)} (Holm ${pFmt(pa)})${tail}`;
  return { held, text };
}

function adjustFamily(claims: PendingClaim[]): void {
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

// ——— Families P and M ———

function familyP(cells: StudyCells): PendingClaim[] {
  const out: PendingClaim[] = [];
  for (const env of ENV_NAMES) {
    out.push(singleComparison(cells, P_TEXT.P1, env, { a: 'beacon', b: 'grpo', horizon: LONG }, 'beats', 'auc', false));
    out.push(singleComparison(cells, P_TEXT.P2, env, { a: 'beacon', b: 'grpo', horizon: LONG }, 'beats', 'stepsTo60', false));
    out.push(gainGrows(cells, env));
    out.push(singleComparison(cells, P_TEXT.P4, env, { a: 'beacon', b: 'ppoShaped', horizon: LONG }, 'beats', 'auc', false));
  }
  return out;
}

function gainGrows(cells: StudyCells, env: EnvName): PendingClaim {
  const long = () => aucDiff(cells, env, LONG, 'beacon', 'grpo');
  const short = () => aucDiff(cells, env, SHORT, 'beacon', 'grpo');
  const needs: [EnvName, Horizon, VariantName][] = [
    [env, LONG, 'beacon'],
    [env, LONG, 'grpo'],
    [env, SHORT, 'beacon'],
    [env, SHORT, 'grpo'],
  ];
  const lead = () => `BEACON − GRPO ${signed(mean(long().diffs), f2)} AUC on long, ${signed(mean(short().diffs), f2)} on short`;
  return contrastClaim(P_TEXT.P3, env, needs, cells, () => pairByIndex(long(), short()), '(BEACON − GRPO) long − (BEACON − GRPO) short', lead);
}

function familyM(cells: StudyCells): PendingClaim[] {
  const out: PendingClaim[] = [];
  for (const env of ENV_NAMES) {
    out.push(singleComparison(cells, M_TEXT.M1, env, { a: 'beacon', b: 'gigpo', horizon: LONG }, 'beats', 'auc', false));
    out.push(singleComparison(cells, M_TEXT.M2, env, { a: 'beacon', b: 'ppo', horizon: LONG }, 'beats', 'auc', false));
    out.push(singleComparison(cells, M_TEXT.M3, env, { a: 'beacon', b: 'sft', horizon: LONG }, 'beats', 'auc', false));
    out.push(randomSegments(cells, env));
    out.push(singleComparison(cells, M_TEXT.M5, env, { a: 'milestoneDropout', b: 'grpo', horizon: LONG }, 'beats', 'auc', false));
    out.push(singleComparison(cells, M_TEXT.M7, env, { a: 'beacon', b: 'gamma0', horizon: LONG }, 'beats', 'auc', false));
    for (const horizon of horizonsOf(cells, env))
      out.push(singleComparison(cells, M_TEXT.M8, env, { a: releasedVariantFor(env), b: 'beacon', horizon }, 'agrees', 'auc', true));
    out.push(gainOverGigpo(cells, env));
  }
  for (const env of HOUSEHOLD_ENVS) out.push(trajectoryTerm(cells, env));
  return out;
}

/** M8 is per cell: the pre-registered horizons, plus any other horizon that ran. */
function horizonsOf(cells: StudyCells, env: EnvName): Horizon[] {
  const ran = cells
    .list()
    .filter((c) => c.env === env)
    .map((c) => c.horizon);
  const all = new Set<Horizon>(['short', 'medium', 'long', ...ran]);
  return [...all].sort((a, b) => HORIZON_ORDER[a] - HORIZON_ORDER[b]);
}

function randomSegments(cells: StudyCells, env: EnvName): PendingClaim {
  const t = M_TEXT.M4;
  const rule = `${ruleText('agrees', 'auc', MARGIN_AUC, null)} for random segments vs GRPO; ${ruleText('beats', 'auc', MIN_EFFECT_AUC, null)} for BEACON vs random segments; both must hold`;
  const why = missing(cells, env, [
    [LONG, 'randomSegments'],
    [LONG, 'grpo'],
    [LONG, 'beacon'],
  ]);
  if (why) return untestable(t, env, null, why, rule, 2);
  const equivalence = aucDiff(cells, env, LONG, 'randomSegments', 'grpo');
  const beats = aucDiff(cells, env, LONG, 'beacon', 'randomSegments');
  const tooFew = pairCountProblem(equivalence.diffs.length) ?? pairCountProblem(beats.diffs.length);
  if (tooFew) return untestable(t, env, null, tooFew, rule, 2);
  const lead = `random segments ${f2(cellMean(cells.get(env, LONG, 'randomSegments'), 'auc'))}, GRPO ${f2(cellMean(cells.get(env, LONG, 'grpo'), 'auc'))}, BEACON ${f2(cellMean(cells.get(env, LONG, 'beacon'), 'auc'))} AUC (long)`;
  return {
    record: { ...baseRecord(t, env, null), rule },
    tests: [
      pendingTest('BEACON − random segments', beats, 'beats', MIN_EFFECT_AUC, f2),
      pendingTest('random segments − GRPO', equivalence, 'agrees', MARGIN_AUC, f2),
    ],
    planned: 2,
    lead,
  };
}

function trajectoryTerm(cells: StudyCells, env: EnvName): PendingClaim {
  const household = () => aucDiff(cells, env, LONG, 'beacon', 'noTrajectoryTerm');
  const shop = () => aucDiff(cells, 'shop', LONG, 'beacon', 'noTrajectoryTerm');
  const needs: [EnvName, Horizon, VariantName][] = [
    [env, LONG, 'beacon'],
    [env, LONG, 'noTrajectoryTerm'],
    ['shop', LONG, 'beacon'],
    ['shop', LONG, 'noTrajectoryTerm'],
  ];
  const lead = () => `BEACON − no trajectory term ${signed(mean(household().diffs), f2)} AUC in ${env}, ${signed(mean(shop().diffs), f2)} in shop (long)`;
  return contrastClaim(
    M_TEXT.M6,
    env,
    needs,
    cells,
    () => pairByIndex(household(), shop()),
    `(BEACON − no trajectory term) ${env} − (BEACON − no trajectory term) shop`,
    lead,
  );
}

function gainOverGigpo(cells: StudyCells, env: EnvName): PendingClaim {
  const grows = (v: VariantName) => combineBySeed(aucDiff(cells, env, LONG, v, 'grpo'), aucDiff(cells, env, SHORT, v, 'grpo'));
  const needs: [EnvName, Horizon, VariantName][] = [LONG, SHORT].flatMap((h) =>
    (['beacon', 'gigpo', 'grpo'] as VariantName[]).map((v): [EnvName, Horizon, VariantName] => [env, h, v]),
  );
  const lead = () => `gain over GRPO, long − short: BEACON ${signed(mean(grows('beacon').diffs), f2)}, GiGPO ${signed(mean(grows('gigpo').diffs), f2)} AUC`;
  return contrastClaim(
    M_TEXT.M9,
    env,
    needs,
    cells,
    () => combineBySeed(grows('beacon'), grows('gigpo')),
    '[(BEACON − GRPO) − (GiGPO − GRPO)] long − short',
    lead,
  );
}

/**
 * Every claim of the pre-registration, one record per claim and environment (per cell for M8): family P
 * and M with Holm within each, family T descriptive, identities I1 and I2.
 */
export function evaluateConfirmatoryClaims(cells: StudyCells): ClaimRecord[] {
  const p = familyP(cells);
  const m = familyM(cells);
  adjustFamily(p);
  adjustFamily(m);
  const identities = familyI(cells);
  const byId = (a: PendingClaim, b: PendingClaim) =>
    Number(a.record.id.slice(1)) - Number(b.record.id.slice(1)) || ENV_NAMES.indexOf(a.record.env as EnvName) - ENV_NAMES.indexOf(b.record.env as EnvName);
  return [...p.sort(byId).map((c) => c.record), ...m.sort(byId).map((c) => c.record), ...familyT(cells), ...identities];
}
