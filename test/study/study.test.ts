/**
 * The reproduction study without real training: the run matrix and resume, aggregation and
 * itersTo60, claim evaluation on synthetic results (held and failed, both ways), the SVG writer, the
 * README generator and the study command's flag errors.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseStudyFlags } from '../../cli/study-flags.ts';
import { isMethod } from '../../src/methods/registry.ts';
import { UsageError } from '../../cli/flags.ts';
import { loadRunsFromStudy, loadStoredRuns, runsDir, saveStoredRun } from '../../cli/study-store.ts';
import type { EnvName, Horizon } from '../../envs/index.ts';
import { ABLATIONS, CONFIG_FIELDS } from '../../src/config.ts';
import { studyFigures } from '../../src/study/charts.ts';
import { evaluateClaims, type ClaimResult } from '../../src/study/claims.ts';
import { EtaModel } from '../../src/study/eta.ts';
import { buildMatrix, planRuns, runConfig, runKey, type RunSpec, type StoredRun, type Variant } from '../../src/study/matrix.ts';
import { FULL_PROFILE, QUICK_PROFILE } from '../../src/study/profile.ts';
import { DEFINITIONS, renderReadme, sharedHyperparameters, type StudyDocument } from '../../src/study/report.ts';
import { aggregateCurve, finalSuccess, itersToTarget, meanSd, medianIters, peakMovingAverage, summarizeRun, type IterationFigures, type RunResult } from '../../src/study/summary.ts';
import { renderFigure, type Figure } from '../../src/study/svg.ts';

// ---------- synthetic runs ----------

interface Shape {
  /** Plateau success. */
  level: number;
  /** Iterations to reach the plateau (linear ramp from 0). */
  rise?: number;
  util?: number;
  zero?: number;
  contradictory?: number;
  retention?: number;
}

const ITERS = 30;

function specOf(env: EnvName, horizon: Horizon, variant: Variant, seed: number): RunSpec {
  return isMethod(variant) ? { env, horizon, method: variant, ablation: null, seed } : { env, horizon, method: 'beacon', ablation: variant, seed };
}

function records(shape: Shape, seed: number): IterationFigures[] {
  const rise = shape.rise ?? 10;
  const noise = ((seed * 7) % 5 - 2) * 0.004; // deterministic, different per seed: sd > 0
  return Array.from({ length: ITERS }, (_, i) => {
    const success = Math.min(1, Math.max(0, shape.level * Math.min(1, (i + 1) / rise) + noise));
    return {
      success,
      partial: (1 - success) / 2,
      failure: (1 - success) / 2,
      sampleUtilization: shape.util ?? 0.5,
      zeroAdvantageRatio: shape.zero ?? 0.5,
      contradictoryRatio: i === 3 ? NaN : (shape.contradictory ?? 0.3) * (i < 10 ? 1 : 0.5),
      signalRetention: shape.retention ?? 0.3,
      ccr: 1,
      meanEpisodeLength: 20 + i,
    };
  });
}

function fakeRun(env: EnvName, horizon: Horizon, variant: Variant, seed: number, shape: Shape): RunResult {
  return summarizeRun(specOf(env, horizon, variant, seed), records(shape, seed), 1);
}

type Scenario = Record<Horizon, Partial<Record<Variant, Shape>>>;

function build(scenario: Scenario, seeds = 3, envs: EnvName[] = ['gridhouse', 'texthouse']): RunResult[] {
  const runs: RunResult[] = [];
  for (const env of envs) for (const [horizon, variants] of Object.entries(scenario) as [Horizon, Partial<Record<Variant, Shape>>][]) {
    for (const [variant, shape] of Object.entries(variants) as [Variant, Shape][]) {
      for (let seed = 1; seed <= seeds; seed++) runs.push(fakeRun(env, horizon, variant, seed, shape));
    }
  }
  return runs;
}

/** The paper's picture: every claim should hold. */
const PAPER: Scenario = {
  tiny: {},
  short: { grpo: { level: 0.7 }, beacon: { level: 0.8 } },
  medium: { grpo: { level: 0.5 }, beacon: { level: 0.75 } },
  long: {
    grpo: { level: 0.3, util: 0.2, zero: 0.55, contradictory: 0.5, retention: 0.15 },
    beacon: { level: 0.9, util: 0.8, zero: 0.1, retention: 0.5 },
    gamma1: { level: 0.3, util: 0.2, zero: 0.55, contradictory: 0.5, retention: 0.15 },
    gamma0: { level: 0.8 },
    randomSegments: { level: 0.32 },
    milestoneDropout: { level: 0.75 },
    noTrajectoryTerm: { level: 0.1 },
    stepMean: { level: 0.85 },
  },
};

