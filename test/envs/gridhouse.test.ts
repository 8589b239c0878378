/**
 * GridHouse: determinism, oracle solvability, milestone order and dropout, text rendering (snapshot) and
 * option validation. Its features and admissible actions are gridhouse-actions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/prng.ts';
import { HORIZONS, type Horizon } from '../../envs/types.ts';
import { createGridHouse, type GridHouse } from '../../envs/gridhouse/gridhouse.ts';
import {
  DOOR_OPEN,
  FLAG_CLEAN,
  FLAG_COLD,
  FLAG_HOT,
  MAX_DOORS,
  MAX_MILESTONES,
  MAX_OBJECTS,
  MS_OPEN,
  MS_PLACE,
  MS_TAKE_KEY,
  MS_TAKE_OBJECT,
  MS_TREAT,
  MS_UNLOCK,
  OBJECT_KEY,
} from '../../envs/gridhouse/catalog.ts';
import { randomAdmissibleActions } from '../../envs/random-policy.ts';
import { allDone, play, seedsFrom } from './gridhouse-play.ts';

/** Milestone k's condition read from the raw state, written independently of the environment's Φ. */
function conditionHolds(env: GridHouse, b: number, k: number): boolean {
  const L = env.state.layouts;
  const s = env.state.slot[b]; // the episode's task instance
  const m = s * MAX_MILESTONES + k;
  const held = env.state.carried[b];
  const flags = env.state.objectFlags[b * MAX_OBJECTS];
  const wanted = [0, FLAG_HOT, FLAG_COLD, FLAG_CLEAN][L.treatment[s]];
  switch (L.milestoneKind[m]) {
    case MS_TAKE_KEY:
      return held >= 0 && L.objectKind[s * MAX_OBJECTS + held] === OBJECT_KEY;
    case MS_UNLOCK:
    case MS_OPEN:
      return env.state.doorState[b * MAX_DOORS + L.milestoneArg[m]] === DOOR_OPEN;
    case MS_TAKE_OBJECT:
      return held === 0;
    case MS_TREAT:
      return (flags & wanted) !== 0;
    case MS_PLACE:
      return env.state.objectLoc[b * MAX_OBJECTS] === L.destination[s] && (wanted === 0 || (flags & wanted) !== 0);
  }
  throw new Error('unknown milestone kind');
}

describe('GridHouse determinism', () => {
  it('same task seeds and rng give the same episodes, observations and state keys', () => {
    for (const horizon of HORIZONS) {
      const runs = [0, 1].map(() => {
        const env = createGridHouse({ horizon, batchSize: 16, milestoneDropout: 0.3 });
        const rng = new Rng(99);
        env.reset(seedsFrom(500, 16), rng);
        const trace: number[] = [];
        const obsSums: number[] = [];
        play(env, 'random', rng, () => {
          trace.push(...env.stateKey, ...env.milestone);
          let s = 0;
          for (let i = 0; i < env.obs.length; i++) s += env.obs[i] * ((i % 97) + 1);
          for (let i = 0; i < env.actionFeatures.length; i++) s += env.actionFeatures[i] * ((i % 89) + 1);
          obsSums.push(s);
        });
        return { trace, obsSums, steps: Array.from(env.steps), success: Array.from(env.success) };
      });
      expect(runs[1]).toEqual(runs[0]);
      expect(runs[0].trace.length).toBeGreaterThan(0);
    }
  });

  it('equal task seeds give identical instances; different seeds give different ones', () => {
    const env = createGridHouse({ horizon: 'long', batchSize: 8 });
    env.reset([7, 7, 7, 7, 8, 8, 9, 10], new Rng(1));
    const frame = (b: number): string => JSON.stringify(env.renderFrame(b));
    for (let b = 1; b < 4; b++) {
      expect(frame(b)).toBe(frame(0));
      expect(env.stateKey[b]).toBe(env.stateKey[0]);
      expect(Array.from(env.obs.subarray(b * env.obsDim, (b + 1) * env.obsDim))).toEqual(Array.from(env.obs.subarray(0, env.obsDim)));
    }
    expect(frame(5)).toBe(frame(4));
    expect(new Set([frame(0), frame(4), frame(6), frame(7)]).size).toBe(4);
  });

  it('the state key ignores the step counter and tells states apart', () => {
    const env = createGridHouse({ horizon: 'medium', batchSize: 1 });
    const rng = new Rng(3);
    let checked = 0;
    for (let seed = 0; seed < 40 && checked < 10; seed++) {
      env.reset([seed], rng);
      const key0 = env.stateKey[0];
      // Find a move whose opposite is also possible afterwards, go there and back.
      for (let d = 0; d < 4; d++) {
        if (!env.actionMask[d]) continue;
        env.step(Int32Array.of(d));
        expect(env.stateKey[0]).not.toBe(key0);
        const back = (d + 2) % 4;
        expect(env.actionMask[back]).toBe(1);
        env.step(Int32Array.of(back));
        expect(env.steps[0]).toBe(2);
        expect(env.stateKey[0]).toBe(key0);
        checked++;
        break;
      }
    }
    expect(checked).toBe(10);
  });
});

