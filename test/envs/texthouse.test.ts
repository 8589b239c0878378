/**
 * TextHouse: options, determinism, oracle solvability, the milestone detector, dropout, admissibility,
 * state keys, incremental features, text rendering and the random-policy calibration.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_FEATURE_NAMES, OBS_FEATURE_NAMES, initActionFeatures } from '../../envs/texthouse/features.ts';
import { HELD, NONE, START } from '../../envs/texthouse/state.ts';
import { type TextHouse, createTextHouse } from '../../envs/texthouse/texthouse.ts';
import {
  M_BRING,
  M_FIND,
  M_FIND2,
  M_LIGHT,
  M_PLACE,
  M_PLACE2,
  M_PROCESS,
  M_TAKE,
  M_TAKE2,
  R_FRIDGE,
  R_MICROWAVE,
  R_SINKBASIN,
  REC_OPENABLE,
} from '../../envs/texthouse/vocabulary.ts';
import { HORIZONS, type Horizon } from '../../envs/types.ts';
import { Rng } from '../../src/prng.ts';

function make(horizon: Horizon, batchSize: number, milestoneDropout = 0): TextHouse {
  return createTextHouse({ horizon, batchSize, milestoneDropout }) as TextHouse;
}

function seedsFrom(rng: Rng, n: number): Uint32Array {
  const seeds = new Uint32Array(n);
  for (let i = 0; i < n; i++) seeds[i] = rng.nextUint32();
  return seeds;
}

/** Uniformly random admissible action for every live episode. */
function randomActions(env: TextHouse, rng: Rng, out: Int32Array): void {
  const A = env.maxActions;
  for (let b = 0; b < env.batchSize; b++) {
    if (env.done[b]) continue;
    let n = 0;
    for (let a = 0; a < A; a++) n += env.actionMask[b * A + a];
    let k = rng.nextInt(n);
    for (let a = 0; a < A; a++) {
      if (env.actionMask[b * A + a] && k-- === 0) {
        out[b] = a;
        break;
      }
    }
  }
}

const VERB_NAMES = ACTION_FEATURE_NAMES.slice(0, 12).map((n) => n.slice('verb:'.length));
function verbOf(env: TextHouse, b: number, a: number): string {
  const off = (b * env.maxActions + a) * env.actionDim;
  for (let v = 0; v < VERB_NAMES.length; v++) if (env.actionFeatures[off + v] === 1) return VERB_NAMES[v];
  throw new Error(`slot ${a} has no verb`);
}

const feature = (name: string) => ACTION_FEATURE_NAMES.indexOf(name);
const obsFeature = (name: string) => OBS_FEATURE_NAMES.indexOf(name);

/**
 * A policy that sees only what a learned policy sees (observation, candidate features, mask) and scores
 * candidates by hand. If it solves the tasks, the features carry what a small network needs to learn them.
 */