/** Everything the other way round: every claim should fail. */
const REVERSED: Scenario = {
  tiny: {},
  short: { grpo: { level: 0.3 }, beacon: { level: 0.9 } },
  medium: { grpo: { level: 0.5 }, beacon: { level: 0.5 } },
  long: {
    grpo: { level: 0.9, util: 0.8, zero: 0.1, contradictory: 0.2, retention: 0.5 },
    beacon: { level: 0.3, util: 0.2, zero: 0.55, retention: 0.15 },
    gamma1: { level: 0.5 },
    gamma0: { level: 0.3 },
    randomSegments: { level: 0.9 },
    milestoneDropout: { level: 0.05 },
    noTrajectoryTerm: { level: 0.9 },
    stepMean: { level: 0.3 },
  },
};

const byId = (claims: ClaimResult[]) => new Map(claims.map((c) => [c.id, c]));

// ---------- aggregation ----------

describe('aggregation', () => {
  it('mean ± sample sd, ignoring undefined values', () => {
    const s = meanSd([1, 2, 3, 4, null, NaN]);
    expect(s.n).toBe(4);
    expect(s.mean).toBeCloseTo(2.5, 12);
    expect(s.sd).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(meanSd([0.7])).toEqual({ mean: 0.7, sd: 0, n: 1 });
    expect(meanSd([null])).toEqual({ mean: null, sd: null, n: 0 });
  });

  it('finalSuccess is the mean of the last 10 iterations', () => {
    const curve = [...Array(20).fill(0), ...Array(10).fill(0.5)];
    expect(finalSuccess(curve)).toBe(0.5);
    expect(finalSuccess([...curve, 1])).toBeCloseTo(0.55, 12);
    expect(finalSuccess([0.2, 0.4])).toBeCloseTo(0.3, 12);
  });

  it('itersTo60: first iteration whose trailing-5 mean is ≥ 0.6, null if never', () => {
    expect(itersToTarget([0.6, 0.6, 0.6, 0.6, 0.6])).toBe(5);
    expect(itersToTarget([1, 1, 1, 1])).toBeNull(); // no full window yet
    expect(itersToTarget([0.2, 1, 1, 1, 0.8, 0])).toBe(5);
    expect(itersToTarget([0, 0, 0, 0, 0, 1, 1])).toBeNull(); // trailing mean 0.4
    expect(itersToTarget([0, 0, 0, 0, 0, 1, 1, 1])).toBe(8); // 0, 0, 1, 1, 1 → 0.6
    expect(itersToTarget([0, 0, 0, 1, 1, 1, 0, 0])).toBe(6); // first window reaching 0.6, later ones fall back
    expect(itersToTarget(Array(50).fill(0.59))).toBeNull();
  });

  it('the median of itersTo60 counts never-reached runs as never', () => {
    expect(medianIters([12, null, 30])).toBe(30);
    expect(medianIters([12, null, null])).toBe(Infinity);
    expect(medianIters([10, 20])).toBe(15);
    expect(medianIters([])).toBeNull();
  });

  it('peak contradictory ratio is the largest 5-iteration moving average', () => {
    expect(peakMovingAverage([0, 0, 1, 1, 1, 1, 1, 0, 0])).toBe(1);
    expect(peakMovingAverage([0.5, null, 0.5, 0, 0, 0])).toBe(0.25); // undefined iterations are left out of the window's mean
    expect(peakMovingAverage([0.5, null, 0.7])).toBeCloseTo(0.6, 12); // shorter than a window: one window of all
    expect(peakMovingAverage([null, null])).toBeNull();
  });

  it('summarises a run from its records and averages curves over runs', () => {
    const r = fakeRun('gridhouse', 'long', 'beacon', 1, { level: 0.9, util: 0.8, zero: 0.1, contradictory: 0.4 });
    expect(r.key).toBe('gridhouse-long-beacon-s1');
    expect(r.iterations).toBe(ITERS);
    expect(r.finalSuccess).toBeCloseTo(0.9, 12); // seed 1 has no noise
    expect(r.itersTo60).toBe(9); // ramp 0.09·i: trailing mean of 5..9 = 0.63
    expect(r.sampleUtilization).toBeCloseTo(0.8, 12);
    expect(r.contradictoryRatio).toBeCloseTo((9 * 0.4 + 20 * 0.2) / 29, 12); // the NaN iteration is left out
    expect(r.contradictoryPeak).toBeCloseTo(0.4, 12);
    expect(r.curves.contradictoryRatio[3]).toBeNull();
    const agg = aggregateCurve([r, { curves: { ...r.curves, success: r.curves.success.slice(0, 5).map(() => 0) } }], 'success');
    expect(agg.n[0]).toBe(2);
    expect(agg.n[10]).toBe(1);
    expect(agg.mean[0]).toBeCloseTo((r.curves.success[0]! + 0) / 2, 12);
  });
});

