/**
 * Study v3's descriptive claims (docs/results/preregistration.md, definitions in docs/maths.md §11):
 * family T, the paper's thresholds, shown with a bootstrap interval and no test; and the identities of
 * family I, checked, never counted as held claims. A claim whose cells did not run is untestable with
 * the reason. The tested families P and M are in confirmatory-claims.ts.
 */
import { ENV_NAMES, type EnvName, type Horizon } from '../../envs/index.ts';
import { bootstrapMeanCI } from './confirmatory-stats.ts';
import type { ClaimRecord, PairedTestRecord } from './confirmatory-types.ts';
import { mean, missing, perSeed } from './claim-cells.ts';
import { baseRecord, ciFmt, type ClaimText, f2, I_TEXT, pct, signed, T_TEXT } from './claim-texts.ts';
import type { EndpointRun, StudyCells } from './study-cells.ts';

/** I1: γ = 1 must reproduce GRPO's curves within this. */
export const IDENTITY_TOLERANCE = 1e-9;
/** I2: BEACON's utilisation on advantages counts as near 100% from this. */
export const UTILISATION_NEAR_FULL = 0.95;
const LONG: Horizon = 'long';

// ——— Family T: the paper's thresholds, descriptive ———

/**
 * A descriptive claim: the mean over seeds of `values` with its bootstrap interval, held when `held`
 * says so of the mean; untestable with `why`, or with fewer than 2 finite values.
 */
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

/** Family T per environment: T1 signal retention, T2 contradictory peak, T3 CCR, T4 outcome mix (long tasks). */
export function familyT(cells: StudyCells): ClaimRecord[] {
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

/** Family I per environment: I1 γ = 1 reproduces GRPO, I2 BEACON's utilisation (long tasks). */
export function familyI(cells: StudyCells): ClaimRecord[] {
  return ENV_NAMES.flatMap((env) => [gammaOneIdentity(cells, env), utilisationIdentity(cells, env)]);
}

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
