/**
 * Study v3's claims, exactly as docs/results/preregistration.md
 * fixes them (definitions in docs/maths.md §11): every effect is a mean of per-seed paired differences
 * with its bootstrap interval and exact sign-flip p; Holm–Bonferroni within family P and within family
 * M; family T (the paper's thresholds) is descriptive; identities (family I) are checked, never counted
 * as held claims. A claim whose cells did not run is untestable with the reason, never failed, and
 * nothing here throws on a missing cell.
 *
 * The cells (study-cells.ts) hold each run's endpoints, computed from its curves at the cell's budget, so
 * a run's stored summary means never enter a test except T1, T3 and I2, which are run means by definition.
 */
import { ENV_NAMES, type EnvName, type Horizon } from '../../envs/index.ts';
import { bootstrapMeanCI, holmAdjust, MAX_SIGN_FLIP_PAIRS, signFlipP, tostP } from './confirmatory-stats.ts';
import type { ClaimFamily, ClaimRecord, PairedTestRecord } from './confirmatory-types.ts';
import { HORIZON_ORDER } from './matrix.ts';
import { labelOf, type EndpointRun, type StudyCells } from './study-cells.ts';
import { releasedVariantFor, type VariantName } from './variants.ts';

export const ALPHA = 0.05;
export const MIN_EFFECT_AUC = 0.03;
export const MARGIN_AUC = 0.05;
/** Minimal effect and equivalence margin in env steps to 60%, as a share of the cell's budget. */
export const STEPS_SHARE = 0.1;
/** I1: γ = 1 must reproduce GRPO's curves within this. */
export const IDENTITY_TOLERANCE = 1e-9;
/** I2: BEACON's utilisation on advantages counts as near 100% from this. */
export const UTILISATION_NEAR_FULL = 0.95;
const LONG: Horizon = 'long';
const SHORT: Horizon = 'short';
const HOUSEHOLD_ENVS = ENV_NAMES.filter((e) => e !== 'shop');

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

// ——— Formatting for the `ours` and `rule` sentences ———

const f2 = (x: number) => x.toFixed(2);
const signed = (x: number, fmt: (x: number) => string) => (x >= 0 ? `+${fmt(x)}` : `−${fmt(-x)}`);
const steps = (x: number) => Math.round(x).toLocaleString('en-US');
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const pFmt = (p: number) => (p < 1e-4 ? p.toExponential(1) : p.toFixed(4));
const ciFmt = (ci: [number, number], fmt: (x: number) => string) => `[${fmt(ci[0])}, ${fmt(ci[1])}]`;

// ——— Paired differences ———

type Endpoint = 'auc' | 'stepsTo60';
const endpointValue = (r: EndpointRun, e: Endpoint) => (e === 'auc' ? r.endpoints.auc : r.endpoints.stepsTo60Endpoint);

interface Paired {
  seeds: number[];
  diffs: number[];
}

