/**
 * The detector study (pre-registration amendment 2): its arms in the variants table, its place in the
 * full profile's matrix (the long horizon only, study v3's runs stored and skipped), the primary set's
 * flag, and its claims: untestable "no runs yet" on study v3's runs alone, which keep their claims byte
 * for byte now that the detector study's runs are in study.json, and judged by the rules once runs exist.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseStudyFlags } from '../../cli/study-flags.ts';
import { loadRunsFromStudy } from '../../cli/study-store.ts';
import { UsageError } from '../../cli/flags.ts';
import { CONFIG_FIELDS, DEFAULT_CONFIG } from '../../src/config.ts';
import { type CostRun, DetectorCostModel } from '../../src/study/detector-cost.ts';
import { evaluateConfirmatoryClaims } from '../../src/study/confirmatory-claims.ts';
import type { ClaimRecord } from '../../src/study/confirmatory-types.ts';
import { DETECTOR_PRIMARY, DETECTOR_SECONDARY, DETECTOR_VARIANTS, FALSE_ALARMS_HIGH, FALSE_ALARMS_LOW } from '../../src/study/detector-variants.ts';
import { buildMatrix, planRuns, runConfig, runKey, runSpec, seedList, variantInEnv } from '../../src/study/matrix.ts';
import { FULL_PROFILE, QUICK_PROFILE } from '../../src/study/profile.ts';
import type { StudyDocument } from '../../src/study/report.ts';
import { StudyCells } from '../../src/study/study-cells.ts';
import type { RunResult } from '../../src/study/summary.ts';
import { variantColor, variantLabel, variantSpec, type VariantName } from '../../src/study/variants.ts';
import { fakeRun, ITERS, STEPS_PER_ITERATION } from './synthetic-runs.ts';

const STUDY_DIR = new URL('../../docs/results/', import.meta.url).pathname;
const study = JSON.parse(readFileSync(`${STUDY_DIR}study.json`, 'utf8')) as StudyDocument;
const V3_FAMILIES = new Set(['P', 'M', 'T', 'I']);
const ARMS = new Set<string>(DETECTOR_VARIANTS.map((v) => v.name));
/** Study v3 inside the committed study.json: its runs (no detector arm) and its claims. */
const v3 = {
  runs: study.runs.filter((r) => !ARMS.has(r.variant)),
  claims: study.claims.filter((c) => V3_FAMILIES.has(c.family)),
  envStepBudgets: study.envStepBudgets,
};

