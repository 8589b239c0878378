/**
 * The reproduction study without real training: variants and the run matrix, env-step budgets and
 * resume, shards and their merge, the exact paired test against hand-computed values, aggregation,
 * claim evaluation on synthetic results (held, failed and not measured), the clean-tree rule, the SVG
 * writer, the README generator and the study command's flags.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanCommit, DirtyTreeError, treeState } from '../../cli/git-tree.ts';
import { parseStudyFlags } from '../../cli/study-flags.ts';
import { UsageError } from '../../cli/flags.ts';
import {
  loadRunsFromStudy,
  loadShards,
  loadStoredRuns,
  mergeShards,
  runsDir,
  saveShard,
  saveStoredRun,
  ShardMergeError,
  type ShardFile,
} from '../../cli/study-store.ts';
import type { EnvName, Horizon } from '../../envs/index.ts';
import { ABLATIONS, CONFIG_FIELDS, LATER_KEYS, type TrainConfig } from '../../src/config.ts';
import { METHOD_NAMES, methodSpec } from '../../src/methods/registry.ts';
import { studyFigures } from '../../src/study/charts.ts';
import { EtaModel } from '../../src/study/eta.ts';
import {
  buildMatrix,
  limitIterationsOf,
  parseShard,
  planRuns,
  runConfig,
  runKey,
  runSpec,
  seedList,
  shardRuns,
  stepBudget,
  stepLimit,
} from '../../src/study/matrix.ts';
import { FULL_PROFILE, QUICK_PROFILE, SHOP_PILOT_PROFILE, type StudyProfile } from '../../src/study/profile.ts';
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
  summarizeRun,
  type IterationFigures,
  type RunResult,
} from '../../src/study/summary.ts';
import { renderFigure, type Figure } from '../../src/study/svg.ts';
import { VARIANT_NAMES, variantLabel, variantSpec, type VariantName } from '../../src/study/variants.ts';

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
  /** Critic ms per iteration (critic PPO's extra cost). */
  critic?: number;
}

const ITERS = 30;
const STEPS_PER_ITERATION = 100;
const COMPARED: readonly VariantName[] = FULL_PROFILE.variants;

function records(shape: Shape, seed: number): IterationFigures[] {
  const rise = shape.rise ?? 10;
  const noise = (((seed * 7) % 5) - 2) * 0.004; // deterministic, different per seed: sd > 0
  return Array.from({ length: ITERS }, (_, i) => {
    const success = Math.min(1, Math.max(0, shape.level * Math.min(1, (i + 1) / rise) + noise));
    return {
      success,
      partial: (1 - success) / 2,
      failure: (1 - success) / 2,
      sampleUtilization: shape.util ?? 0.5,
      zeroAdvantageRatio: shape.zero ?? 0.5,
      contradictoryRatio: i === 3 ? NaN : (shape.contradictory ?? 0.3) * (i < 10 ? 1 : 0.5),
      contradictoryRatioSigned: i === 3 ? NaN : (shape.contradictory ?? 0.3) * (i < 10 ? 1.2 : 0.6),
      signalRetention: shape.retention ?? 0.3,
      ccr: 1,
      meanEpisodeLength: 20 + i,
      envSteps: STEPS_PER_ITERATION,
      ms: { rollout: 10, advantage: 1, update: 10, ...(shape.critic ? { critic: shape.critic } : {}) },
    };
  });
}

function fakeRun(env: EnvName, horizon: Horizon, variant: VariantName, seed: number, shape: Shape): RunResult {
  return {
    ...summarizeRun(runSpec(env, horizon, variant, seed), records(shape, seed), 1, {
      envStepBudget: ITERS * STEPS_PER_ITERATION,
      start: { success: 0.05, partial: 0.5 },
    }),
    commit: 'a'.repeat(40),
  };
}

type Scenario = Partial<Record<Horizon, Partial<Record<VariantName, Shape>>>>;

function build(scenario: Scenario, seeds = 5, envs: EnvName[] = ['gridhouse', 'texthouse']): RunResult[] {
  const runs: RunResult[] = [];
  for (const env of envs)
    for (const [horizon, variants] of Object.entries(scenario) as [Horizon, Partial<Record<VariantName, Shape>>][]) {
      for (const [variant, shape] of Object.entries(variants) as [VariantName, Shape][]) {
        for (let seed = 1; seed <= seeds; seed++) runs.push(fakeRun(env, horizon, variant, seed, shape));
      }
    }
  return runs;
}