/** a − b per seed present in both, in seed order. */
function pairBySeed(a: readonly EndpointRun[], b: readonly EndpointRun[], value: (r: EndpointRun) => number): Paired {
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
function pairByIndex(x: Paired, y: Paired): Paired {
  const n = Math.min(x.diffs.length, y.diffs.length);
  return { seeds: x.seeds.slice(0, n), diffs: x.diffs.slice(0, n).map((d, i) => d - y.diffs[i]) };
}

/** x − y over the seeds both have. */
function combineBySeed(x: Paired, y: Paired): Paired {
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

interface ClaimText {
  id: string;
  family: ClaimFamily;
  claim: string;
  paper: string;
  endpoint: string;
}

function baseRecord(t: ClaimText, env: EnvName | null, horizon: Horizon | null): ClaimRecord {
  return {
    id: t.id,
    family: t.family,
    kind: t.family === 'I' ? 'identity' : 'empirical',
    env,
    horizon,
    claim: t.claim,
    paper: t.paper,
    ours: '',
    endpoint: t.endpoint,
    effect: null,
    ci: null,
    held: null,
    untestable: null,
    rule: '',
    tests: [],
  };
}

function untestable(t: ClaimText, env: EnvName | null, horizon: Horizon | null, reason: string, rule: string, planned = 1): PendingClaim {
  const record = { ...baseRecord(t, env, horizon), untestable: reason, ours: `untestable: ${reason}`, rule };
  return { record, tests: [], planned, lead: '' };
}

/** Why a comparison of these cells cannot be tested, or null when it can. */
function missing(cells: StudyCells, env: EnvName, needs: readonly [Horizon, VariantName][]): string | null {
  if (!cellsHaveEnv(cells, env)) return `no ${env} runs`;
  for (const [h, v] of needs) if (cells.get(env, h, v).length === 0) return `no ${env} ${h} runs of ${labelOf(v)}`;
  return null;
}

function cellsHaveEnv(cells: StudyCells, env: EnvName): boolean {
  return cells.list().some((c) => c.env === env);
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

const cellMean = (runs: readonly EndpointRun[], e: Endpoint) => mean(runs.map((r) => endpointValue(r, e)));

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

// ——— The claims ———

const P_TEXT = {
  P1: {
    id: 'P1',
    family: 'P',
    claim: 'BEACON beats GRPO on long tasks.',
    paper: 'BEACON above GRPO on every long-horizon benchmark (ALFWorld, WebShop)',
    endpoint: 'auc',
  },
  P2: {
    id: 'P2',
    family: 'P',
    claim: 'BEACON reaches 60% success in fewer env steps than GRPO on long tasks.',
    paper: 'BEACON reaches 60% in about 50 iterations, GRPO in about 120',
    endpoint: 'stepsTo60',
  },
  P3: {
    id: 'P3',
    family: 'P',
    claim: "BEACON's gain over GRPO grows from short to long tasks.",
    paper: 'the gain over GRPO is largest on the longest tasks',
    endpoint: 'auc',
  },
  P4: {
    id: 'P4',
    family: 'P',
    claim: 'BEACON beats shaped-reward PPO on long tasks: credit assignment, not reward shaping.',
    paper: 'not in the paper; the "why not just reward milestones?" control (docs/maths.md §8)',
    endpoint: 'auc',
  },
} satisfies Record<string, ClaimText>;

const M_TEXT = {
  M1: { id: 'M1', family: 'M', claim: 'BEACON beats GiGPO on long tasks.', paper: 'BEACON above GiGPO on ALFWorld and WebShop', endpoint: 'auc' },
  M2: { id: 'M2', family: 'M', claim: 'BEACON beats critic PPO on long tasks.', paper: 'BEACON above PPO on ALFWorld and WebShop', endpoint: 'auc' },
  M3: { id: 'M3', family: 'M', claim: 'BEACON beats SFT at equal env steps on long tasks.', paper: 'RL above the SFT baseline', endpoint: 'auc' },
  M4: {
    id: 'M4',
    family: 'M',
    claim: 'Random segmentation agrees with GRPO, and BEACON beats it, on long tasks.',
    paper: 'random segments lose most of the gain (§6 ablation)',
    endpoint: 'auc',
  },
  M5: {
    id: 'M5',
    family: 'M',
    claim: 'Milestone dropout p = 0.5 beats GRPO on long tasks.',
    paper: 'dropping half the milestones keeps most of the gain (§6 ablation)',
    endpoint: 'auc',
  },
  M6: {
    id: 'M6',
    family: 'M',
    claim: 'Without the trajectory term BEACON loses more in this household environment than in the shop.',
    paper: 'the trajectory term matters more on ALFWorld than on WebShop (§6 ablation)',
    endpoint: 'auc',
  },
  M7: {
    id: 'M7',
    family: 'M',
    claim: 'Full BEACON beats γ = 0 on long tasks.',
    paper: 'γ = 0 (no temporal shaping) loses to full BEACON (§6 ablation)',
    endpoint: 'auc',
  },
  M8: {
    id: 'M8',
    family: 'M',
    claim: 'The released variant of BEACON agrees with the paper variant.',
    paper: 'the released code (ALFWorld γ 0.9, λ 10; WebShop γ 0.95, λ 1) implements the paper',
    endpoint: 'auc',
  },
  M9: {
    id: 'M9',
    family: 'M',
    claim: "BEACON's AUC gain over GRPO, long minus short, exceeds GiGPO's.",
    paper: "BEACON's advantage grows with the horizon more than GiGPO's",
    endpoint: 'auc',
  },
} satisfies Record<string, ClaimText>;

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

const aucDiff = (cells: StudyCells, env: EnvName, h: Horizon, a: VariantName, b: VariantName) =>
  pairBySeed(cells.get(env, h, a), cells.get(env, h, b), (r) => r.endpoints.auc);

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

// ——— Family T: the paper's thresholds, descriptive ———

function describe(
  t: ClaimText,
  env: EnvName,
  why: string | null,
  values: { seeds: number[]; xs: number[] },
  comparison: string,
  held: (m: number) => boolean,
  rule: string,
  ours: (m: number, ci: [number, number]) => string,
): ClaimRecord {
  const base = { ...baseRecord(t, env, null), rule };
  if (why) return { ...base, untestable: why, ours: `untestable: ${why}` };
  if (values.xs.length < 2) {
    const reason = values.xs.length === 0 ? `no ${env} long run records a finite ${t.endpoint}` : 'fewer than 2 seeds';
    return { ...base, untestable: reason, ours: `untestable: ${reason}` };
  }
  const effect = mean(values.xs);
  const ci = bootstrapMeanCI(values.xs);
  const test: PairedTestRecord = { comparison, seeds: values.seeds, diffs: values.xs, effect, ci, p: null, pAdjusted: null };
  return { ...base, effect, ci, held: held(effect), ours: ours(effect, ci), tests: [test] };
}

function perSeed(runs: readonly EndpointRun[], value: (r: EndpointRun) => number | null | undefined): { seeds: number[]; xs: number[] } {
  const kept = runs.filter((r) => finite(value(r)));
  return { seeds: kept.map((r) => r.run.seed), xs: kept.map((r) => value(r) as number) };
}

const T_TEXT = {
  T1: {
    id: 'T1',
    family: 'T',
    claim: "GRPO's signal retention is below 20% on long tasks.",
    paper: 'signal retention below 20% under GRPO',
    endpoint: 'signalRetention',
  },
  T2: {
    id: 'T2',
    family: 'T',
    claim: "GRPO's contradictory ratio exceeds 40% at its peak on long tasks.",
    paper: 'contradictory action ratio above 40% at its peak under GRPO',
    endpoint: 'contradictoryPeakSigned',
  },
  T3: { id: 'T3', family: 'T', claim: "BEACON's CCR is below GiGPO's on long tasks.", paper: 'CCR: BEACON 0.84, GiGPO 2.36', endpoint: 'ccr' },
  T4: {
    id: 'T4',
    family: 'T',
    claim: "Partial successes are 39–47% of GRPO's samples and full successes under 27% on long tasks.",
    paper: 'partial successes 39–47% of samples, full successes under 27%',
    endpoint: 'outcomeMix',
  },
} satisfies Record<string, ClaimText>;

function familyT(cells: StudyCells): ClaimRecord[] {
  const out: ClaimRecord[] = [];
  for (const env of ENV_NAMES) {
    const grpo = cells.get(env, LONG, 'grpo');
    const why = missing(cells, env, [[LONG, 'grpo']]);
    out.push(
      describe(
        T_TEXT.T1,
        env,
        why,
        perSeed(grpo, (r) => r.run.signalRetention),
        'GRPO signal retention',
        (m) => m < 0.2,
        'held when the mean over seeds of the run-mean signal retention (docs/maths.md §5) is below 0.20',
        (m, ci) => `GRPO signal retention ${pct(m)} ${ciFmt(ci, pct)} (long)`,
      ),
    );
    out.push(
      describe(
        T_TEXT.T2,
        env,
        why,
        perSeed(grpo, (r) => r.endpoints.contradictoryPeakSigned),
        'GRPO contradictory ratio, peak',
        (m) => m > 0.4,
        'held when the mean over seeds of the per-iteration peak contradictory ratio, all-zero keys left out (docs/maths.md §11), is above 0.40',
        (m, ci) => `GRPO contradictory ratio at its peak ${pct(m)} ${ciFmt(ci, pct)} (long)`,
      ),
    );
    out.push(ccrClaim(cells, env));
    out.push(outcomeMixClaim(env, why, grpo));
  }
  return out;
}

function ccrClaim(cells: StudyCells, env: EnvName): ClaimRecord {
  const t = T_TEXT.T3;
  const rule = "held when the mean over seeds of BEACON's run-mean CCR (docs/maths.md §5) is below GiGPO's; effect = BEACON − GiGPO, paired by seed";
  const why = missing(cells, env, [
    [LONG, 'beacon'],
    [LONG, 'gigpo'],
  ]);
  if (why) return { ...baseRecord(t, env, null), rule, untestable: why, ours: `untestable: ${why}` };
  const beacon = perSeed(cells.get(env, LONG, 'beacon'), (r) => r.run.ccr);
  const gigpo = perSeed(cells.get(env, LONG, 'gigpo'), (r) => r.run.ccr);
  const gigpoBySeed = new Map(gigpo.seeds.map((s, i) => [s, gigpo.xs[i]]));
  const seeds = beacon.seeds.filter((s) => gigpoBySeed.has(s));
  const diffs = seeds.map((s) => beacon.xs[beacon.seeds.indexOf(s)] - (gigpoBySeed.get(s) as number));
  return describe(
    t,
    env,
    null,
    { seeds, xs: diffs },
    'BEACON CCR − GiGPO CCR',
    (m) => m < 0,
    rule,
    (m, ci) => `BEACON CCR ${f2(mean(beacon.xs))} vs GiGPO ${f2(mean(gigpo.xs))}, difference ${signed(m, f2)} ${ciFmt(ci, f2)} (long)`,
  );
}

function outcomeMixClaim(env: EnvName, why: string | null, grpo: readonly EndpointRun[]): ClaimRecord {
  const t = T_TEXT.T4;
  const rule =
    "held when the mean over seeds of GRPO's partial share (all iterations of a run) lies in [0.39, 0.47] and its full-success share is below 0.27; effect = partial share";
  const partial = perSeed(grpo, (r) => r.endpoints.outcomeMix.partial);
  const full = perSeed(grpo, (r) => r.endpoints.outcomeMix.full);
  const fullMean = full.xs.length ? mean(full.xs) : Number.NaN;
  const record = describe(
    t,
    env,
    why,
    partial,
    'GRPO partial share',
    (m) => m >= 0.39 && m <= 0.47 && fullMean < 0.27,
    rule,
    (m, ci) => `GRPO partial ${pct(m)} ${ciFmt(ci, pct)}, full ${pct(fullMean)} ${ciFmt(bootstrapMeanCI(full.xs), pct)} of samples (long)`,
  );
  if (record.held === null) return record;
  return {
    ...record,
    tests: [
      ...record.tests,
      { comparison: 'GRPO full-success share', seeds: full.seeds, diffs: full.xs, effect: fullMean, ci: bootstrapMeanCI(full.xs), p: null, pAdjusted: null },
    ],
  };
}

// ——— Identities ———

const I_TEXT = {
  I1: {
    id: 'I1',
    family: 'I',
    claim: 'γ = 1 reproduces GRPO.',
    paper: 'with γ = 1 and no segment term BEACON reduces to GRPO (docs/maths.md §4)',
    endpoint: 'success curve',
  },
  I2: {
    id: 'I2',
    family: 'I',
    claim: "BEACON's utilisation on advantages is near 100% whenever one segment completes.",
    paper: 'effective sample utilisation 82.0% (BEACON) vs 23.7% (GRPO)',
    endpoint: 'sampleUtilization',
  },
} satisfies Record<string, ClaimText>;

function gammaOneIdentity(cells: StudyCells, env: EnvName): ClaimRecord {
  const t = I_TEXT.I1;
  const rule = `held when, on every paired seed, the γ = 1 run has as many iterations as GRPO's, the same env steps, and success within ${IDENTITY_TOLERANCE} at every iteration; effect = the largest |difference| of the success curves`;
  const why = missing(cells, env, [
    [LONG, 'gamma1'],
    [LONG, 'grpo'],
  ]);
  if (why) return { ...baseRecord(t, env, null), rule, untestable: why, ours: `untestable: ${why}` };
  const grpo = new Map(cells.get(env, LONG, 'grpo').map((r) => [r.run.seed, r.run.curves]));
  const seeds: number[] = [];
  const gaps: number[] = [];
  let sameShape = true;
  for (const r of cells.get(env, LONG, 'gamma1')) {
    const other = grpo.get(r.run.seed);
    if (!other) continue;
    const a = r.run.curves;
    sameShape &&= a.success.length === other.success.length && a.envSteps.every((s, i) => s === other.envSteps[i]);
    const n = Math.min(a.success.length, other.success.length);
    let gap = 0;
    for (let i = 0; i < n; i++) gap = Math.max(gap, Math.abs((a.success[i] ?? Number.NaN) - (other.success[i] ?? Number.NaN)) || 0);
    seeds.push(r.run.seed);
    gaps.push(gap);
  }
  if (seeds.length < 2) return { ...baseRecord(t, env, null), rule, untestable: 'fewer than 2 paired seeds', ours: 'untestable: fewer than 2 paired seeds' };
  const effect = Math.max(...gaps);
  const held = sameShape && effect <= IDENTITY_TOLERANCE;
  const ours = `largest |γ = 1 − GRPO| success difference ${effect.toExponential(1)} over ${seeds.length} paired seeds (long)${sameShape ? '' : '; the curves differ in length or env steps'}`;
  return {
    ...baseRecord(t, env, null),
    rule,
    effect,
    ci: [Math.min(...gaps), effect],
    held,
    ours,
    tests: [{ comparison: 'max |γ = 1 − GRPO| per seed', seeds, diffs: gaps, effect, ci: [Math.min(...gaps), effect], p: null, pAdjusted: null }],
  };
}

function utilisationIdentity(cells: StudyCells, env: EnvName): ClaimRecord {
  const values = perSeed(cells.get(env, LONG, 'beacon'), (r) => r.run.sampleUtilization);
  const why = missing(cells, env, [[LONG, 'beacon']]);
  return describe(
    I_TEXT.I2,
    env,
    why,
    values,
    'BEACON sample utilisation',
    (m) => m >= UTILISATION_NEAR_FULL,
    `shown, not tested: held when BEACON's mean sample utilisation (docs/maths.md §5) is at least ${UTILISATION_NEAR_FULL}`,
    (m, ci) => `BEACON sample utilisation ${pct(m)} ${ciFmt(ci, pct)} (long)`,
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
  const identities = ENV_NAMES.flatMap((env) => [gammaOneIdentity(cells, env), utilisationIdentity(cells, env)]);
  const byId = (a: PendingClaim, b: PendingClaim) =>
    Number(a.record.id.slice(1)) - Number(b.record.id.slice(1)) || ENV_NAMES.indexOf(a.record.env as EnvName) - ENV_NAMES.indexOf(b.record.env as EnvName);
  return [...p.sort(byId).map((c) => c.record), ...m.sort(byId).map((c) => c.record), ...familyT(cells), ...identities];
}