describe('the detector study’s arms in the variants table', () => {
  it('each arm is its base variant plus exactly one detector or teacher setting, with a readable label and its own colour', () => {
    const byName = Object.fromEntries(DETECTOR_VARIANTS.map((d) => [d.name, d]));
    expect(variantSpec('beaconFalseAlarmsLow')).toMatchObject({ method: 'beacon', overrides: { milestoneFalseAlarms: FALSE_ALARMS_LOW }, ablation: null });
    expect(variantLabel('beaconFalseAlarmsHigh')).toBe('BEACON, 10% false alarms');
    expect(variantLabel('beaconFalseAlarmsLow')).toBe('BEACON, 2% false alarms');
    expect(variantSpec('beaconFalseAlarmsHigh').overrides).toEqual({ milestoneFalseAlarms: FALSE_ALARMS_HIGH });
    // The loose detector without the trajectory term is the noTrajectoryTerm ablation's override plus the loose detector.
    expect(variantSpec('beaconLooseNoTrajectory').overrides).toEqual({ looseMilestones: true, trajectoryTerm: false });
    expect(variantSpec('beaconDelay').overrides).toEqual({ milestoneDelay: 2 });
    expect(variantSpec('beaconStride').overrides).toEqual({ milestoneStride: 2 });
    expect(variantSpec('beaconFine').overrides).toEqual({ fineMilestones: true });
    expect(variantSpec('beaconReleasedLoose')).toMatchObject({
      method: 'beacon',
      overrides: { variant: 'released', gamma: 0.9, lambda: 10, looseMilestones: true },
    });
    expect(variantSpec('beaconReleasedWebshopFine').overrides).toMatchObject({ gamma: 0.95, lambda: 1, fineMilestones: true });
    expect(variantSpec('ppoShapedFalseAlarmsLow')).toMatchObject({ method: 'ppo', overrides: { shapedRewards: true, milestoneFalseAlarms: FALSE_ALARMS_LOW } });
    expect(variantSpec('sftDemo30')).toMatchObject({ method: 'sft', overrides: { demoNoise: 0.3 } });
    expect(variantLabel('grpoDemo10')).toBe('GRPO, teacher 10% random');
    // No loose-without-trajectory arm for the baselines.
    expect(byName.ppoShapedLooseNoTrajectory).toBeUndefined();
    expect(byName.beaconReleasedLooseNoTrajectory).toBeUndefined();
    // Every override is a setting of the config table, and every arm changes its base's config.
    const keys = new Set<string>(CONFIG_FIELDS.map((f) => f.key));
    for (const d of DETECTOR_VARIANTS) {
      for (const k of Object.keys(d.overrides)) expect(keys.has(k)).toBe(true);
      const base = runConfig(runSpec('gridhouse', 'long', d.base as VariantName, 101), FULL_PROFILE.budget);
      const arm = runConfig(runSpec('gridhouse', 'long', d.name, 101), FULL_PROFILE.budget);
      const changed = CONFIG_FIELDS.map((f) => f.key).filter((k) => arm[k] !== base[k]);
      expect(changed.length, d.name).toBeGreaterThan(0);
      expect(
        changed.every((k) => k === 'trajectoryTerm' || DEFAULT_CONFIG[k] !== arm[k]),
        d.name,
      ).toBe(true);
    }
    const labels = DETECTOR_VARIANTS.map((d) => variantLabel(d.name));
    expect(new Set(labels).size).toBe(labels.length);
    const colors = DETECTOR_VARIANTS.map((d) => variantColor(d.name));
    for (const c of colors) expect(c).toMatch(/^hsl\(\d+, 65%, \d+%\)$/);
  });

  it('splits into the pre-registered primary set (BEACON under 7 detector settings, the 30% teacher) and the secondary set', () => {
    expect(DETECTOR_PRIMARY).toEqual([
      'beaconFalseAlarmsLow',
      'beaconFalseAlarmsHigh',
      'beaconLoose',
      'beaconLooseNoTrajectory',
      'beaconDelay',
      'beaconStride',
      'beaconFine',
      'grpoDemo30',
      'beaconDemo30',
      'sftDemo30',
    ]);
    expect(DETECTOR_SECONDARY).toHaveLength(3 + 6 + 6);
    expect(new Set([...DETECTOR_PRIMARY, ...DETECTOR_SECONDARY]).size).toBe(25);
    // The released arms run each environment's released config: the WebShop config's on the shop.
    expect(variantInEnv('beaconReleasedDelay', 'shop')).toBe('beaconReleasedWebshopDelay');
    expect(variantInEnv('beaconReleasedDelay', 'gridhouse')).toBe('beaconReleasedDelay');
  });
});