describe('GridHouse oracle', () => {
  it.each(HORIZONS)('solves every task at %s within half the step limit', (horizon: Horizon) => {
    const B = 512;
    const env = createGridHouse({ horizon, batchSize: B });
    for (const start of [0, 100_000]) {
      env.reset(seedsFrom(start, B), new Rng(1));
      play(env, 'oracle', new Rng(1));
      for (let b = 0; b < B; b++) {
        expect(env.success[b], `seed ${start + b}`).toBe(1);
        expect(env.milestonesReached[b]).toBe(env.numMilestones[b]);
        expect(env.steps[b] * 2, `seed ${start + b} plan length ${env.steps[b]}`).toBeLessThanOrEqual(env.maxSteps);
      }
    }
  });

  it('finishes from states that random play left behind', () => {
    for (const horizon of ['medium', 'long'] as const) {
      const B = 256;
      const env = createGridHouse({ horizon, batchSize: B });
      const rng = new Rng(5);
      env.reset(seedsFrom(3000, B), rng);
      const actions = new Int32Array(B);
      for (let t = 0; t < 12; t++) {
        randomAdmissibleActions(env, rng, actions);
        env.step(actions);
      }
      play(env, 'oracle', rng);
      expect(env.success.reduce((a, x) => a + x, 0)).toBe(B);
    }
  });

  it('has more milestones and longer plans as the horizon grows', () => {
    const lengths: number[] = [];
    const milestones: number[] = [];
    for (const horizon of HORIZONS) {
      const env = createGridHouse({ horizon, batchSize: 128 });
      env.reset(seedsFrom(0, 128), new Rng(1));
      play(env, 'oracle', new Rng(1));
      lengths.push(env.steps.reduce((a, x) => a + x, 0) / 128);
      milestones.push(env.numMilestones[0]);
    }
    for (let i = 1; i < HORIZONS.length; i++) {
      expect(lengths[i]).toBeGreaterThan(lengths[i - 1]);
      expect(milestones[i]).toBeGreaterThan(milestones[i - 1]);
    }
    expect(milestones[0]).toBeLessThanOrEqual(2);
    expect(milestones[3]).toBeGreaterThanOrEqual(5);
  });
});

describe('GridHouse milestones', () => {
  it.each(['random', 'oracle'] as const)('fire exactly once each, in task order, when the state says so (%s policy)', (policy) => {
    for (const horizon of HORIZONS) {
      const B = 256;
      const env = createGridHouse({ horizon, batchSize: B });
      const rng = new Rng(11);
      env.reset(seedsFrom(7000, B), rng);
      const fired: number[][] = Array.from({ length: B }, () => []);
      const actions = new Int32Array(B);
      let total = 0;
      const wrong: string[] = []; // collected rather than asserted per step: expect() in a hot loop is slow
      while (!allDone(env)) {
        const before = Array.from(env.state.progress);
        const wasDone = Array.from(env.done);
        if (policy === 'oracle') env.oracleActions(actions);
        else randomAdmissibleActions(env, rng, actions);
        // The next milestone's condition must not hold before the step that completes it.
        for (let b = 0; b < B; b++) {
          if (!wasDone[b] && before[b] < env.numMilestones[b] && conditionHolds(env, b, before[b])) wrong.push(`${b}: milestone ${before[b] + 1} held early`);
        }
        env.step(actions);
        for (let b = 0; b < B; b++) {
          const k = env.milestone[b];
          if (wasDone[b]) {
            if (k !== 0) wrong.push(`${b}: milestone after the end`);
            continue;
          }
          if (k > 0) {
            fired[b].push(k);
            total++;
            if (k !== before[b] + 1) wrong.push(`${b}: milestone ${k} after ${before[b]}`);
            if (!conditionHolds(env, b, k - 1)) wrong.push(`${b}: milestone ${k} fired but its condition does not hold`);
          } else if (before[b] < env.numMilestones[b] && conditionHolds(env, b, before[b])) {
            wrong.push(`${b}: milestone ${before[b] + 1} holds but did not fire`);
          }
        }
      }
      expect(wrong.slice(0, 5)).toEqual([]);
      for (let b = 0; b < B; b++) {
        const M = env.numMilestones[b];
        expect(fired[b]).toEqual(Array.from({ length: fired[b].length }, (_, i) => i + 1));
        expect(env.milestonesReached[b]).toBe(fired[b].length);
        expect(env.success[b] === 1).toBe(fired[b].length === M);
      }
      expect(total).toBeGreaterThan(0);
    }
  });

  it('drops milestones at rate p without stopping the task', () => {
    const B = 1024;
    const env = createGridHouse({ horizon: 'long', batchSize: B, milestoneDropout: 0.5 });
    env.reset(seedsFrom(0, B), new Rng(2024));
    let reported = 0;
    const lastReported = new Int32Array(B);
    play(env, 'oracle', new Rng(0), () => {
      for (let b = 0; b < B; b++) {
        const k = env.milestone[b];
        if (k === 0) continue;
        reported++;
        expect(k).toBeGreaterThan(lastReported[b]);
        lastReported[b] = k;
      }
    });
    let detected = 0;
    for (let b = 0; b < B; b++) {
      expect(env.success[b]).toBe(1);
      detected += env.state.progress[b];
    }
    expect(detected).toBe(B * 6);
    const kept = reported / detected; // binomial, n = 6144: sd ≈ 0.0064
    expect(kept).toBeGreaterThan(0.47);
    expect(kept).toBeLessThan(0.53);
    expect(env.milestonesReached.reduce((a, x) => a + x, 0)).toBe(reported);
  });

  it('reports nothing at p = 1 and everything at p = 0', () => {
    for (const p of [0, 1]) {
      const env = createGridHouse({ horizon: 'short', batchSize: 64, milestoneDropout: p });
      env.reset(seedsFrom(0, 64), new Rng(1));
      play(env, 'oracle', new Rng(1));
      for (let b = 0; b < 64; b++) {
        expect(env.success[b]).toBe(1);
        expect(env.milestonesReached[b]).toBe(p === 0 ? env.numMilestones[b] : 0);
      }
    }
  });
});