function featurePolicy(env: TextHouse, out: Int32Array): void {
  const { maxActions: A, actionDim: D, obsDim } = env;
  const f = env.actionFeatures;
  const F = {
    target: feature('obj:is_target'),
    placed: feature('obj:placed'),
    processed: feature('obj:processed'),
    dest: feature('rec:is_destination'),
    appliance: feature('rec:is_needed_appliance'),
    unexplored: feature('rec:unexplored'),
    seen: feature('rec:target_seen_here'),
    closed: feature('rec:closed'),
  };
  const holdTarget = obsFeature('holding:target');
  const holdOther = obsFeature('holding:other');
  const needsProcess = [obsFeature('family:pick_clean_then_place'), obsFeature('family:pick_heat_then_place'), obsFeature('family:pick_cool_then_place')];
  const light = obsFeature('family:look_at_obj_in_light');
  const heldProcessed = obsFeature('held:processed');
  for (let b = 0; b < env.batchSize; b++) {
    if (env.done[b]) continue;
    const o = b * obsDim;
    const processing = needsProcess.some((i) => env.obs[o + i] === 1) && env.obs[o + heldProcessed] === 0;
    let best = -1;
    let bestScore = -Infinity;
    for (let a = 0; a < A; a++) {
      if (!env.actionMask[b * A + a]) continue;
      const off = (b * A + a) * D;
      const verb = verbOf(env, b, a);
      const is = (k: number) => f[off + k] === 1;
      let score = 0;
      if (env.obs[o + holdOther] === 1) {
        score = verb === 'put' ? 10 : verb === 'open' ? 5 : verb === 'goto' && !is(F.closed) ? 1 : 0;
      } else if (env.obs[o + holdTarget] === 1) {
        const goal = processing || env.obs[o + light] === 1 ? F.appliance : F.dest;
        if (processing) score = ['heat', 'cool', 'clean'].includes(verb) && is(F.appliance) ? 10 : 0;
        else if (env.obs[o + light] === 1) score = verb === 'use' ? 10 : 0;
        else score = verb === 'put' && is(F.dest) ? 10 : 0;
        if (verb === 'open' && is(goal)) score = 9;
        if (verb === 'goto' && is(goal)) score = 8;
      } else {
        if (verb === 'take' && is(F.target) && !is(F.placed)) score = 10;
        else if (verb === 'goto' && is(F.seen)) score = 9;
        else if (verb === 'open' && is(F.unexplored)) score = 8;
        else if (verb === 'goto' && is(F.unexplored)) score = 7;
        else if (verb === 'goto') score = 1;
      }
      if (score > bestScore) {
        bestScore = score;
        best = a;
      }
    }
    out[b] = best;
  }
}

interface Stats {
  episodes: number;
  success: number;
  partial: number;
  failure: number;
  meanSteps: number;
}

function play(env: TextHouse, policy: (out: Int32Array) => void, rng: Rng, rounds: number): Stats {
  const acts = new Int32Array(env.batchSize);
  const s = { episodes: 0, success: 0, partial: 0, failure: 0, meanSteps: 0 };
  for (let i = 0; i < rounds; i++) {
    env.reset(seedsFrom(rng, env.batchSize), rng);
    while (!env.done.every((d) => d === 1)) {
      policy(acts);
      env.step(acts);
    }
    for (let b = 0; b < env.batchSize; b++) {
      s.episodes++;
      s.meanSteps += env.steps[b];
      if (env.success[b]) s.success++;
      else if (env.milestonesReached[b] > 0) s.partial++;
      else s.failure++;
    }
  }
  s.meanSteps /= s.episodes;
  return s;
}

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