const others = (level: number): Partial<Record<VariantName, Shape>> => ({
  gigpo: { level },
  ppo: { level, critic: 30 },
  ppoShaped: { level, critic: 30 },
  sft: { level },
});

/** The paper's picture: every claim should hold. */
const PAPER: Scenario = {
  short: { grpo: { level: 0.7 }, beacon: { level: 0.8 }, beaconReleased: { level: 0.8 }, ...others(0.7), gigpo: { level: 0.75 } },
  medium: { grpo: { level: 0.5 }, beacon: { level: 0.75 }, beaconReleased: { level: 0.75 }, ...others(0.5) },
  long: {
    grpo: { level: 0.3, util: 0.2, zero: 0.55, contradictory: 0.5, retention: 0.15 },
    beacon: { level: 0.9, rise: 5, util: 0.8, zero: 0.1, retention: 0.5 },
    beaconReleased: { level: 0.85 },
    ...others(0.5),
    ppoShaped: { level: 0.6, critic: 30 },
    sft: { level: 0.4 },
    gamma1: { level: 0.3, util: 0.2, zero: 0.55, contradictory: 0.5, retention: 0.15 },
    gamma0: { level: 0.8 },
    randomSegments: { level: 0.32 },
    milestoneDropout: { level: 0.75 },
    noTrajectoryTerm: { level: 0.1 },
    stepMean: { level: 0.85 },
  },
};

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

// ---------- variants, matrix, budgets ----------