describe('GridHouse text', () => {
  it('renders a fixed seed the same way', () => {
    const env = createGridHouse({ horizon: 'long', batchSize: 1 });
    env.reset([2024], new Rng(1));
    const pages: string[] = [];
    const snapshot = (): void => {
      const actions = Array.from({ length: env.maxActions }, (_, a) => `${a}${env.actionMask[a] ? ' ' : 'x'} ${env.describeAction(0, a)}`);
      pages.push([`step ${env.steps[0]}, milestone ${env.milestone[0]}`, env.describeObservation(0), ...actions].join('\n'));
    };
    snapshot();
    const actions = new Int32Array(1);
    for (let t = 0; t < 12; t++) {
      env.oracleActions(actions);
      env.step(actions);
    }
    snapshot();
    expect(env.describeTask(0)).toMatchSnapshot('task');
    expect(env.describeMilestones(0)).toMatchSnapshot('milestones');
    expect(pages.join('\n\n')).toMatchSnapshot('observations and actions');
    expect(env.renderFrame(0)).toMatchSnapshot('frame');
  });

  it('describes every horizon without throwing', () => {
    for (const horizon of HORIZONS) {
      const env = createGridHouse({ horizon, batchSize: 4 });
      env.reset([1, 2, 3, 4], new Rng(1));
      for (let b = 0; b < 4; b++) {
        expect(env.describeMilestones(b)).toHaveLength(env.numMilestones[b]);
        expect(env.describeObservation(b)).toContain('@');
        const f = env.renderFrame(b);
        expect(f.tiles).toHaveLength(f.width * f.height);
      }
    }
  });
});

describe('GridHouse options', () => {
  it.each([
    [{ horizon: 'huge', batchSize: 4 }, /horizon/],
    [{ horizon: 'tiny', batchSize: 0 }, /batchSize/],
    [{ horizon: 'tiny', batchSize: 4097 }, /batchSize/],
    [{ horizon: 'tiny', batchSize: 2.5 }, /batchSize/],
    [{ horizon: 'tiny', batchSize: 4, milestoneDropout: -0.1 }, /milestoneDropout/],
    [{ horizon: 'tiny', batchSize: 4, milestoneDropout: 1.5 }, /milestoneDropout/],
    [{ horizon: 'tiny', batchSize: 4, milestoneDropout: Number.NaN }, /milestoneDropout/],
  ])('rejects %j', (options, message) => {
    expect(() => createGridHouse(options as never)).toThrow(message);
  });

  it('rejects bad task seeds and episode indices', () => {
    const env = createGridHouse({ horizon: 'tiny', batchSize: 2 });
    expect(() => env.reset([1], new Rng(1))).toThrow(/taskSeeds must have batchSize/);
    expect(() => env.reset([1, -1], new Rng(1))).toThrow(/taskSeeds\[1\]/);
    expect(() => env.reset([1.5, 2], new Rng(1))).toThrow(/taskSeeds\[0\]/);
    env.reset([1, 2], new Rng(1));
    expect(() => env.describeObservation(2)).toThrow(/episode/);
    expect(() => env.describeAction(0, 8)).toThrow(/action/);
  });
});
