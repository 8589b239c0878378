/**
 * The nine paper claims the study tests (docs/results/README.md), each judged by code from the runs, per
 * environment.
 *
 * A claim holds when it holds in every environment of the study. Each rule is written next to its
 * claim (`rule`), goes into study.json and the README, and is fixed before the results are seen; no
 * rule looks at which method it favours. Claims other than 2 are judged on the ablation horizon (long),
 * the paper's regime; `details` keeps the per-environment figures the README tabulates.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import type { Variant } from './matrix.ts';
import { meanSd, medianIters, selectRuns, type MeanSd, type RunResult } from './summary.ts';

export interface ClaimResult {
  id: number;
  claim: string;
  /** The paper's figure. */
  paper: string;
  /** Our figure, all environments in one line. */
  ours: string;
  /** null only when the study has no runs for the claim (a partial matrix). */
  held: boolean | null;
  /** One line: why it held or not. */
  note: string;
  /** How `held` is decided. */
  rule: string;
  /** Per-environment figures, for the README's tables. */
  details: Record<string, unknown>[];
}

export interface ClaimOptions {
  /** Horizon on which claims other than 2 are judged. */
  horizon: Horizon;
  /** Relative gains divide by max(GRPO success, this) so that a GRPO score near 0 does not blow up. */
  gainFloor: number;
  /** Two curves are "the same" when no point differs by more than this. */
  curveTolerance: number;
  /** The smallest difference in final success that counts as a gain (absolute, 0…1). */
  minGain: number;
}

export const DEFAULT_CLAIM_OPTIONS: ClaimOptions = { horizon: 'long', gainFloor: 0.05, curveTolerance: 1e-9, minGain: 0.05 };

type Runs = readonly RunResult[];

