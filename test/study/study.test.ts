/**
 * The study's aggregation and its document without real training: mean ± sd, curves on env steps,
 * iterations to the target, a run's summary; the document built from synthetic runs, its shards and
 * their merge, the pre-registration reference and the README generator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadShards, mergeShards, saveShard, ShardMergeError, type ShardFile } from '../../cli/study-store.ts';
import { studyFigures } from '../../src/study/charts.ts';
import { buildMatrix, runKey, shardRuns, stepBudget } from '../../src/study/matrix.ts';
import { FULL_PROFILE, QUICK_PROFILE, type StudyProfile } from '../../src/study/profile.ts';
import { buildStudyDocument, studyJson, type StudyDocument } from '../../src/study/report.ts';
import { renderReadme } from '../../src/study/readme.ts';
import {
  aggregateOnSteps,
  curveOnSteps,
  finalSuccess,
  itersToTarget,
  meanSd,
  medianIters,
  peakMovingAverage,
  type RunResult,
} from '../../src/study/summary.ts';
import { variantLabel } from '../../src/study/variants.ts';
import { build, COMPARED, fakeRun, ITERS, PAPER, STEPS_PER_ITERATION } from './synthetic-runs.ts';

describe('aggregation', () => {
  it('mean ± sample sd, ignoring undefined values', () => {
    const s = meanSd([1, 2, 3, 4, null, NaN]);
    expect(s.n).toBe(4);
    expect(s.mean).toBeCloseTo(2.5, 12);
    expect(s.sd).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(meanSd([0.7])).toEqual({ mean: 0.7, sd: 0, n: 1 });
    expect(meanSd([null])).toEqual({ mean: null, sd: null, n: 0 });
  });

  it('finalSuccess, itersTo60, medians and the contradictory peak', () => {
    expect(finalSuccess([...Array(20).fill(0), ...Array(10).fill(0.5)])).toBe(0.5);
    expect(itersToTarget([0, 0, 0, 0, 0, 1, 1, 1])).toBe(8);
    expect(itersToTarget([1, 1, 1, 1])).toBeNull();
    expect(medianIters([12, null, 30])).toBe(30);
    expect(medianIters([])).toBeNull();
    expect(peakMovingAverage([0.5, null, 0.5, 0, 0, 0])).toBe(0.25);
  });

  it('summarises a run: figures, env steps, cost and the start', () => {
    const r = fakeRun('gridhouse', 'long', 'ppo', 1, { level: 0.9, util: 0.8, contradictory: 0.4, critic: 30 });
    expect(r.key).toBe('gridhouse-long-ppo-s1');
    expect(r).toMatchObject({
      method: 'ppo',
      variant: 'ppo',
      ablation: null,
      iterations: ITERS,
      envSteps: ITERS * STEPS_PER_ITERATION,
      envStepBudget: ITERS * STEPS_PER_ITERATION,
      itersTo60: 9,
      stepsTo60: 900,
      start: { success: 0.05 },
    });
    expect(r.finalSuccess).toBeCloseTo(0.9, 12);
    expect(r.contradictoryRatio).toBeCloseTo((9 * 0.4 + 20 * 0.2) / 29, 12);
    expect(r.cost).toEqual({ rollout: 300, advantage: 30, update: 300, critic: 900 });
    expect(r.learnMsPerKiloStep).toBeCloseTo(((1 + 10 + 30) / 100) * 1000, 9);
    expect(r.curves.envSteps.slice(0, 3)).toEqual([100, 200, 300]);
  });

  it('puts curves on an env-step grid: the iteration that took each step', () => {
    const run = { curves: { envSteps: [100, 250, 300], success: [0.1, 0.5, 0.9] } } as unknown as RunResult;
    expect(curveOnSteps(run, 'success', [50, 100, 101, 250, 300, 301])).toEqual([0.1, 0.1, 0.5, 0.5, 0.9, null]);
    const other = { curves: { envSteps: [200, 400], success: [0.3, 0.7] } } as unknown as RunResult;
    const agg = aggregateOnSteps([run, other], 'success', [100, 400]);
    expect(agg.mean[0]).toBeCloseTo(0.2, 12);
    expect(agg.mean[1]).toBeCloseTo(0.7, 12);
    expect(agg.n).toEqual([2, 1]);
  });
});

// ---------- documents, shards and README ----------

const MINI: StudyProfile = {
  ...QUICK_PROFILE,
  envs: ['gridhouse', 'texthouse'],
  horizons: ['short', 'medium', 'long'],
  variants: COMPARED,
  ablations: FULL_PROFILE.ablations,
  // The synthetic matrix is study v3's; the detector study's arms are test/study/detector-study.test.ts's.
  detector: [],
};

function miniResults(): Map<string, RunResult> {
  return new Map(build(PAPER, 5).map((r) => [r.key, r]));
}

const meta = (profile: StudyProfile, over: Partial<Parameters<typeof buildStudyDocument>[2]> = {}) => ({
  profile,
  seeds: 5,
  command: 'npm run study',
  commit: 'c'.repeat(40),
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:50:00.000Z',
  wallSeconds: 3000,
  workers: 2,
  shards: 1,
  preregistration: null,
  ...over,
});

describe('study document, shards and merge', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Building a document bootstraps every cell and claim (10,000 resamples each): seconds on an idle
  // machine, minutes on a loaded one.
  it('merging the shards of a study reproduces the unsharded document', { timeout: 600_000 }, () => {
    const specs = buildMatrix(MINI, [1, 2, 3, 4, 5]).filter((s) => s.variant !== 'beaconReleasedWebshop');
    const profile = { ...MINI, ablations: MINI.ablations.filter((v) => v !== 'beaconReleasedWebshop') };
    const results = miniResults();
    expect(specs.every((s) => results.has(runKey(s)))).toBe(true);
    const whole = buildStudyDocument(specs, results, meta(profile));
    dir = mkdtempSync(join(tmpdir(), 'study-shards-'));
    const n = 3;
    for (let i = 1; i <= n; i++) {
      const mine = shardRuns(specs, { index: i, count: n }, (s) => stepBudget(s, profile.budget));
      const shard: ShardFile = {
        profile: profile.name,
        seeds: 5,
        shard: { index: i, count: n },
        budget: profile.budget,
        keys: mine.map(runKey),
        runs: mine.map((s) => results.get(runKey(s))!),
        command: 'x',
        startedAt: `2026-01-0${i}T00:00:00.000Z`,
        finishedAt: `2026-01-0${i}T01:00:00.000Z`,
        wallSeconds: 100 * i,
        workers: 1,
      };
      saveShard(dir, shard);
    }
    const shards = loadShards(dir);
    expect(shards).toHaveLength(n);
    const merged = mergeShards(shards, { profile: profile.name, seeds: 5, budget: profile.budget, keys: specs.map(runKey) });
    const doc = buildStudyDocument(
      specs,
      merged,
      meta(profile, { startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-03T01:00:00.000Z', wallSeconds: 300, workers: 3, shards: 3 }),
    );
    const strip = (d: StudyDocument) => ({ ...d, startedAt: '', finishedAt: '', wallSeconds: 0, workers: 0, shards: 0 });
    expect(studyJson(strip(doc))).toBe(studyJson(strip(whole)));
    expect(doc.runs.map((r) => r.key)).toEqual(specs.map(runKey));
    expect(doc.version).toBe(3);
    // Every run records its endpoints beside its curves; every cell is summarised.
    for (const r of doc.runs) expect(r.auc).toBeGreaterThanOrEqual(0);
    expect(doc.cells).toHaveLength(new Set(specs.map((s) => `${s.env}|${s.horizon}|${s.variant}`)).size);
    // The mini profile has no shop: its claims say so instead of failing.
    const shop = doc.claims.filter((c) => c.env === 'shop');
    expect(shop.length).toBeGreaterThan(0);
    expect(shop.every((c) => c.held === null && typeof c.untestable === 'string')).toBe(true);
  });

  it('merge refuses a missing, repeated or foreign shard', () => {
    const specs = buildMatrix(MINI, [1, 2, 3, 4, 5]);
    const results = miniResults();
    const part = (i: number, n: number): ShardFile => {
      const mine = shardRuns(specs, { index: i, count: n }, () => 1);
      return {
        profile: MINI.name,
        seeds: 5,
        shard: { index: i, count: n },
        budget: MINI.budget,
        keys: mine.map(runKey),
        runs: mine.map((s) => results.get(runKey(s))).filter((r): r is RunResult => !!r),
        command: 'x',
        startedAt: '',
        finishedAt: '',
        wallSeconds: 1,
        workers: 1,
      };
    };
    const expected = { profile: MINI.name, seeds: 5, budget: MINI.budget, keys: specs.map(runKey) };
    expect(() => mergeShards([part(1, 2)], expected)).toThrow(ShardMergeError);
    expect(() => mergeShards([part(1, 2)], expected)).toThrow(/shard 2\/2: missing/);
    expect(() => mergeShards([part(1, 2), part(1, 2), part(2, 2)], expected)).toThrow(/shard 1\/2: 2 files[\s\S]*in more than one shard/);
    expect(() => mergeShards([part(1, 2), { ...part(2, 2), seeds: 3 }], expected)).toThrow(/expected quick with 5/);
    expect(() => mergeShards([], expected)).toThrow(/no shard files/);
  });

  it('the README has every claim with its numbers, the cell tables, the paper-vs-ours table, the cost table and the analysis', { timeout: 600_000 }, () => {
    const specs = buildMatrix(MINI, [1, 2, 3, 4, 5]);
    const preregistration = {
      path: 'docs/results/preregistration.md',
      commit: 'a'.repeat(40),
      amendments: [{ title: 'Amendment 1', commit: 'b'.repeat(40), runsAfterIt: 7 }],
      runsAfter: true,
    };
    const doc = buildStudyDocument(specs, miniResults(), meta(MINI, { preregistration }));
    const md = renderReadme({
      study: doc,
      figures: studyFigures(doc.runs, { gainFloor: 0.05, ablationHorizon: 'long' }),
      analysis: 'Because of X.',
      budgetNotes: ['measured 1 s/it'],
      dir: 'docs/results',
    });
    expect(md).toContain(`Commit: \`${'c'.repeat(40)}\` (a clean working tree)`);
    expect(md).toContain(`committed at \`${'a'.repeat(40)}\`; amendments: Amendment 1 (\`bbbbbbbbbbbb\`, 7 of ${doc.runs.length} runs after it)`);
    expect(md).toContain('comes after the pre-registration: **yes**');
    expect(md).toContain('- Pre-registration: [preregistration.md](preregistration.md), committed');
    const empirical = doc.claims.filter((c) => c.kind === 'empirical');
    const n = (h: boolean | null) => empirical.filter((c) => c.held === h).length;
    expect(md).toContain(`Empirical claims: ${n(true)} held, ${n(false)} not held, ${n(null)} untestable (of ${empirical.length} records`);
    for (const c of empirical)
      expect(md).toContain(
        `| ${c.id} | ${[c.env, c.horizon].filter((x) => x !== null).join(' ') || 'all'} | ${c.claim.replace(/\|/g, '\\|')} | ${c.endpoint} |`,
      );
    expect(md).toContain('## Identities (checked, not counted as claims)');
    expect(md).toContain('## gridhouse: every cell');
    expect(md).toMatch(/\| long \| BEACON \| 5 \| [\d.]+ \[[\d.]+, [\d.]+\] \|/);
    expect(md).toContain('## Paper vs ours');
    expect(md).toMatch(/\| BEACON \| 91\.4 \| 92\.9 \| [\d.]+ ± [\d.]+ \|/);
    for (const v of COMPARED) expect(md).toContain(`| ${variantLabel(v)} |`);
    expect(md).toContain('## Cost per method');
    expect(md).toContain('npm run study -- --shard {}/4');
    expect(md).toContain('npm run study -- merge');
    expect(md).toContain('Because of X.');
    expect(md).toContain('measured 1 s/it');
    expect(md).toContain('![');
  });
});
