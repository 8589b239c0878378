/**
 * TextHouse: options, determinism, oracle solvability, the milestone detector, dropout and the
 * random-policy calibration. Its commands, state keys, features and text are texthouse-commands.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_FEATURE_NAMES, OBS_FEATURE_NAMES } from '../../envs/texthouse/features.ts';
import { createTextHouse } from '../../envs/texthouse/texthouse.ts';
import { M_BRING, M_FIND, M_FIND2, M_LIGHT, M_PLACE, M_PLACE2, M_PROCESS, M_TAKE, M_TAKE2 } from '../../envs/texthouse/vocabulary.ts';
import { HORIZONS, type Horizon } from '../../envs/types.ts';
import { Rng } from '../../src/prng.ts';
import { make, play, randomActions, seedsFrom, verbOf } from './texthouse-play.ts';

describe('TextHouse options', () => {
  it('rejects bad options and task seeds with clear errors', () => {
    expect(() => createTextHouse({ horizon: 'huge' as Horizon, batchSize: 4 })).toThrow(/horizon must be one of/);
    expect(() => createTextHouse({ horizon: 'long', batchSize: 0 })).toThrow(/batchSize/);
    expect(() => createTextHouse({ horizon: 'long', batchSize: 2.5 })).toThrow(/batchSize/);
    expect(() => createTextHouse({ horizon: 'long', batchSize: 5000 })).toThrow(/batchSize/);
    expect(() => createTextHouse({ horizon: 'long', batchSize: 4, milestoneDropout: 1.5 })).toThrow(/milestoneDropout/);
    expect(() => createTextHouse({ horizon: 'long', batchSize: 4, milestoneDropout: Number.NaN })).toThrow(/milestoneDropout/);
    const env = make('short', 2);
    expect(() => env.step(new Int32Array(2))).toThrow(/reset/);
    expect(() => env.reset([1], new Rng(0))).toThrow(/taskSeeds must have batchSize \(2\) entries/);
    expect(() => env.reset([1, -1], new Rng(0))).toThrow(/taskSeeds\[1\] must be an integer/);
    expect(() => env.reset([1, 0.5], new Rng(0))).toThrow(/taskSeeds\[1\] must be an integer/);
    env.reset([1, 2], new Rng(0));
    expect(() => env.describeAction(0, env.maxActions)).toThrow(/action must be/);
    expect(() => env.describeTask(2)).toThrow(/episode must be/);
  });

  it('has the documented sizes at every horizon', () => {
    for (const horizon of HORIZONS) {
      const env = make(horizon, 3);
      expect(env.obsDim).toBe(OBS_FEATURE_NAMES.length);
      expect(env.actionDim).toBe(ACTION_FEATURE_NAMES.length);
      expect(env.obsDim).toBeLessThanOrEqual(96);
      expect(env.actionDim).toBeLessThanOrEqual(32);
      expect(env.maxActions).toBeLessThanOrEqual(48);
      expect(env.obs.length).toBe(3 * env.obsDim);
      expect(env.actionFeatures.length).toBe(3 * env.maxActions * env.actionDim);
    }
    expect(make('tiny', 1).maxMilestones).toBeLessThanOrEqual(2);
    expect(make('long', 1).maxMilestones).toBe(6);
  });
});

describe('TextHouse determinism', () => {
  it('replays identically from the same seeds', () => {
    const start = () => {
      const env = make('medium', 16, 0.3);
      const rng = new Rng(42);
      env.reset(seedsFrom(rng, 16), rng);
      return { env, rng };
    };
    const x = start();
    const y = start();
    const same = (p: ArrayLike<number>, q: ArrayLike<number>) => p.length === q.length && Array.prototype.every.call(p, (v: number, i: number) => v === q[i]);
    const ax = new Int32Array(16);
    const ay = new Int32Array(16);
    let steps = 0;
    while (!x.env.done.every((d) => d === 1)) {
      randomActions(x.env, x.rng, ax);
      randomActions(y.env, y.rng, ay);
      x.env.step(ax);
      y.env.step(ay);
      steps++;
      for (const k of ['stateKey', 'milestone', 'milestonesReached', 'done', 'success', 'actionMask', 'obs', 'actionFeatures'] as const) {
        expect(same(x.env[k], y.env[k]), `${k} after step ${steps}`).toBe(true);
      }
    }
    expect(steps).toBe(x.env.maxSteps);
  });

  it('gives equal task seeds the same instance (a GRPO group) and different seeds different ones', () => {
    const env = make('long', 6);
    env.reset([77, 77, 77, 78, 79, 80], new Rng(1));
    const A = env.maxActions;
    const D = env.actionDim;
    for (const b of [1, 2]) {
      expect(env.describeTask(b)).toBe(env.describeTask(0));
      expect(env.stateKey[b]).toBe(env.stateKey[0]);
      expect(env.obs.slice(b * env.obsDim, (b + 1) * env.obsDim)).toEqual(env.obs.slice(0, env.obsDim));
      expect(env.actionMask.slice(b * A, (b + 1) * A)).toEqual(env.actionMask.slice(0, A));
      expect(env.actionFeatures.slice(b * A * D, (b + 1) * A * D)).toEqual(env.actionFeatures.slice(0, A * D));
    }
    env.step(new Int32Array(6).fill(3)); // the same command keeps the group in step
    expect(env.stateKey[1]).toBe(env.stateKey[0]);
    expect(env.stateKey[2]).toBe(env.stateKey[0]);
    const layouts = new Set([0, 3, 4, 5].map((b) => env.describeTask(b) + env.describeObservation(b)));
    expect(layouts.size).toBeGreaterThan(1);
  });
});

describe('TextHouse oracle', () => {
  it('solves every task at every horizon, well inside the step limit', () => {
    for (const horizon of HORIZONS) {
      const env = make(horizon, 100);
      const oracle = (out: Int32Array) => env.oracleActions(out);
      const stats = play(env, oracle, new Rng(horizon.length), 3);
      expect(stats.success, horizon).toBe(stats.episodes);
      let longest = 0;
      for (let b = 0; b < env.batchSize; b++) longest = Math.max(longest, env.steps[b]);
      expect(longest * 2, horizon).toBeLessThanOrEqual(env.maxSteps);
    }
  });

  it('finishes the task when it takes over from a random policy mid-episode', () => {
    for (const horizon of HORIZONS) {
      const env = make(horizon, 64);
      const rng = new Rng(5);
      const acts = new Int32Array(64);
      env.reset(seedsFrom(rng, 64), rng);
      const randomSteps = Math.floor(env.maxSteps / 3);
      for (let t = 0; t < randomSteps; t++) {
        randomActions(env, rng, acts);
        env.step(acts);
      }
      while (!env.done.every((d) => d === 1)) {
        env.oracleActions(acts);
        env.step(acts);
      }
      expect(
        env.success.every((x) => x === 1),
        horizon,
      ).toBe(true);
    }
  });
});

describe('TextHouse milestone detector', () => {
  // The command that can complete each milestone kind (Φ fires only on a step that did something towards it).
  const CAUSE: Record<number, string[]> = {
    [M_FIND]: ['goto', 'open'],
    [M_FIND2]: ['goto', 'open'],
    [M_TAKE]: ['take'],
    [M_TAKE2]: ['take'],
    [M_BRING]: ['goto'],
    [M_PROCESS]: ['heat', 'cool', 'clean'],
    [M_LIGHT]: ['use'],
    [M_PLACE]: ['put'],
    [M_PLACE2]: ['put'],
  };

  it('fires each milestone at most once, in task order, by the command that achieves it; success means all fired', () => {
    for (const horizon of HORIZONS) {
      const env = make(horizon, 64);
      const rng = new Rng(11);
      const acts = new Int32Array(64);
      for (let round = 0; round < 4; round++) {
        env.reset(seedsFrom(rng, 64), rng);
        const last = new Int32Array(64);
        const useOracle = round === 0;
        while (!env.done.every((d) => d === 1)) {
          if (useOracle) env.oracleActions(acts);
          else randomActions(env, rng, acts);
          const verbs = Array.from(acts, (a, b) => (env.done[b] ? '' : verbOf(env, b, a)));
          const before = Uint32Array.from(env.stateKey);
          env.step(acts);
          for (let b = 0; b < 64; b++) {
            const m = env.milestone[b];
            if (m === 0) continue;
            expect(m, `${horizon} episode ${b}`).toBe(last[b] + 1);
            last[b] = m;
            const kind = env.state.msKind[b * env.state.M + m - 1];
            expect(CAUSE[kind], `${horizon} kind ${kind} by ${verbs[b]}`).toContain(verbs[b]);
            expect(env.stateKey[b]).not.toBe(before[b]);
          }
        }
        for (let b = 0; b < 64; b++) {
          expect(env.milestonesReached[b]).toBe(last[b]);
          expect(env.success[b] === 1, `${horizon} episode ${b}`).toBe(env.milestonesReached[b] === env.numMilestones[b]);
          expect(env.describeMilestones(b)).toHaveLength(env.numMilestones[b]);
        }
        if (useOracle) expect(env.success.every((x) => x === 1)).toBe(true);
      }
    }
  });

  it('drops milestones at rate p, decided from the rollout rng, while the task still progresses', () => {
    const env = make('long', 250, 0.5);
    const acts = new Int32Array(250);
    let fired = 0;
    let total = 0;
    const rng = new Rng(3);
    for (let round = 0; round < 4; round++) {
      env.reset(seedsFrom(rng, 250), rng);
      const last = new Int32Array(250);
      while (!env.done.every((d) => d === 1)) {
        env.oracleActions(acts);
        env.step(acts);
        for (let b = 0; b < 250; b++) {
          if (env.milestone[b] === 0) continue;
          expect(env.milestone[b]).toBeGreaterThan(last[b]); // reported ones keep task order
          last[b] = env.milestone[b];
        }
      }
      for (let b = 0; b < 250; b++) {
        expect(env.success[b]).toBe(1);
        fired += env.milestonesReached[b];
        total += env.numMilestones[b];
      }
    }
    // ~5000 milestones: the standard deviation of the rate is ~0.007.
    expect(Math.abs(fired / total - 0.5)).toBeLessThan(0.03);

    const all = make('medium', 50, 1);
    const r = new Rng(4);
    all.reset(seedsFrom(r, 50), r);
    while (!all.done.every((d) => d === 1)) {
      all.oracleActions(acts);
      all.step(acts);
      expect(all.milestone.every((m) => m === 0)).toBe(true);
    }
    expect(all.success.every((x) => x === 1)).toBe(true);
  });
});

describe('TextHouse calibration (random admissible policy)', () => {
  it('long: almost never solved, often partly solved', () => {
    const env = make('long', 100);
    const rng = new Rng(1234);
    const stats = play(env, (out) => randomActions(env, rng, out), rng, 5);
    expect(stats.success / stats.episodes).toBeLessThan(0.01);
    expect(stats.partial / stats.episodes).toBeGreaterThan(0.4);
  });

  it('tiny: solved often enough to learn from within a few iterations', () => {
    const env = make('tiny', 100);
    const rng = new Rng(99);
    const stats = play(env, (out) => randomActions(env, rng, out), rng, 5);
    expect(stats.success / stats.episodes).toBeGreaterThan(0.2);
    expect(stats.success / stats.episodes).toBeLessThan(0.5);
  });
});
