/**
 * TextHouse's commands, admissibility, state keys, incremental features and text rendering (inline
 * snapshots of transcripts).
 */
import { describe, expect, it } from 'vitest';
import { ACTION_FEATURE_NAMES, OBS_FEATURE_NAMES, initActionFeatures } from '../../envs/texthouse/features.ts';
import { HELD, NONE, START } from '../../envs/texthouse/state.ts';
import type { TextHouse } from '../../envs/texthouse/texthouse.ts';
import { R_FRIDGE, R_MICROWAVE, R_SINKBASIN, REC_OPENABLE } from '../../envs/texthouse/vocabulary.ts';
import { HORIZONS, type Horizon } from '../../envs/types.ts';
import { Rng } from '../../src/prng.ts';
import { featurePolicy, make, play, randomActions, seedsFrom } from './texthouse-play.ts';

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