describe('the detector study in the full profile', () => {
  const specs = buildMatrix(FULL_PROFILE, seedList(FULL_PROFILE, FULL_PROFILE.seeds));
  const detectorNames = new Set(DETECTOR_VARIANTS.map((d) => d.name as string));
  const isArm = (v: string) => detectorNames.has(v);

  it('adds each arm on the long horizon only, in all three environments, seeds 101–115', () => {
    const arms = specs.filter((s) => isArm(s.variant));
    expect(specs.length - arms.length).toBe(1215);
    expect(arms).toHaveLength(25 * 3 * 15);
    expect(arms.every((s) => s.horizon === 'long')).toBe(true);
    expect(new Set(arms.map((s) => s.env))).toEqual(new Set(['gridhouse', 'texthouse', 'shop']));
    expect(new Set(arms.map((s) => s.seed))).toEqual(new Set(seedList(FULL_PROFILE, 15)));
    expect(arms.filter((s) => s.env === 'shop' && s.variant.startsWith('beaconReleased')).every((s) => s.variant.startsWith('beaconReleasedWebshop'))).toBe(
      true,
    );
    expect(new Set(specs.map(runKey)).size).toBe(specs.length);
  });

  it('plans only the new runs when study v3’s runs are stored (docs/results/study.json counts as a store)', () => {
    const all = loadRunsFromStudy(STUDY_DIR);
    // study.json holds study v3 and the detector study: planned against it, nothing is left to train.
    expect(all.size).toBe(1215 + 25 * 3 * 15);
    expect(planRuns(specs, all, FULL_PROFILE.budget).todo).toHaveLength(0);
    // Against study v3's runs alone (as before the detector study), only the new arms train.
    const stored = new Map([...all].filter(([, run]) => !ARMS.has(run.result.variant)));
    expect(stored.size).toBe(1215);
    const { todo, done } = planRuns(specs, stored, FULL_PROFILE.budget);
    expect(done).toHaveLength(1215);
    expect(todo).toHaveLength(25 * 3 * 15);
    expect(todo.every((s) => isArm(s.variant))).toBe(true);
    // The primary set alone: its 10 arms × 3 environments × 15 seeds.
    const primary = parseStudyFlags(['--detector', 'primary'])?.profile;
    expect(primary?.detector).toEqual(DETECTOR_PRIMARY);
    const plan = planRuns(buildMatrix(primary!, seedList(FULL_PROFILE, 15)), stored, FULL_PROFILE.budget);
    expect(plan.todo).toHaveLength(10 * 3 * 15);
    expect(plan.done).toHaveLength(1215);
  });

  it('--detector is validated like the other flags; --quick keeps a few arms', () => {
    expect(parseStudyFlags(['--detector', 'none'])?.profile.detector).toEqual([]);
    expect(parseStudyFlags([])?.profile.detector).toEqual(FULL_PROFILE.detector);
    expect(() => parseStudyFlags(['--detector', 'secondary'])).toThrow(UsageError);
    expect(() => parseStudyFlags(['--detector', 'secondary'])).toThrow(/--detector/);
    expect(() => parseStudyFlags(['--detector', 'primary', '--shop-pilot'])).toThrow(/--detector/);
    const quick = parseStudyFlags(['--quick', '--detector', 'primary'])?.profile;
    expect(quick?.detector).toEqual(QUICK_PROFILE.detector.filter((v) => (DETECTOR_PRIMARY as readonly string[]).includes(v)));
    expect(QUICK_PROFILE.detector.length).toBeGreaterThan(0);
    expect(QUICK_PROFILE.detector.length).toBeLessThan(FULL_PROFILE.detector.length);
  });
});

const stripped = (claims: readonly ClaimRecord[]) => JSON.parse(JSON.stringify(claims, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v)));