// ---------- matrix and resume ----------

describe('run matrix', () => {
  it('covers horizons × methods × seeds × envs plus the ablations on long, with one shared budget', () => {
    const specs = buildMatrix(FULL_PROFILE, 5);
    expect(specs).toHaveLength(2 * (3 * 2 + 6) * 5);
    expect(new Set(specs.map(runKey)).size).toBe(specs.length);
    expect(specs.filter((s) => s.ablation).every((s) => s.horizon === 'long' && s.method === 'beacon')).toBe(true);
    for (const s of specs) {
      const c = runConfig(s, FULL_PROFILE.budget);
      for (const k of Object.keys(FULL_PROFILE.budget) as (keyof typeof FULL_PROFILE.budget)[]) expect(c[k]).toBe(FULL_PROFILE.budget[k]);
      expect(c.backend).toBe('wasm');
    }
    // An ablation differs from BEACON only by its overrides.
    const beacon = runConfig({ env: 'gridhouse', horizon: 'long', method: 'beacon', ablation: null, seed: 2 }, FULL_PROFILE.budget);
    for (const name of Object.keys(ABLATIONS) as (keyof typeof ABLATIONS)[]) {
      const c = runConfig({ env: 'gridhouse', horizon: 'long', method: 'beacon', ablation: name, seed: 2 }, FULL_PROFILE.budget);
      const differing = CONFIG_FIELDS.map((f) => f.key).filter((k) => c[k] !== beacon[k]);
      expect(differing).toEqual(Object.keys(ABLATIONS[name]));
    }
    expect(buildMatrix(QUICK_PROFILE, 2).length).toBeLessThan(specs.length);
  });

  describe('resume', () => {
    let dir = '';
    afterEach(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('skips a finished run, retrains one whose config changed, ignores unreadable files', () => {
      dir = mkdtempSync(join(tmpdir(), 'study-'));
      const budget = QUICK_PROFILE.budget;
      const specs = buildMatrix({ envs: ['gridhouse'], methods: ['grpo', 'beacon'], horizons: ['short'], ablationHorizon: 'long', ablations: [] }, 2);
      expect(specs).toHaveLength(4);
      const [first, second] = specs;
      const result = summarizeRun(first, records({ level: 0.5 }, 1), 3);
      saveStoredRun(dir, { key: runKey(first), config: runConfig(first, budget), result });
      // Stored with another budget: must be trained again.
      saveStoredRun(dir, { key: runKey(second), config: runConfig(second, { ...budget, iters: budget.iters + 1 }), result });
      writeFileSync(join(runsDir(dir), 'broken.json'), '{ not json');
      const warnings: string[] = [];
      const stored = loadStoredRuns(dir, (m) => warnings.push(m));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('broken.json');
      const plan = planRuns(specs, stored, budget);
      expect(plan.done.map((d) => d.key)).toEqual([runKey(first)]);
      expect(plan.done[0].result.finalSuccess).toBe(result.finalSuccess);
      expect(plan.todo.map(runKey)).toEqual(specs.slice(1).map(runKey));
    });

    it('a committed study.json counts as a store of finished runs', () => {
      dir = mkdtempSync(join(tmpdir(), 'study-'));
      const budget = QUICK_PROFILE.budget;
      const specs = buildMatrix({ envs: ['texthouse'], methods: ['grpo', 'beacon'], horizons: ['long'], ablationHorizon: 'long', ablations: ['gamma1'] }, 1);
      const runs = specs.slice(0, 2).map((s) => summarizeRun(s, records({ level: 0.4 }, s.seed), 2));
      writeFileSync(join(dir, 'study.json'), JSON.stringify({ budget, commit: 'abc', dirty: false, runCommits: ['abc'], runs }));
      const plan = planRuns(specs, loadRunsFromStudy(dir), budget);
      expect(plan.done.map((d) => d.key)).toEqual(runs.map((r) => r.key));
      expect(plan.done[0].commit).toBe('abc');
      expect(plan.todo.map(runKey)).toEqual([runKey(specs[2])]);
      // Another budget in the file: nothing is reused.
      expect(planRuns(specs, loadRunsFromStudy(dir), { ...budget, hiddenSize: 64 }).todo).toHaveLength(3);
    });

    it('an empty store plans every run', () => {
      const specs = buildMatrix(QUICK_PROFILE, 1);
      expect(planRuns(specs, new Map<string, StoredRun>(), QUICK_PROFILE.budget).todo).toHaveLength(specs.length);
    });
  });

  it('the ETA uses measured times of the same cell before the prior', () => {
    const eta = new EtaModel(10, { gridhouse: { long: 2 }, texthouse: {} });
    const grpo = specOf('gridhouse', 'long', 'grpo', 1);
    const beacon = specOf('gridhouse', 'long', 'beacon', 1);
    expect(eta.secondsLeft([grpo, beacon], [], 2)).toBe(20);
    eta.observe({ spec: grpo, iterations: 10, seconds: 50 });
    expect(eta.secondsPerIteration(grpo)).toBe(5);
    expect(eta.secondsPerIteration(beacon)).toBe(5); // same env and horizon
    eta.observe({ spec: beacon, iterations: 10, seconds: 10 });
    expect(eta.secondsPerIteration(beacon)).toBe(1);
    expect(eta.secondsLeft([grpo], [{ spec: beacon, iteration: 5 }], 1)).toBe(50 + 5);
  });
});

// ---------- claims ----------

describe('claims', () => {
  it('all nine hold on paper-like synthetic results', () => {
    const claims = evaluateClaims(build(PAPER));
    expect(claims.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const c of claims) expect({ id: c.id, held: c.held, note: c.note }).toEqual({ id: c.id, held: true, note: expect.any(String) });
    const c5 = byId(claims).get(5)!;
    expect(c5.ours).toContain('3/3 seeds identical');
  });

  it('all nine fail on reversed synthetic results', () => {
    const claims = evaluateClaims(build(REVERSED));
    for (const c of claims) expect({ id: c.id, held: c.held }).toEqual({ id: c.id, held: false });
    for (const c of claims) expect(c.note).toMatch(/gridhouse, texthouse/);
  });

  it('a claim holds only if it holds in every environment', () => {
    const runs = [...build(PAPER, 3, ['gridhouse']), ...build(REVERSED, 3, ['texthouse'])];
    const claims = evaluateClaims(runs);
    for (const c of claims) {
      expect(c.held).toBe(false);
      expect(c.details.map((d) => [d.env, d.held])).toEqual([['gridhouse', true], ['texthouse', false]]);
    }
  });

  it('claim 5 compares the gamma1 and GRPO curves seed by seed', () => {
    const runs = build(PAPER);
    const i = runs.findIndex((r) => r.variant === 'gamma1' && r.env === 'texthouse' && r.seed === 2);
    const success = [...runs[i].curves.success];
    success[17] = success[17]! + 1 / 64; // one run of one iteration differs: same final mean range, different curve
    runs[i] = { ...runs[i], curves: { ...runs[i].curves, success } };
    const c5 = byId(evaluateClaims(runs)).get(5)!;
    expect(c5.held).toBe(false);
    expect(c5.ours).toContain('texthouse: 2/3 seeds identical');
    // Without GRPO runs to compare with, it is not measured rather than held.
    const noGrpo = byId(evaluateClaims(build(PAPER).filter((r) => !(r.variant === 'grpo' && r.horizon === 'long')))).get(5)!;
    expect(noGrpo.held).toBeNull();
  });

  it('a BEACON lead within noise does not count as beating GRPO', () => {
    const scenario: Scenario = { ...PAPER, long: { ...PAPER.long, beacon: { ...PAPER.long.beacon!, level: 0.302 } } };
    expect(byId(evaluateClaims(build(scenario))).get(1)!.held).toBe(false);
  });

  it('ablation claims fail vacuously-held cases: no BEACON gain means no graceful dropout', () => {
    const scenario: Scenario = { ...PAPER, long: { ...PAPER.long, grpo: { level: 0 }, beacon: { level: 0.01 }, milestoneDropout: { level: 0.01 }, randomSegments: { level: 0 } } };
    const claims = byId(evaluateClaims(build(scenario)));
    expect(claims.get(6)!.held).toBe(false);
    expect(claims.get(7)!.held).toBe(false);
  });
});

// ---------- SVG ----------

/** A strict-enough well-formedness check: balanced tags, quoted attributes, escaped text, one root. */
function checkWellFormed(svg: string): void {
  const body = svg.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  let pos = 0;
  for (const m of body.matchAll(/<[^>]*>/g)) {
    const between = body.slice(pos, m.index);
    expect(between, 'raw < or & in text').not.toMatch(/<|&(?!(amp|lt|gt|quot|apos|#\d+);)/);
    pos = m.index! + m[0].length;
    const tag = m[0];
    if (tag.startsWith('</')) {
      expect(stack.pop(), `closing ${tag}`).toBe(tag.slice(2, -1).trim());
      continue;
    }
    const inner = tag.slice(1, tag.endsWith('/>') ? -2 : -1);
    const name = /^[A-Za-z][\w:-]*/.exec(inner)?.[0];
    expect(name, `tag name in ${tag}`).toBeTruthy();
    const rest = inner.slice(name!.length);
    expect(rest, `attributes of ${tag.slice(0, 60)}`).toMatch(/^(\s+[A-Za-z_:][\w:.-]*="[^"<]*")*\s*$/);
    for (const v of rest.matchAll(/="([^"]*)"/g)) expect(v[1]).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+);)/);
    if (stack.length === 0) roots++;
    if (!tag.endsWith('/>')) stack.push(name!);
  }
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
  expect(body.trimStart().startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
}

describe('SVG writer', () => {
  it('writes well-formed SVG with one group per series and labelled bands', () => {
    const fig: Figure = {
      title: 'success <& "quotes">',
      subtitle: 'line: mean over 3 seeds; shaded band: ± 1 sd over seeds',
      panels: [
        { kind: 'line', title: 'long', xLabel: 'iteration', yLabel: 'success', yDomain: [0, 1], percent: true, series: [
          { label: 'GRPO', color: '#d62728', x: [1, 2, 3, 4], mean: [0, 0.1, null, 0.3], sd: [0, 0.05, null, 0.1] },
          { label: 'BEACON', color: '#1f77b4', x: [1, 2, 3, 4], mean: [0.1, 0.5, 0.8, 0.9], sd: [0.02, 0.1, 0.05, 0.01] },
        ] },
        { kind: 'bar', title: 'gain', yLabel: 'gain', categories: ['short', 'long'], percent: true, series: [{ label: 'gridhouse', color: '#000', values: [-0.1, 2], errors: [0.05, null] }] },
        { kind: 'stack', title: 'mix', xLabel: 'iteration', yLabel: 'share', x: [1, 2], layers: [
          { label: 'full success', color: '#0a0', values: [0.2, 0.5] }, { label: 'partial success', color: '#fa0', values: [0.3, 0.3] }, { label: 'complete failure', color: '#ccc', values: [0.5, 0.2] },
        ] },
      ],
    };
    const svg = renderFigure(fig);
    checkWellFormed(svg);
    expect(svg).toContain('success &lt;&amp; &quot;quotes&quot;&gt;');
    for (const s of ['GRPO', 'BEACON', 'gridhouse', 'full success', 'partial success', 'complete failure']) expect(svg).toContain(`class="series" data-series="${s}"`);
    expect(svg.match(/class="band"/g)).toHaveLength(2);
    expect(svg).toContain('BEACON (mean ± 1 sd)');
    expect(svg).toContain('GRPO: ± 1 sd');
    // The GRPO line has a gap where its mean is undefined: two subpaths.
    const grpoLine = /data-series="GRPO"><path class="band"[^>]*><title>[^<]*<\/title><\/path><path class="line" d="([^"]*)"/.exec(svg);
    expect(grpoLine?.[1].match(/M/g)).toHaveLength(2);
  });

  it('draws every study chart from synthetic runs', () => {
    const figures = studyFigures(build(PAPER), { gainFloor: 0.05, ablationHorizon: 'long' });
    expect(figures.map((f) => f.name).sort()).toEqual([
      'ablations-gridhouse', 'ablations-texthouse', 'outcome-mix-gridhouse', 'outcome-mix-texthouse', 'relative-gain', 'signal', 'success-gridhouse', 'success-texthouse',
    ]);
    for (const f of figures) checkWellFormed(renderFigure(f.figure));
    const success = figures.find((f) => f.name === 'success-gridhouse')!.figure;
    expect(success.panels.map((p) => p.title)).toEqual(['short horizon', 'medium horizon', 'long horizon']);
    expect(success.subtitle).toContain('± 1 sd');
    const gain = figures.find((f) => f.name === 'relative-gain')!.figure.panels[0];
    const final = (v: Variant) => meanSd(build(PAPER, 3, ['gridhouse']).filter((r) => r.horizon === 'long' && r.variant === v).map((r) => r.finalSuccess)).mean!;
    expect(gain.kind === 'bar' && gain.series[0].label).toBe('gridhouse');
    expect(gain.kind === 'bar' && gain.series[0].values[2]).toBeCloseTo((final('beacon') - final('grpo')) / final('grpo'), 12);
    const points = figures.find((f) => f.name === 'relative-gain')!.figure.panels[1];
    expect(points.kind === 'bar' && points.series[0].values[2]).toBeCloseTo(final('beacon') - final('grpo'), 12);
  });
});

// ---------- README ----------

describe('README generator', () => {
  it('tabulates every claim with paper vs ours and its verdict, and includes the hand-written analysis', () => {
    const runs = build(PAPER);
    const claims = evaluateClaims(build(REVERSED));
    const doc: StudyDocument = {
      profile: 'full', purpose: FULL_PROFILE.purpose, command: 'npm run study', commit: 'abc123', dirty: false, runCommits: ['abc123', 'def456+dirty'],
      startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:50:00.000Z', wallSeconds: 3000, runSeconds: 6000,
      workers: 2, seeds: 3, budget: FULL_PROFILE.budget, hyperparameters: sharedHyperparameters(FULL_PROFILE.budget), definitions: DEFINITIONS, runs, claims,
    };
    const md = renderReadme({ study: doc, figures: studyFigures(runs, { gainFloor: 0.05, ablationHorizon: 'long' }), analysis: 'Because of X.', budgetNotes: ['measured 1 s/it'] });
    expect(md).toContain('Commit: `abc123`');
    expect(md).toContain('Runs trained at: `abc123`, `def456+dirty`');
    expect(md).toContain('Command: `npm run study`');
    for (const c of claims) expect(md).toContain(`| ${c.id} | ${c.claim.replace(/\|/g, '\\|')} | ${c.paper} |`);
    expect(md.match(/\*\*failed\*\*/g)!.length).toBeGreaterThanOrEqual(9);
    expect(md).toContain('Because of X.');
    expect(md).toContain('![');
    expect(md).toContain('measured 1 s/it');
  });
});

// ---------- CLI flags ----------

describe('study flags', () => {
  const usage = (argv: string[]) => {
    try {
      parseStudyFlags(argv);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as Error).message;
    }
    throw new Error(`no usage error for ${argv.join(' ')}`);
  };

  it('names the flag and its allowed values', () => {
    expect(usage(['--seeds', '2'])).toMatch(/^--seeds must be an integer in \[3, 20\]/);
    expect(usage(['--seeds', 'x'])).toContain('--seeds');
    expect(usage(['--seeds'])).toContain('--seeds');
    expect(usage(['--workers', '0'])).toMatch(/^--workers must be an integer in \[1, 64\]/);
    expect(usage(['--sedes', '3'])).toMatch(/^unknown flag --sedes/);
    expect(usage(['--quick=1'])).toContain('--quick takes no value');
    expect(usage(['seeds'])).toContain('unexpected argument');
    expect(usage(['--fresh', '--report-only'])).toContain('--report-only');
  });

  it('accepts the defaults, --quick with fewer seeds, and --help', () => {
    expect(parseStudyFlags([])).toMatchObject({ profile: FULL_PROFILE, seeds: 5, fresh: false, reportOnly: false });
    expect(parseStudyFlags(['--quick', '--seeds=1', '--workers', '3'])).toMatchObject({ profile: QUICK_PROFILE, seeds: 1, workers: 3 });
    expect(parseStudyFlags(['--help'])).toBeNull();
  });

  it('the command exits with 2 and names the flag', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/study.ts', '--seeds', '1'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--seeds must be an integer in [3, 20]');
    expect(r.stderr).toContain('usage: npm run study');
  }, 60_000);
});
