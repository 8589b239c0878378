/**
 * The study's run matrix without training: variants (registry methods, extra variants and ablations),
 * the matrix, env-step budgets and step limits, shards, resume and the run store, and the time estimate.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRunsFromStudy, loadStoredRuns, runsDir, saveStoredRun } from '../../cli/study-store.ts';
import { ABLATIONS, CONFIG_FIELDS, LATER_KEYS, type TrainConfig } from '../../src/config.ts';
import { METHOD_NAMES, methodSpec } from '../../src/methods/registry.ts';
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
  shardOfStudy,
  shardRuns,
  stepBudget,
  stepLimit,
} from '../../src/study/matrix.ts';
import { FULL_PROFILE, QUICK_PROFILE } from '../../src/study/profile.ts';
import { VARIANT_NAMES, variantSpec } from '../../src/study/variants.ts';
import { fakeRun } from './synthetic-runs.ts';

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
    // Study v3's matrix; the detector study's arms (amendment 2) are test/study/detector-study.test.ts's.
    const specs = buildMatrix({ ...FULL_PROFILE, detector: [] }, seedList(FULL_PROFILE, FULL_PROFILE.seeds));
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

    it('shards of a study balanced on its committed runs tile the matrix, whatever one shard has trained since', () => {
      // Half the matrix committed (as study v3's runs were when the detector study was sharded).
      const committedKeys = new Set(specs.filter((_, i) => i % 2 === 0).map(runKey));
      const first = shardOfStudy(specs, { index: 1, count: 2 }, committedKeys, (s) => eta.runSeconds(s));
      // Shard 2 runs later in the same folder, after shard 1's runs were stored; it still balances on the committed store.
      const second = shardOfStudy(specs, { index: 2, count: 2 }, committedKeys, (s) => eta.runSeconds(s));
      const keys = [...first, ...second].map(runKey);
      expect(keys.length).toBe(specs.length);
      expect(new Set(keys)).toEqual(new Set(specs.map(runKey)));
      const newIn = (part: typeof specs) => part.filter((s) => !committedKeys.has(runKey(s))).length;
      expect(Math.abs(newIn(first) - newIn(second))).toBeLessThan(specs.length / 20);
      // Had shard 2 counted shard 1's stored runs as free, the partition would move and leave runs in no shard.
      const trained = new Set([...committedKeys, ...first.map(runKey)]);
      const moved = shardOfStudy(specs, { index: 2, count: 2 }, trained, (s) => eta.runSeconds(s));
      expect(new Set([...first, ...moved].map(runKey)).size).toBeLessThan(specs.length);
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
      const specs = buildMatrix(
        { envs: ['gridhouse'], variants: ['grpo', 'beacon'], horizons: ['short'], ablationHorizon: 'long', ablations: [], detector: [] },
        [1, 2],
      );
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
      const [spec] = buildMatrix({ envs: ['gridhouse'], variants: ['beacon'], horizons: ['short'], ablationHorizon: 'long', ablations: [], detector: [] }, [1]);
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
      const specs = buildMatrix(
        { envs: ['texthouse'], variants: ['grpo', 'beacon'], horizons: ['long'], ablationHorizon: 'long', ablations: ['gamma1'], detector: [] },
        [1],
      );
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