describe('the detector study’s claims', () => {
  it('on study v3’s runs alone: the v3 claims are byte-identical, every D, S and E claim untestable "no runs yet"', () => {
    const cells = new StudyCells(v3.runs, v3.envStepBudgets);
    const claims = evaluateConfirmatoryClaims(cells);
    const old = claims.filter((c) => V3_FAMILIES.has(c.family));
    expect(JSON.stringify(stripped(old))).toBe(JSON.stringify(v3.claims));
    const added = claims.filter((c) => !V3_FAMILIES.has(c.family));
    // D1–D7, S1–S2, E1–E14, in each of the three environments.
    expect(added).toHaveLength((7 + 2 + 14) * 3);
    expect(new Set(added.map((c) => c.id))).toEqual(
      new Set([...[1, 2, 3, 4, 5, 6, 7].map((i) => `D${i}`), 'S1', 'S2', ...Array.from({ length: 14 }, (_, i) => `E${i + 1}`)]),
    );
    for (const c of added) {
      expect(c).toMatchObject({ held: null, untestable: 'no runs yet', effect: null, kind: 'empirical' });
      expect(c.rule).toMatch(/Holm within the family/);
    }
  }, 120_000);

  it('judges the rules once the arms ran: half the gain kept, loose with and without the trajectory term, fine agrees', () => {
    const runs: RunResult[] = [];
    const env = 'gridhouse';
    const seeds = seedList(FULL_PROFILE, 15);
    const levels: Partial<Record<VariantName, number>> = {
      grpo: 0.2,
      beacon: 0.6,
      beaconFalseAlarmsLow: 0.5, // keeps (0.3) more than half the gain (0.2): D1 holds
      beaconFalseAlarmsHigh: 0.3, // keeps 0.1 of 0.4: D2 does not hold
      beaconLoose: 0.4,
      beaconLooseNoTrajectory: 0.25,
      beaconDelay: 0.55,
      beaconStride: 0.21, // beats GRPO by less than the minimal effect: D6 does not hold
      beaconFine: 0.6,
      beaconDemo30: 0.5,
      sftDemo30: 0.3,
      grpoDemo30: 0.1,
    };
    for (const [variant, level] of Object.entries(levels))
      for (const seed of seeds) runs.push(fakeRun(env, 'long', variant as VariantName, seed, { level, rise: 5 }));
    const budget = ITERS * STEPS_PER_ITERATION;
    const claims = evaluateConfirmatoryClaims(new StudyCells(runs, { [env]: { long: budget } }));
    const at = (id: string) => claims.find((c) => c.id === id && c.env === env) as ClaimRecord;
    expect(at('D1').held).toBe(true);
    expect(at('D1').tests[0].comparison).toBe('(BEACON, 2% false alarms − GRPO) − 0.5 × (BEACON − GRPO)');
    expect(at('D1').effect).toBeCloseTo(0.5 - 0.2 - 0.5 * (0.6 - 0.2), 1);
    expect(at('D2').held).toBe(false);
    expect(at('D3').held).toBe(true);
    expect(at('D4').held).toBe(true);
    expect(at('D5').held).toBe(true);
    expect(at('D6').held).toBe(false);
    expect(at('D7').held).toBe(true);
    expect(at('S1').held).toBe(true);
    expect(at('S2').held).toBe(true);
    // The secondary arms did not run: untestable, not failed; the other environments have no runs at all.
    expect(at('E1')).toMatchObject({ held: null, untestable: 'no runs yet' });
    expect(claims.find((c) => c.id === 'D1' && c.env === 'shop')?.untestable).toBe('no runs yet');
    expect(claims.find((c) => c.id === 'P1' && c.env === 'shop')?.untestable).toBe('no shop runs');
    // Holm within family D: the adjusted p of each tested D claim counts the family's 21 planned tests.
    expect(at('D1').rule).toMatch(/family's 21 pre-registered tests/);
    expect(at('S1').rule).toMatch(/family's 6 pre-registered tests/);
  });
});

describe('the pre-registration’s amendment 2', () => {
  const text = readFileSync(`${STUDY_DIR}preregistration.md`, 'utf8');
  const blocks = [...text.matchAll(/```json preregistration( [a-z0-9-]+)?\n([\s\S]*?)```/g)].map((m) => ({
    name: (m[1] ?? '').trim(),
    json: JSON.parse(m[2]),
  }));

  it('is the last amendment (only dated errata follow it), with a machine-readable block that agrees with the code', () => {
    expect(blocks.map((b) => b.name)).toEqual(['', 'amendment-1', 'amendment-2']);
    const headings = [...text.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    const last = headings.map((h) => h.startsWith('Amendment')).lastIndexOf(true);
    expect(headings[last]).toBe('Amendment 2 (2026-12-02): the detector study');
    expect(headings.slice(last + 1).filter((h) => !/^Erratum \(\d{4}-\d{2}-\d{2}\)/.test(h))).toEqual([]);
    const a2 = blocks[2].json;
    expect(a2.arms.primary).toEqual(DETECTOR_PRIMARY);
    expect(a2.arms.secondary).toEqual(DETECTOR_SECONDARY);
    expect(a2.levels).toEqual({ milestoneFalseAlarms: [FALSE_ALARMS_LOW, FALSE_ALARMS_HIGH], milestoneDelay: 2, milestoneStride: 2, demoNoise: [0.1, 0.3] });
    expect(a2.seeds).toEqual([FULL_PROFILE.firstSeed, FULL_PROFILE.firstSeed + FULL_PROFILE.seeds - 1]);
    expect(a2.horizon).toBe(FULL_PROFILE.ablationHorizon);
    expect(a2.envs).toEqual(FULL_PROFILE.envs);
    // It sets no budget: the budgets stay v3's (matrix.test.ts merges every block's limitIterations).
    expect(a2.limitIterations).toBeUndefined();
    expect(a2.tests).toMatchObject({ alpha: 0.05, minimalEffect: { auc: 0.03 }, equivalenceMargin: { auc: 0.05 }, keepsHalfGain: 0.5 });
    // The claim ids of families D and S are the code's.
    const cells = new StudyCells([], {});
    const ids = (f: string) => [
      ...new Set(
        evaluateConfirmatoryClaims(cells)
          .filter((c) => c.family === f)
          .map((c) => c.id),
      ),
    ];
    expect(a2.tests.multiplicity.families.D).toEqual(ids('D'));
    expect(a2.tests.multiplicity.families.S).toEqual(ids('S'));
    expect(ids('E')).toHaveLength(14);
  });

  it('states the cost the cost model gives on study v3’s runs', () => {
    const model = new DetectorCostModel(v3.runs);
    const specsOf = (arms: readonly VariantName[]) =>
      buildMatrix({ ...FULL_PROFILE, variants: [], ablations: [], detector: arms }, seedList(FULL_PROFILE, FULL_PROFILE.seeds));
    const a2 = blocks[2].json;
    for (const [set, arms] of [
      ['primary', DETECTOR_PRIMARY],
      ['secondary', DETECTOR_SECONDARY],
    ] as const) {
      const e = model.estimate(specsOf(arms), 2);
      expect(e.runs).toBe(a2.cost[set].runs);
      expect(Number((e.asMeasured / 60).toFixed(1))).toBe(a2.cost[set].workerMinutes.asMeasured);
      expect(Number((e.priorApart / 60).toFixed(1))).toBe(a2.cost[set].workerMinutes.priorApart);
    }
    // The primary set fits 90 minutes on 2 workers with its prior counted once per worker.
    expect(model.estimate(specsOf(DETECTOR_PRIMARY), 2).priorApart / 2 / 60).toBeLessThan(90);
  });
});

describe('the detector study’s cost, from study v3’s own seconds', () => {
  const run = (env: 'gridhouse' | 'shop', variant: string, seed: number, seconds: number, loop: number): CostRun => ({
    env,
    horizon: 'long',
    variant: variant as VariantName,
    seed,
    seconds,
    secondsPerIteration: loop / 10,
    iterations: 10,
  });
  const model = new DetectorCostModel(
    [
      // The first run of a seed paid its SFT prior (30 s); the others found it memoised.
      run('shop', 'beacon', 1, 45, 15),
      run('shop', 'beacon', 2, 17, 15),
      run('shop', 'grpo', 1, 14, 14),
      run('shop', 'grpo', 2, 44, 14),
      run('shop', 'sft', 1, 40, 40),
      run('shop', 'sft', 2, 40, 40),
      run('gridhouse', 'beacon', 1, 12, 12),
      run('shop', 'beacon', 3, 999, 999), // another horizon's run is not read
    ].map((r, i) => (i === 7 ? { ...r, horizon: 'short' as const } : r)),
  );

  it('reads an arm’s run from its base variant’s runs in the same environment, and the prior apart', () => {
    expect(model.runSeconds('shop', 'beaconFalseAlarmsHigh')).toBe(31);
    expect(model.loopSeconds('shop', 'beaconLoose')).toBe(15);
    expect(model.runSeconds('shop', 'sftDemo30')).toBe(40);
    // Seed 1: 45 − 15 = 30 s outside the loop; seed 2: 44 − 14 = 30 s.
    expect(model.priorSeconds('shop')).toBe(30);
    expect(() => model.runSeconds('gridhouse', 'grpoDemo30')).toThrow(/no long runs of grpo in gridhouse/);
  });

  it('counts each prior (environment, seed, teacher) once per worker, and every run at its base’s mean', () => {
    const specs = [
      { env: 'shop' as const, variant: 'beaconLoose' as VariantName, seed: 1 },
      { env: 'shop' as const, variant: 'beaconFine' as VariantName, seed: 1 },
      { env: 'shop' as const, variant: 'beaconDemo30' as VariantName, seed: 1 },
    ];
    const e = model.estimate(specs, 2);
    expect(e.runs).toBe(3);
    expect(e.asMeasured).toBe(3 * 31);
    // Loops 3 × 15, two priors (exact teacher, 30% teacher) × 2 workers × 30 s.
    expect(e.priorApart).toBe(45 + 2 * 2 * 30);
    expect(model.estimate(specs.slice(0, 1), 2).priorApart).toBe(15 + 30);
  });
});
