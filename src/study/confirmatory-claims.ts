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
import { aucDiff, cellMean, combineBySeed, mean, missing, pairByIndex } from './claim-cells.ts';
import { baseRecord, f2, M_TEXT, P_TEXT, signed } from './claim-texts.ts';
import {
  adjustFamily,
  contrastClaim,
  MARGIN_AUC,
  MIN_EFFECT_AUC,
  pairCountProblem,
  type PendingClaim,
  pendingTest,
  ruleText,
  singleComparison,
  untestable,
} from './claim-tests.ts';
import type { ClaimRecord } from './confirmatory-types.ts';
import { familyI, familyT } from './descriptive-claims.ts';
import { evaluateDetectorClaims } from './detector-claims.ts';
import { HORIZON_ORDER } from './matrix.ts';
import type { StudyCells } from './study-cells.ts';
import { releasedVariantFor, type VariantName } from './variants.ts';

export { ALPHA, MARGIN_AUC, MIN_EFFECT_AUC, STEPS_SHARE } from './claim-tests.ts';
const LONG: Horizon = 'long';
const SHORT: Horizon = 'short';
const HOUSEHOLD_ENVS = ENV_NAMES.filter((e) => e !== 'shop');

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
 * and M with Holm within each, family T descriptive, identities I1 and I2; then amendment 2's families D,
 * S and E (detector-claims.ts).
 */
export function evaluateConfirmatoryClaims(cells: StudyCells): ClaimRecord[] {
  const p = familyP(cells);
  const m = familyM(cells);
  adjustFamily(p);
  adjustFamily(m);
  const identities = familyI(cells);
  const byId = (a: PendingClaim, b: PendingClaim) =>
    Number(a.record.id.slice(1)) - Number(b.record.id.slice(1)) || ENV_NAMES.indexOf(a.record.env as EnvName) - ENV_NAMES.indexOf(b.record.env as EnvName);
  // The detector study's families (amendment 2) come last, so study v3's records stay as they were.
  return [...p.sort(byId).map((c) => c.record), ...m.sort(byId).map((c) => c.record), ...familyT(cells), ...identities, ...evaluateDetectorClaims(cells)];
}