describe('variants and the run matrix', () => {
  it('every registry method is a variant; extra variants and ablations are a method plus overrides', () => {
    for (const m of METHOD_NAMES) expect(variantSpec(m)).toMatchObject({ method: m, overrides: {}, ablation: null, label: methodSpec(m).label });
    expect(variantSpec('beaconReleased')).toMatchObject({
      method: 'beacon',
      overrides: { variant: 'released', rMs: 10, normalize: 'mean', gamma: 0.9, lambda: 10 },
    });
    expect(variantSpec('beaconReleasedWebshop').overrides).toMatchObject({ gamma: 0.95, lambda: 1, rMs: 10 });
    expect(variantSpec('ppoShaped')).toMatchObject({ method: 'ppo', overrides: { shapedRewards: true } });
    for (const a of Object.keys(ABLATIONS) as (keyof typeof ABLATIONS)[])
      expect(variantSpec(a)).toMatchObject({ method: 'beacon', ablation: a, overrides: ABLATIONS[a] });
    expect(new Set(VARIANT_NAMES).size).toBe(VARIANT_NAMES.length);
    // The full profile compares every registered method but a visitor's estimator (which joins with --estimator).
    for (const m of METHOD_NAMES) if (m !== 'custom') expect(FULL_PROFILE.variants).toContain(m);
    expect(FULL_PROFILE.variants).not.toContain('custom');
  });

  it('covers envs × horizons × compared variants × seeds 101–115 plus the long-only ablations', () => {
    const specs = buildMatrix(FULL_PROFILE, seedList(FULL_PROFILE, FULL_PROFILE.seeds));
    expect(specs).toHaveLength(3 * (3 * FULL_PROFILE.variants.length + FULL_PROFILE.ablations.length) * 15);
    expect(specs).toHaveLength(1215);
    expect([...new Set(specs.map((s) => s.seed))].sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => 101 + i));
    // The released BEACON runs the released config of its environment: WebShop's on the shop only.
    expect(new Set(specs.filter((s) => s.variant.startsWith('beaconReleased')).map((s) => `${s.env}:${s.variant}`))).toEqual(
      new Set(['gridhouse:beaconReleased', 'texthouse:beaconReleased', 'shop:beaconReleasedWebshop']),
    );
    expect(new Set(specs.map(runKey)).size).toBe(specs.length);
    expect(specs.filter((s) => FULL_PROFILE.ablations.includes(s.variant)).every((s) => s.horizon === 'long')).toBe(true);
    for (const s of specs) {
      const c = runConfig(s, FULL_PROFILE.budget);
      expect(c).toMatchObject({
        tasksPerIteration: 8,
        groupSize: 8,
        hiddenSize: 64,
        iters: FULL_PROFILE.budget.maxIters,
        backend: 'wasm',
        sftEpisodes: 'auto',
        method: s.method,
        seed: s.seed,
      });
    }
    // A variant's config is its method's shared config plus exactly its overrides (that change something).
    for (const v of VARIANT_NAMES) {
      const spec = runSpec('gridhouse', 'long', v, 2);
      const base = runConfig(runSpec('gridhouse', 'long', variantSpec(v).method, 2), FULL_PROFILE.budget);
      const c = runConfig(spec, FULL_PROFILE.budget);
      const differing = CONFIG_FIELDS.map((f) => f.key).filter((k) => c[k] !== base[k]);
      expect(differing.sort()).toEqual(
        Object.keys(variantSpec(v).overrides)
          .filter((k) => base[k as keyof typeof base] !== (variantSpec(v).overrides as Record<string, unknown>)[k])
          .sort(),
      );
    }
    expect(buildMatrix(QUICK_PROFILE, seedList(QUICK_PROFILE, 2)).length).toBeLessThan(specs.length);
  });

  it('the env-step budget is the same for every variant of a cell: the cell’s pre-registered iterations at the step limit', () => {
    const b = FULL_PROFILE.budget;
    for (const env of FULL_PROFILE.envs)
      for (const h of FULL_PROFILE.horizons) {
        const budgets = new Set(VARIANT_NAMES.map((v) => stepBudget(runSpec(env, h, v, 1), b)));
        expect([...budgets]).toEqual([limitIterationsOf({ env, horizon: h }, b) * b.tasksPerIteration * b.groupSize * stepLimit(env, h)]);
      }
    expect(stepLimit('gridhouse', 'long')).toBe(128);
    expect(stepBudget({ env: 'gridhouse', horizon: 'long' }, b)).toBe(90112);
    expect(stepBudget({ env: 'texthouse', horizon: 'long' }, b)).toBe(60800);
    expect(() => stepBudget({ env: 'gridhouse', horizon: 'tiny' }, b)).toThrow(/no limitIterations for gridhouse tiny/);
  });

  it('the budgets are the pre-registration’s (its machine-readable blocks, amendments last)', () => {
    const text = readFileSync(new URL('../../docs/results/preregistration.md', import.meta.url), 'utf8');
    const blocks = [...text.matchAll(/```json preregistration[^\n]*\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
    expect(blocks.length).toBeGreaterThanOrEqual(1);
    const limits: Record<string, unknown> = {};
    for (const b of blocks) for (const [env, v] of Object.entries(b.limitIterations ?? {})) if (typeof v === 'object') limits[env] = v;
    expect(limits).toEqual(FULL_PROFILE.budget.limitIterations);
    expect(blocks[0].seeds.main).toEqual([FULL_PROFILE.firstSeed, FULL_PROFILE.firstSeed + FULL_PROFILE.seeds - 1]);
    expect([...blocks[0].methods].sort()).toEqual([...FULL_PROFILE.variants].sort());
    expect([...blocks[0].ablations.variants].sort()).toEqual([...FULL_PROFILE.ablations].sort());
    expect(blocks[0].envs).toEqual(FULL_PROFILE.envs);
  });

  describe('shards', () => {
    const specs = buildMatrix(FULL_PROFILE, seedList(FULL_PROFILE, 5));
    const eta = new EtaModel((s) => stepBudget(s, FULL_PROFILE.budget), FULL_PROFILE.secondsPerKiloStep);

    it('every run falls in exactly one shard, and the shards are balanced', () => {
      for (const n of [1, 2, 3, 7, 16]) {
        const parts = Array.from({ length: n }, (_, i) => shardRuns(specs, { index: i + 1, count: n }, (s) => eta.runSeconds(s)));
        const keys = parts.flat().map(runKey);
        expect(keys.length).toBe(specs.length);
        expect(new Set(keys)).toEqual(new Set(specs.map(runKey)));
        const loads = parts.map((p) => p.reduce((a, s) => a + eta.runSeconds(s), 0));
        if (n > 1 && n < 16) expect(Math.max(...loads) / Math.min(...loads)).toBeLessThan(1.1);
      }
      expect(shardRuns(specs, { index: 1, count: 1 }, () => 1).map(runKey)).toEqual(specs.map(runKey));
    });

    it('parses I/N', () => {
      expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
      for (const bad of ['0/4', '5/4', '1/0', 'a/b', '1', '-1/2']) expect(parseShard(bad)).toBeNull();
    });
  });

  describe('resume and the store', () => {
    let dir = '';
    afterEach(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('skips a finished run, retrains one whose config or budget changed, ignores unreadable files', () => {
      dir = mkdtempSync(join(tmpdir(), 'study-'));
      const budget = QUICK_PROFILE.budget;
      const specs = buildMatrix({ envs: ['gridhouse'], variants: ['grpo', 'beacon'], horizons: ['short'], ablationHorizon: 'long', ablations: [] }, [1, 2]);
      expect(specs).toHaveLength(4);
      const [first, second, third] = specs;
      const result = fakeRun('gridhouse', 'short', first.variant, first.seed, { level: 0.5 });
      const commit = 'b'.repeat(40);
      saveStoredRun(dir, { key: runKey(first), config: runConfig(first, budget), envStepBudget: stepBudget(first, budget), result, commit });
      saveStoredRun(dir, {
        key: runKey(second),
        config: runConfig(second, { ...budget, maxIters: budget.maxIters + 1 }),
        envStepBudget: stepBudget(second, budget),
        result,
        commit,
      });
      saveStoredRun(dir, { key: runKey(third), config: runConfig(third, budget), envStepBudget: stepBudget(third, budget) + 1, result, commit });
      writeFileSync(join(runsDir(dir), 'broken.json'), '{ not json');
      const warnings: string[] = [];
      const stored = loadStoredRuns(dir, (m) => warnings.push(m));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('broken.json');
      const plan = planRuns(specs, stored, budget);
      expect(plan.done.map((d) => d.key)).toEqual([runKey(first)]);
      expect(plan.done[0].commit).toBe(commit);
      expect(plan.todo.map(runKey)).toEqual(specs.slice(1).map(runKey));
    });

    it('a run stored before the detector settings existed counts as done at their defaults', () => {
      dir = mkdtempSync(join(tmpdir(), 'study-'));
      const budget = QUICK_PROFILE.budget;
      const [spec] = buildMatrix({ envs: ['gridhouse'], variants: ['beacon'], horizons: ['short'], ablationHorizon: 'long', ablations: [] }, [1]);
      const config: Record<string, unknown> = { ...runConfig(spec, budget) };
      for (const key of LATER_KEYS) delete config[key];
      const result = fakeRun('gridhouse', 'short', spec.variant, spec.seed, { level: 0.5 });
      saveStoredRun(dir, {
        key: runKey(spec),
        config: config as unknown as TrainConfig,
        envStepBudget: stepBudget(spec, budget),
        result,
        commit: 'c'.repeat(40),
      });
      expect(planRuns([spec], loadStoredRuns(dir), budget).done.map((d) => d.key)).toEqual([runKey(spec)]);
      // A stored run under a detector setting is not the default run.
      saveStoredRun(dir, {
        key: runKey(spec),
        config: { ...runConfig(spec, budget), milestoneStride: 2 },
        envStepBudget: stepBudget(spec, budget),
        result,
        commit: 'c'.repeat(40),
      });
      expect(planRuns([spec], loadStoredRuns(dir), budget).todo.map(runKey)).toEqual([runKey(spec)]);
    });

    it('a study v3 study.json counts as a store; a v2 or v1 document does not', () => {
      dir = mkdtempSync(join(tmpdir(), 'study-'));
      const budget = QUICK_PROFILE.budget;
      const specs = buildMatrix({ envs: ['texthouse'], variants: ['grpo', 'beacon'], horizons: ['long'], ablationHorizon: 'long', ablations: ['gamma1'] }, [1]);
      const runs = specs.slice(0, 2).map((s) => ({ ...fakeRun(s.env, s.horizon, s.variant, s.seed, { level: 0.4 }), envStepBudget: stepBudget(s, budget) }));
      writeFileSync(join(dir, 'study.json'), JSON.stringify({ version: 3, budget, runs }));
      const plan = planRuns(specs, loadRunsFromStudy(dir), budget);
      expect(plan.done.map((d) => d.key)).toEqual(runs.map((r) => r.key));
      expect(plan.todo.map(runKey)).toEqual([runKey(specs[2])]);
      writeFileSync(join(dir, 'study.json'), JSON.stringify({ budget, runs }));
      expect(loadRunsFromStudy(dir).size).toBe(0);
      writeFileSync(join(dir, 'study.json'), JSON.stringify({ version: 2, budget, runs }));
      expect(loadRunsFromStudy(dir).size).toBe(0);
    });
  });

  it('the ETA uses measured seconds per step of the same cell before the pilot prior', () => {
    const eta = new EtaModel(() => 1000, { gridhouse: { long: { grpo: 2, beacon: 1 } }, texthouse: {} });
    const grpo = runSpec('gridhouse', 'long', 'grpo', 1);
    const beacon = runSpec('gridhouse', 'long', 'beacon', 1);
    const gigpo = runSpec('gridhouse', 'long', 'gigpo', 1);
    expect(eta.runSeconds(grpo)).toBe(2);
    expect(eta.runSeconds(gigpo)).toBe(1.5); // no prior for its method: the mean of the cell's
    expect(eta.secondsLeft([grpo, beacon], [], 2)).toBe(1.5);
    eta.observe({ spec: grpo, envSteps: 1000, seconds: 5 });
    expect(eta.runSeconds(grpo)).toBe(5);
    expect(eta.runSeconds(beacon)).toBe(5); // same env and horizon
    expect(eta.secondsLeft([grpo], [{ spec: grpo, envSteps: 500 }], 1)).toBe(5 + 2.5);
  });
});

// ---------- claims ----------

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
        {
          kind: 'line',
          title: 'long',
          xLabel: 'iteration',
          yLabel: 'success',
          yDomain: [0, 1],
          percent: true,
          series: [
            { label: 'GRPO', color: '#d62728', x: [1, 2, 3, 4], mean: [0, 0.1, null, 0.3], sd: [0, 0.05, null, 0.1] },
            { label: 'BEACON', color: '#1f77b4', x: [1, 2, 3, 4], mean: [0.1, 0.5, 0.8, 0.9], sd: [0.02, 0.1, 0.05, 0.01] },
          ],
        },
        {
          kind: 'bar',
          title: 'gain',
          yLabel: 'gain',
          categories: ['short', 'long'],
          percent: true,
          series: [{ label: 'gridhouse', color: '#000', values: [-0.1, 2], errors: [0.05, null] }],
        },
        {
          kind: 'stack',
          title: 'mix',
          xLabel: 'iteration',
          yLabel: 'share',
          x: [1, 2],
          layers: [
            { label: 'full success', color: '#0a0', values: [0.2, 0.5] },
            { label: 'partial success', color: '#fa0', values: [0.3, 0.3] },
            { label: 'complete failure', color: '#ccc', values: [0.5, 0.2] },
          ],
        },
      ],
    };
    const svg = renderFigure(fig);
    checkWellFormed(svg);
    expect(svg).toContain('success &lt;&amp; &quot;quotes&quot;&gt;');
    for (const s of ['GRPO', 'BEACON', 'gridhouse', 'full success', 'partial success', 'complete failure'])
      expect(svg).toContain(`class="series" data-series="${s}"`);
    expect(svg.match(/class="band"/g)).toHaveLength(2);
    expect(svg).toContain('BEACON (mean ± 1 sd)');
    expect(svg).toContain('GRPO: ± 1 sd');
    // The GRPO line has a gap where its mean is undefined: two subpaths.
    const grpoLine = /data-series="GRPO"><path class="band"[^>]*><title>[^<]*<\/title><\/path><path class="line" d="([^"]*)"/.exec(svg);
    expect(grpoLine?.[1].match(/M/g)).toHaveLength(2);
  });

  it('draws every study chart from synthetic runs, every compared method in the success charts', () => {
    const figures = studyFigures(build(PAPER, 3), { gainFloor: 0.05, ablationHorizon: 'long' });
    expect(figures.map((f) => f.name).sort()).toEqual([
      'ablations-gridhouse',
      'ablations-texthouse',
      'cost',
      'outcome-mix-gridhouse',
      'outcome-mix-texthouse',
      'relative-gain',
      'signal',
      'success-gridhouse',
      'success-texthouse',
    ]);
    for (const f of figures) checkWellFormed(renderFigure(f.figure));
    const success = figures.find((f) => f.name === 'success-gridhouse')!.figure;
    expect(success.panels.map((p) => p.title)).toEqual(['short horizon', 'medium horizon', 'long horizon']);
    const long = success.panels[2];
    expect(long.kind === 'line' && long.series.map((x) => x.label)).toEqual(COMPARED.map(variantLabel));
    const gain = figures.find((f) => f.name === 'relative-gain')!.figure.panels[0];
    const final = (v: VariantName) =>
      meanSd(
        build(PAPER, 3, ['gridhouse'])
          .filter((r) => r.horizon === 'long' && r.variant === v)
          .map((r) => r.finalSuccess),
      ).mean!;
    const beacon = gain.kind === 'bar' ? gain.series.find((x) => x.label === 'BEACON')! : null;
    expect(beacon!.values[2]).toBeCloseTo((final('beacon') - final('grpo')) / final('grpo'), 12);
  });
});

// ---------- clean tree ----------

describe('clean-tree rule', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gives the 40-hex commit of a clean tree and refuses a dirty one, naming the files', () => {
    dir = mkdtempSync(join(tmpdir(), 'study-git-'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    writeFileSync(join(dir, 'a.txt'), 'a');
    git('add', 'a.txt');
    git('commit', '-qm', 'a');
    const commit = cleanCommit(treeState(dir, 'out'), 'run the study', 'out');
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    // The output folder may change (the study writes there).
    execFileSync('mkdir', ['-p', join(dir, 'out')]);
    writeFileSync(join(dir, 'out', 'study.json'), '{}');
    expect(cleanCommit(treeState(dir, 'out'), 'run the study', 'out')).toBe(commit);
    writeFileSync(join(dir, 'a.txt'), 'changed');
    writeFileSync(join(dir, 'new.ts'), 'x');
    expect(() => cleanCommit(treeState(dir, 'out'), 'write study.json', 'out')).toThrow(DirtyTreeError);
    expect(() => cleanCommit(treeState(dir, 'out'), 'write study.json', 'out')).toThrow(
      /refusing to write study\.json: the working tree has uncommitted changes outside out\/:[\s\S]*a\.txt[\s\S]*new\.ts[\s\S]*commit or stash/,
    );
    expect(() => cleanCommit(treeState(tmpdir()), 'run the study')).toThrow(/no git commit/);
  });
});

// ---------- documents, shards and README ----------

const MINI: StudyProfile = {
  ...QUICK_PROFILE,
  envs: ['gridhouse', 'texthouse'],
  horizons: ['short', 'medium', 'long'],
  variants: COMPARED,
  ablations: FULL_PROFILE.ablations,
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
    });
    expect(md).toContain(`Commit: \`${'c'.repeat(40)}\` (a clean working tree)`);
    expect(md).toContain(`committed at \`${'a'.repeat(40)}\`; amendments: Amendment 1 (\`bbbbbbbbbbbb\`, 7 of ${doc.runs.length} runs after it)`);
    expect(md).toContain('comes after the pre-registration: **yes**');
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
    expect(usage(['--workers', '0'])).toMatch(/^--workers must be an integer in \[1, 64\]/);
    expect(usage(['--sedes', '3'])).toMatch(/^unknown flag --sedes/);
    expect(usage(['--quick=1'])).toContain('--quick takes no value');
    expect(usage(['seeds'])).toContain('unexpected argument');
    expect(usage(['--fresh', '--report-only'])).toContain('--report-only');
    expect(usage(['--shard', '5/4'])).toMatch(/^--shard must be I\/N/);
    expect(usage(['--shard', '1/2', '--report-only'])).toContain('--shard and --report-only');
    expect(usage(['merge', '--shard', '1/2'])).toContain('merge takes only');
  });

  it('accepts the defaults, --quick with fewer seeds, shards, merge and --help', () => {
    expect(parseStudyFlags([])).toMatchObject({ merge: false, profile: FULL_PROFILE, seeds: 15, fresh: false, reportOnly: false, shard: null });
    expect(parseStudyFlags(['--shop-pilot'])).toMatchObject({ profile: SHOP_PILOT_PROFILE, seeds: 5 });
    expect(() => parseStudyFlags(['--shop-pilot', '--quick'])).toThrow(/--quick and --shop-pilot cannot go together/);
    expect(parseStudyFlags(['--quick', '--seeds=1', '--workers', '3'])).toMatchObject({ profile: QUICK_PROFILE, seeds: 1, workers: 3 });
    expect(parseStudyFlags(['--shard', '2/8', '--workers', '1'])).toMatchObject({ shard: { index: 2, count: 8 } });
    expect(parseStudyFlags(['merge', '--quick'])).toMatchObject({ merge: true, profile: QUICK_PROFILE });
    expect(parseStudyFlags(['--help'])).toBeNull();
  });

  it('the command exits with 2 and names the flag', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/study.ts', '--seeds', '1'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--seeds must be an integer in [3, 20]');
    expect(r.stderr).toContain('usage: npm run study');
  }, 60_000);
});