describe('TextHouse commands, state keys and features', () => {
  /** The admissibility rules, restated from the state independently of commands.ts. */
  function expectedMask(env: TextHouse, b: number, a: number): boolean {
    const s = env.state;
    const loc = s.loc[b];
    const held = s.held[b];
    const here = loc === START ? -1 : s.recType[b * s.R + loc];
    const open = loc !== START && s.recClosed[b * s.R + loc] === 0;
    if (a < s.R) return a < s.nRec[b] && a !== loc;
    if (a < s.R + s.O) return a - s.R < s.nObj[b] && held === NONE && open && s.objLoc[b * s.O + a - s.R] === loc;
    const idle = env.horizon === 'medium' || env.horizon === 'long';
    switch (a - s.R - s.O) {
      case 0:
        return here >= 0 && REC_OPENABLE[here] === 1 && !open;
      case 1:
        return here >= 0 && REC_OPENABLE[here] === 1 && open;
      case 2:
        return held !== NONE && open;
      case 3:
        return held !== NONE && here === R_MICROWAVE;
      case 4:
        return held !== NONE && here === R_FRIDGE;
      case 5:
        return held !== NONE && here === R_SINKBASIN;
      case 6:
        return loc !== START && loc === s.lampRec[b];
      case 7:
      case 8:
        return idle;
      case 9:
        return idle && loc !== START;
      default:
        return false;
    }
  }

  function stateString(env: TextHouse, b: number): string {
    const s = env.state;
    const part = (xs: Uint8Array, n: number, stride: number) => Array.from(xs.slice(b * stride, b * stride + n)).join(',');
    return [
      s.loc[b],
      s.held[b],
      s.progress[b],
      part(s.recClosed, s.nRec[b], s.R),
      part(s.explored, s.nRec[b], s.R),
      part(s.objLoc, s.nObj[b], s.O),
      part(s.objFlags, s.nObj[b], s.O),
    ].join('|');
  }

  it('keeps masks, state keys and admissible features equal to a from-scratch recomputation', () => {
    const errors: string[] = [];
    const check = (ok: boolean, what: () => string) => {
      if (!ok && errors.length < 5) errors.push(what());
    };
    for (const horizon of HORIZONS) {
      const B = 16;
      const env = make(horizon, B);
      const { maxActions: A, actionDim: D } = env;
      const rng = new Rng(21);
      const acts = new Int32Array(B);
      const scratch = new Float32Array(env.actionFeatures.length);
      const keyOf = new Map<string, number>();
      const stateOf = new Map<string, string>();
      for (let round = 0; round < 2; round++) {
        const seeds = seedsFrom(rng, B);
        env.reset(seeds, rng);
        while (!env.done.every((d) => d === 1)) {
          for (let b = 0; b < B; b++) {
            if (env.done[b]) continue;
            let admissible = 0;
            for (let a = 0; a < A; a++) {
              check((env.actionMask[b * A + a] === 1) === expectedMask(env, b, a), () => `${horizon} mask of "${env.describeAction(b, a)}"`);
              admissible += env.actionMask[b * A + a];
            }
            check(admissible > 0, () => `${horizon} episode ${b} has no admissible action`);
            check(env.stateKey[b] === env.state.computeKey(b), () => `${horizon} incremental key`);
            // Keys are a function of the state, and distinct states of a task get distinct keys.
            const st = stateString(env, b);
            const known = keyOf.get(`${seeds[b]}:${st}`);
            check(known === undefined || known === env.stateKey[b], () => `${horizon} two keys for one state`);
            keyOf.set(`${seeds[b]}:${st}`, env.stateKey[b]);
            const owner = stateOf.get(`${seeds[b]}:${env.stateKey[b]}`);
            check(owner === undefined || owner === st, () => `${horizon} one key for two states`);
            stateOf.set(`${seeds[b]}:${env.stateKey[b]}`, st);

            initActionFeatures(env.state, scratch, env.actionMask, b);
            for (let a = 0; a < A; a++) {
              if (!env.actionMask[b * A + a]) continue;
              for (let i = (b * A + a) * D, end = i + D; i < end; i++) {
                check(env.actionFeatures[i] === scratch[i], () => `${horizon} feature ${ACTION_FEATURE_NAMES[i % D]} of "${env.describeAction(b, a)}"`);
              }
            }
            for (let i = 0; i < env.obsDim; i++) {
              const x = env.obs[b * env.obsDim + i];
              check(x >= 0 && x <= 1, () => `${horizon} observation ${OBS_FEATURE_NAMES[i]} = ${x}`);
            }
          }
          randomActions(env, rng, acts);
          env.step(acts);
        }
      }
      expect(keyOf.size, horizon).toBeGreaterThan(100);
    }
    expect(errors).toEqual([]);
  });

  it('throws on an inadmissible action of a live episode and leaves the batch untouched', () => {
    const env = make('long', 4);
    const rng = new Rng(8);
    env.reset(seedsFrom(rng, 4), rng);
    const acts = new Int32Array(4);
    randomActions(env, rng, acts);
    const A = env.maxActions;
    const bad = env.actionMask.subarray(2 * A, 3 * A).indexOf(0);
    const keys = Uint32Array.from(env.stateKey);
    const wrong = Int32Array.from(acts);
    wrong[2] = bad;
    expect(() => env.step(wrong)).toThrow(/not admissible in episode 2/);
    wrong[2] = A;
    expect(() => env.step(wrong)).toThrow(/not admissible/);
    wrong[2] = -1;
    expect(() => env.step(wrong)).toThrow(/not admissible/);
    expect(env.stateKey).toEqual(keys);
    expect(Array.from(env.steps)).toEqual([0, 0, 0, 0]);
    env.step(acts);
    expect(Array.from(env.steps)).toEqual([1, 1, 1, 1]);
  });

  it('leaves the state key alone for idle commands and restores it when a distractor is put back', () => {
    const env = make('long', 1);
    const rng = new Rng(2);
    const s = env.state;
    const step = (a: number) => env.step(Int32Array.of(a));
    for (let seed = 0; seed < 50; seed++) {
      env.reset([seed], rng);
      // Go to a receptacle holding a visible non-target object.
      let r = 0;
      let o = -1;
      for (; r < s.nRec[0] && o < 0; r++) {
        if (s.recClosed[r]) continue;
        for (let i = 0; i < s.nObj[0]; i++) if (s.objLoc[i] === r && !s.objIsTarget[i]) o = i;
      }
      if (o < 0) continue;
      step(s.objLoc[o]);
      const key = env.stateKey[0];
      for (const idle of [7, 8, 9]) {
        step(s.fixedBase + idle);
        expect(env.stateKey[0]).toBe(key);
      }
      step(s.R + o);
      expect(s.objLoc[o]).toBe(HELD);
      expect(env.stateKey[0]).not.toBe(key);
      step(s.fixedBase + 2);
      expect(env.stateKey[0]).toBe(key);
      return;
    }
    throw new Error('no layout with a visible distractor in 50 seeds');
  });

  it('gives candidates features informative enough for a feature-only policy to solve most tasks', () => {
    for (const horizon of HORIZONS) {
      const env = make(horizon, 100);
      const stats = play(env, (out) => featurePolicy(env, out), new Rng(31), 2);
      expect(stats.success / stats.episodes, horizon).toBeGreaterThan(0.95);
    }
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

describe('TextHouse text', () => {
  function transcript(horizon: Horizon, seed: number): string {
    const env = make(horizon, 1);
    env.reset([seed], new Rng(0));
    const lines = [`task: ${env.describeTask(0)}`, `milestones: ${env.describeMilestones(0).join('; ')}`, env.describeObservation(0)];
    const admissible = () => {
      const xs: string[] = [];
      for (let a = 0; a < env.maxActions; a++) if (env.actionMask[a]) xs.push(env.describeAction(0, a));
      return xs.join(' | ');
    };
    lines.push(`  (${admissible()})`);
    const acts = new Int32Array(1);
    const act = (a: number) => {
      lines.push(`> ${env.describeAction(0, a)}`);
      acts[0] = a;
      env.step(acts);
      lines.push(env.describeObservation(0) + (env.milestone[0] ? ` [milestone ${env.milestone[0]}]` : ''));
    };
    for (let t = 0; !env.done[0]; t++) {
      env.oracleActions(acts);
      act(acts[0]);
      // After the first move, the idle commands too (look, inventory, examine) where the horizon offers them.
      if (t === 0) for (let a = env.state.fixedBase + 7; a < env.maxActions; a++) if (env.actionMask[a]) act(a);
    }
    return lines.join('\n');
  }

  it('renders a fixed seed the same way', () => {
    expect(transcript('tiny', 2)).toMatchInlineSnapshot(`
      "task: put some vase on countertop.
      milestones: take the vase; put the vase on the countertop
      You are in the middle of a room. Looking quickly around you, you see a countertop 1, a diningtable 1, and a desk 1.
        (go to countertop 1 | go to diningtable 1 | go to desk 1)
      > go to diningtable 1
      You arrive at diningtable 1. On the diningtable 1, you see a vase 1.
      > take vase 1 from diningtable 1
      You pick up the vase 1 from the diningtable 1. [milestone 1]
      > go to countertop 1
      You arrive at countertop 1. On the countertop 1, you see nothing.
      > put vase 1 on countertop 1
      You put the vase 1 on the countertop 1. [milestone 2]"
    `);
    expect(transcript('short', 2)).toMatchInlineSnapshot(`
      "task: look at pen under the desklamp.
      milestones: find the pen; take the pen; look at the pen under the desklamp
      You are in the middle of a room. Looking quickly around you, you see a countertop 1, a diningtable 1, a diningtable 2, a desk 1, and a sidetable 1.
        (go to countertop 1 | go to diningtable 1 | go to diningtable 2 | go to desk 1 | go to sidetable 1)
      > go to desk 1
      You arrive at desk 1. On the desk 1, you see a pen 1. [milestone 1]
      > take pen 1 from desk 1
      You pick up the pen 1 from the desk 1. [milestone 2]
      > go to sidetable 1
      You arrive at sidetable 1. On the sidetable 1, you see a desklamp 1.
      > use desklamp 1
      You turn on the desklamp 1. [milestone 3]"
    `);
    expect(transcript('long', 3)).toMatchInlineSnapshot(`
      "task: cool some apple and put it in drawer 1.
      milestones: find the apple; take the apple; bring the apple to the fridge; cool the apple with the fridge; put the apple in the drawer 1
      You are in the middle of a room. Looking quickly around you, you see a countertop 1, a countertop 2, a cabinet 1, a cabinet 2, a drawer 1, a drawer 2, a fridge 1, a shelf 1, a desk 1, a desk 2, a desk 3, and a desk 4.
        (go to countertop 1 | go to countertop 2 | go to cabinet 1 | go to cabinet 2 | go to drawer 1 | go to drawer 2 | go to fridge 1 | go to shelf 1 | go to desk 1 | go to desk 2 | go to desk 3 | go to desk 4 | look | inventory)
      > go to drawer 2
      You arrive at drawer 2. The drawer 2 is closed.
      > look
      You are facing the drawer 2. Next to it, you see nothing.
      > inventory
      You are not carrying anything.
      > examine drawer 2
      The drawer 2 is closed.
      > open drawer 2
      You open the drawer 2. The drawer 2 is open. In it, you see a pen 1, a fork 1, an apple 1, and a vase 1. [milestone 1]
      > take apple 1 from drawer 2
      You pick up the apple 1 from the drawer 2. [milestone 2]
      > go to fridge 1
      You arrive at fridge 1. The fridge 1 is closed. [milestone 3]
      > cool apple 1 with fridge 1
      You cool the apple 1 using the fridge 1. [milestone 4]
      > go to drawer 1
      You arrive at drawer 1. The drawer 1 is closed.
      > open drawer 1
      You open the drawer 1. The drawer 1 is open. In it, you see a book 1 and an alarmclock 1.
      > put apple 1 in drawer 1
      You put the apple 1 in the drawer 1. [milestone 5]"
    `);
    expect(transcript('medium', 9)).toMatchInlineSnapshot(`
      "task: find two spoon and put them on shelf.
      milestones: take the spoon; put the spoon on the shelf; take the other spoon; put the other spoon on the shelf
      You are in the middle of a room. Looking quickly around you, you see a countertop 1, a cabinet 1, a cabinet 2, a drawer 1, a microwave 1, a sinkbasin 1, a shelf 1, and a sidetable 1.
        (go to countertop 1 | go to cabinet 1 | go to cabinet 2 | go to drawer 1 | go to microwave 1 | go to sinkbasin 1 | go to shelf 1 | go to sidetable 1 | look | inventory)
      > go to drawer 1
      You arrive at drawer 1. The drawer 1 is closed.
      > look
      You are facing the drawer 1. Next to it, you see nothing.
      > inventory
      You are not carrying anything.
      > examine drawer 1
      The drawer 1 is closed.
      > open drawer 1
      You open the drawer 1. The drawer 1 is open. In it, you see a spoon 1, a vase 1, and an alarmclock 1.
      > take spoon 1 from drawer 1
      You pick up the spoon 1 from the drawer 1. [milestone 1]
      > go to shelf 1
      You arrive at shelf 1. On the shelf 1, you see a book 1.
      > put spoon 1 on shelf 1
      You put the spoon 1 on the shelf 1. [milestone 2]
      > go to countertop 1
      You arrive at countertop 1. On the countertop 1, you see a spoon 2 and a bread 1.
      > take spoon 2 from countertop 1
      You pick up the spoon 2 from the countertop 1. [milestone 3]
      > go to shelf 1
      You arrive at shelf 1. On the shelf 1, you see a spoon 1 and a book 1.
      > put spoon 2 on shelf 1
      You put the spoon 2 on the shelf 1. [milestone 4]"
    `);
  });
});