const pct = (x: number | null | undefined, digits = 0) => (x === null || x === undefined ? 'n/a' : `${(100 * x).toFixed(digits)}%`);
const fmt = (s: MeanSd) => (s.mean === null ? 'n/a' : `${pct(s.mean)} ± ${pct(s.sd)}`);
const signedPct = (x: number | null) => (x === null ? 'n/a' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(0)}%`);

function envsOf(runs: Runs): EnvName[] {
  return [...new Set(runs.map((r) => r.env))].sort();
}

function stat(runs: Runs, env: EnvName, horizon: Horizon, variant: Variant, field: keyof RunResult = 'finalSuccess'): MeanSd {
  return meanSd(selectRuns(runs, { env, horizon, variant }).map((r) => r[field] as number | null));
}

/** Welch standard error of the difference of two means. */
function seDiff(a: MeanSd, b: MeanSd): number {
  const part = (s: MeanSd) => (s.n > 0 && s.sd !== null ? s.sd ** 2 / s.n : 0);
  return Math.sqrt(part(a) + part(b));
}

/** a clearly above b: the difference of means is at least `minGain` and at least two standard errors. */
function clearlyAbove(a: MeanSd, b: MeanSd, minGain: number): boolean {
  if (a.mean === null || b.mean === null) return false;
  const diff = a.mean - b.mean;
  return diff >= minGain && diff >= 2 * seDiff(a, b);
}

function relativeGain(beacon: MeanSd, grpo: MeanSd, floor: number): number | null {
  if (beacon.mean === null || grpo.mean === null) return null;
  return (beacon.mean - grpo.mean) / Math.max(grpo.mean, floor);
}

const itersText = (m: number | null) => (m === null ? 'n/a' : Number.isFinite(m) ? String(m) : 'never');

/** Folds per-environment verdicts into one: null if any environment lacks runs. */
function allHeld(verdicts: (boolean | null)[]): boolean | null {
  if (verdicts.length === 0 || verdicts.some((v) => v === null)) return null;
  return verdicts.every(Boolean);
}

function hasRuns(runs: Runs, env: EnvName, horizon: Horizon, variant: Variant): boolean {
  return selectRuns(runs, { env, horizon, variant }).length > 0;
}

function missing(...groups: MeanSd[]): boolean {
  return groups.some((g) => g.n === 0);
}

function claim(id: number, claimText: string, paper: string, rule: string, perEnv: { env: EnvName; held: boolean | null; ours: string; details: Record<string, unknown> }[], notes: { held: string; failed: string }): ClaimResult {
  const held = allHeld(perEnv.map((e) => e.held));
  const failedEnvs = perEnv.filter((e) => e.held === false).map((e) => e.env);
  const note = held === null ? 'not measured: the study has no runs for it' : held ? notes.held : `${notes.failed} (${failedEnvs.join(', ')})`;
  return {
    id,
    claim: claimText,
    paper,
    ours: perEnv.map((e) => `${e.env}: ${e.ours}`).join('; '),
    held,
    note,
    rule,
    details: perEnv.map((e) => ({ env: e.env, held: e.held, ours: e.ours, ...e.details })),
  };
}

export function evaluateClaims(runs: Runs, options: ClaimOptions = DEFAULT_CLAIM_OPTIONS): ClaimResult[] {
  const H = options.horizon;
  const envs = envsOf(runs);
  const horizons = (['tiny', 'short', 'medium', 'long'] as const).filter((h) => runs.some((r) => r.horizon === h));

  const c1 = claim(1, 'BEACON beats GRPO on long tasks at the budget.', 'ALFWorld long tasks: BEACON 92.9% vs GRPO 53.5%',
    `final success on ${H}: BEACON's mean above GRPO's by at least ${options.minGain * 100} points and at least 2 standard errors (Welch), in every environment`,
    envs.map((env) => {
      const b = stat(runs, env, H, 'beacon');
      const g = stat(runs, env, H, 'grpo');
      return { env, held: missing(b, g) ? null : clearlyAbove(b, g, options.minGain), ours: `BEACON ${fmt(b)} vs GRPO ${fmt(g)}`, details: { beacon: b, grpo: g, se: seDiff(b, g) } };
    }),
    { held: 'BEACON is clearly ahead on the long horizon', failed: 'BEACON is not clearly ahead of GRPO on the long horizon' });

  const c2 = claim(2, 'The relative gain over GRPO grows from short to long horizons.', 'Qwen 7B: +13% (short) → +39% (long); GiGPO +11% → +22%',
    `relative gain (BEACON − GRPO) / max(GRPO, ${options.gainFloor}) of mean final success: larger on long than on short, and positive on long, in every environment`,
    envs.map((env) => {
      const gains = Object.fromEntries(horizons.map((h) => [h, relativeGain(stat(runs, env, h, 'beacon'), stat(runs, env, h, 'grpo'), options.gainFloor)]));
      const short = gains.short ?? null;
      const long = gains.long ?? null;
      return {
        env,
        held: short === null || long === null ? null : long > short && long > 0,
        ours: horizons.map((h) => `${h} ${signedPct(gains[h])}`).join(' → '),
        details: { relativeGain: gains },
      };
    }),
    { held: 'the gain grows with the horizon', failed: 'the gain does not grow from short to long' });

  const c3 = claim(3, 'BEACON reaches 60% success in fewer iterations.', 'ALFWorld: BEACON 50 vs GRPO 120 iterations',
    `median iterations to 60% success on ${H} (a run that never gets there counts as never): BEACON's median below GRPO's, in every environment`,
    envs.map((env) => {
      const it = (v: Variant) => selectRuns(runs, { env, horizon: H, variant: v }).map((r) => r.itersTo60);
      const b = it('beacon');
      const g = it('grpo');
      const mb = medianIters(b);
      const mg = medianIters(g);
      const reached = (xs: (number | null)[]) => `${xs.filter((x) => x !== null).length}/${xs.length}`;
      return {
        env,
        held: mb === null || mg === null ? null : Number.isFinite(mb) && mb < mg,
        ours: `BEACON ${itersText(mb)} (${reached(b)} runs reached) vs GRPO ${itersText(mg)} (${reached(g)})`,
        details: { beaconMedian: Number.isFinite(mb ?? NaN) ? mb : null, grpoMedian: Number.isFinite(mg ?? NaN) ? mg : null, beacon: b, grpo: g },
      };
    }),
    { held: 'BEACON gets to 60% sooner', failed: 'BEACON does not get to 60% sooner' });

  const c4 = claim(4, 'Sample utilisation is higher and the zero-advantage ratio lower under BEACON.', 'utilisation 23.7% → 82.0%; zero-advantage ≈ 55% → ≈ 10%',
    `run means on ${H}: BEACON's mean utilisation above GRPO's and its mean zero-advantage ratio below GRPO's, in every environment`,
    envs.map((env) => {
      const ub = stat(runs, env, H, 'beacon', 'sampleUtilization');
      const ug = stat(runs, env, H, 'grpo', 'sampleUtilization');
      const zb = stat(runs, env, H, 'beacon', 'zeroAdvantageRatio');
      const zg = stat(runs, env, H, 'grpo', 'zeroAdvantageRatio');
      const ok = missing(ub, ug, zb, zg) ? null : ub.mean! > ug.mean! && zb.mean! < zg.mean!;
      return { env, held: ok, ours: `utilisation ${pct(ug.mean)} → ${pct(ub.mean)}; zero-advantage ${pct(zg.mean)} → ${pct(zb.mean)}`, details: { utilisation: { grpo: ug, beacon: ub }, zeroAdvantage: { grpo: zg, beacon: zb } } };
    }),
    { held: 'BEACON uses more samples and leaves fewer steps without signal', failed: 'not both better under BEACON' });

  const c5 = claim(5, 'γ = 1 reproduces GRPO (same seed ⇒ same curve).', 'γ = 1: 71.8% vs GRPO 72.8% (noise)',
    `for every seed on ${H}, the gamma1 run's success, partial-success and episode-length curves equal the GRPO run's (|Δ| ≤ ${options.curveTolerance}), in every environment`,
    envs.map((env) => {
      const pairs = selectRuns(runs, { env, horizon: H, variant: 'gamma1' }).flatMap((a) => {
        const g = selectRuns(runs, { env, horizon: H, variant: 'grpo', seed: a.seed })[0];
        return g ? [[a, g] as const] : [];
      });
      let maxDiff = 0;
      let identical = 0;
      for (const [a, g] of pairs) {
        let d = a.curves.success.length === g.curves.success.length ? 0 : Infinity;
        for (const name of ['success', 'partial', 'meanEpisodeLength'] as const) {
          const len = Math.min(a.curves[name].length, g.curves[name].length);
          for (let i = 0; i < len; i++) d = Math.max(d, Math.abs((a.curves[name][i] ?? NaN) - (g.curves[name][i] ?? NaN)) || 0);
        }
        maxDiff = Math.max(maxDiff, d);
        if (d <= options.curveTolerance) identical++;
      }
      const a = stat(runs, env, H, 'gamma1');
      const g = stat(runs, env, H, 'grpo');
      return {
        env,
        held: pairs.length === 0 ? null : identical === pairs.length,
        ours: `${identical}/${pairs.length} seeds identical (max |Δ| ${maxDiff === Infinity ? 'length differs' : maxDiff.toPrecision(2)}); final ${fmt(a)} vs GRPO ${fmt(g)}`,
        details: { pairs: pairs.length, identical, maxDiff: Number.isFinite(maxDiff) ? maxDiff : null, gamma1: a, grpo: g },
      };
    }),
    { held: 'γ = 1 gives GRPO’s curve exactly, seed for seed', failed: 'a γ = 1 curve differs from GRPO’s with the same seed' });

  const ablationVsGain = (variant: Variant) => (env: EnvName) => {
    const b = stat(runs, env, H, 'beacon');
    const g = stat(runs, env, H, 'grpo');
    const v = stat(runs, env, H, variant);
    const gain = b.mean !== null && g.mean !== null ? b.mean - g.mean : null;
    const vGain = v.mean !== null && g.mean !== null ? v.mean - g.mean : null;
    return { b, g, v, gain, vGain, beats: clearlyAbove(b, g, options.minGain) };
  };

  const c6 = claim(6, 'Random segmentation gains little over GRPO; real milestones gain much more.', 'random 74.2% vs GRPO 72.8% vs BEACON 91.4%',
    `final success on ${H}: BEACON clearly above GRPO (as in claim 1), and random segmentation's gain over GRPO at most half of BEACON's, in every environment`,
    envs.map((env) => {
      const { b, g, v, gain, vGain, beats } = ablationVsGain('randomSegments')(env);
      return {
        env,
        held: gain === null || vGain === null ? null : beats && vGain <= gain / 2,
        ours: `random ${fmt(v)} vs GRPO ${fmt(g)} vs BEACON ${fmt(b)}`,
        details: { randomSegments: v, grpo: g, beacon: b, gainBeacon: gain, gainRandom: vGain },
      };
    }),
    { held: 'real milestones carry the gain, random boundaries do not', failed: 'random segmentation gains as much as real milestones, or BEACON gains nothing' });

  const c7 = claim(7, 'Dropping half of the milestones degrades gracefully (stays well above GRPO).', 'dropout p = 0.5: 82.8% vs GRPO 72.8%, full BEACON 91.4%',
    `final success on ${H}: BEACON clearly above GRPO (as in claim 1), and milestone dropout (p = 0.5) keeps at least half of BEACON's gain over GRPO, in every environment`,
    envs.map((env) => {
      const { b, g, v, gain, vGain, beats } = ablationVsGain('milestoneDropout')(env);
      return {
        env,
        held: gain === null || vGain === null ? null : beats && vGain >= gain / 2,
        ours: `dropout ${fmt(v)} vs GRPO ${fmt(g)} vs BEACON ${fmt(b)}`,
        details: { milestoneDropout: v, grpo: g, beacon: b, gainBeacon: gain, gainDropout: vGain },
      };
    }),
    { held: 'half the milestones keep most of the gain', failed: 'dropout loses more than half of the gain, or BEACON gains nothing' });

  const c8 = claim(8, 'Removing the trajectory term collapses performance.', 'ALFWorld: 23.4% without it vs 91.4% full (WebShop keeps 67.9%)',
    `final success on ${H}: full BEACON reaches at least 20%, and BEACON without the trajectory term scores at most half of full BEACON, in every environment`,
    envs.map((env) => {
      const b = stat(runs, env, H, 'beacon');
      const n = stat(runs, env, H, 'noTrajectoryTerm');
      const g = stat(runs, env, H, 'grpo');
      return {
        env,
        held: missing(b, n) ? null : b.mean! >= 0.2 && n.mean! <= b.mean! / 2,
        ours: `no trajectory term ${fmt(n)} vs BEACON ${fmt(b)} (GRPO ${fmt(g)})`,
        details: { noTrajectoryTerm: n, beacon: b, grpo: g },
      };
    }),
    { held: 'the segment term alone does not train the policy', failed: 'the segment term alone keeps most of the performance' });

  const c9 = claim(9, 'GRPO’s contradictory action ratio is high and BEACON’s signal retention is higher.', 'GRPO contradictory ratio above 40% at its peak; its effective signal below 20%',
    `on ${H}: GRPO's contradictory-ratio peak (largest 5-iteration moving average, mean over runs) ≥ 40%, and BEACON's mean signal retention above GRPO's, in every environment`,
    envs.map((env) => {
      const peak = stat(runs, env, H, 'grpo', 'contradictoryPeak');
      const rb = stat(runs, env, H, 'beacon', 'signalRetention');
      const rg = stat(runs, env, H, 'grpo', 'signalRetention');
      return {
        env,
        // No runs: not measured. Runs whose figure is undefined throughout (no repeated state keys): failed.
        held: !hasRuns(runs, env, H, 'grpo') || !hasRuns(runs, env, H, 'beacon') ? null
          : peak.mean !== null && rb.mean !== null && rg.mean !== null && peak.mean >= 0.4 && rb.mean > rg.mean,
        ours: `GRPO contradictory peak ${pct(peak.mean)}; signal retention GRPO ${pct(rg.mean)} vs BEACON ${pct(rb.mean)}`,
        details: { grpoContradictoryPeak: peak, retention: { grpo: rg, beacon: rb } },
      };
    }),
    { held: 'GRPO’s credit contradicts itself and BEACON keeps more of the signal', failed: 'GRPO’s peak is below 40% or BEACON keeps no more signal' });

  return [c1, c2, c3, c4, c5, c6, c7, c8, c9];
}
