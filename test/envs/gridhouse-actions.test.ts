/**
 * GridHouse's features and actions: feature vectors that depend only on the state, admissible masks,
 * commands and their effects.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/prng.ts';
import { HORIZONS } from '../../envs/types.ts';
import { createGridHouse, type GridHouse } from '../../envs/gridhouse/gridhouse.ts';
import { ACTION_FEATURE_NAMES, OBS_FEATURE_NAMES, OBS_TIME } from '../../envs/gridhouse/features.ts';
import { NUM_ACTIONS } from '../../envs/gridhouse/catalog.ts';
import { randomAdmissibleActions } from '../../envs/random-policy.ts';
import { play, seedsFrom } from './gridhouse-play.ts';

/** Hash of episode b's features and mask, leaving out the one entry that counts steps (OBS_TIME). */
function featureHash(env: GridHouse, b: number): number {
  let h = 0x811c9dc5;
  const mix = (x: number): void => {
    h = Math.imul(h ^ x, 0x01000193);
  };
  const obsBits = new Uint32Array(env.obs.buffer, b * env.obsDim * 4, env.obsDim);
  for (let i = 0; i < env.obsDim; i++) if (i !== OBS_TIME) mix(obsBits[i]);
  const n = env.maxActions * env.actionDim;
  const actBits = new Uint32Array(env.actionFeatures.buffer, b * n * 4, n);
  for (let i = 0; i < n; i++) mix(actBits[i]);
  for (let a = 0; a < env.maxActions; a++) mix(env.actionMask[b * env.maxActions + a]);
  return h >>> 0;
}

describe('GridHouse features', () => {
  it('depend on the state alone: equal state keys ⇒ equal features, whatever the history', () => {
    for (const horizon of HORIZONS) {
      const B = 64;
      const env = createGridHouse({ horizon, batchSize: B });
      const rng = new Rng(17);
      env.reset(seedsFrom(40, B, 8), rng);
      const seen = new Map<number, number>();
      let compared = 0;
      const wrong: string[] = [];
      const record = (): void => {
        for (let b = 0; b < B; b++) {
          if (env.done[b]) continue;
          const fingerprint = featureHash(env, b);
          const before = seen.get(env.stateKey[b]);
          if (before === undefined) seen.set(env.stateKey[b], fingerprint);
          else {
            compared++;
            if (before !== fingerprint) wrong.push(`${horizon} episode ${b} step ${env.steps[b]}`);
          }
        }
      };
      record();
      play(env, 'random', rng, record);
      expect(wrong.slice(0, 5)).toEqual([]);
      expect(compared).toBeGreaterThan(100);
    }
  });
});

describe('GridHouse actions', () => {
  /** Expected admissibility read off the drawing snapshot, independently of the step code. */
  function expectedMask(env: GridHouse, b: number): number[] {
    const f = env.renderFrame(b);
    const furniture = new Map<number, { kind: string; objects: number }>();
    for (const it of f.items) {
      const c = it.y * f.width + it.x;
      if (it.kind === 'appliance' || it.kind === 'receptacle') furniture.set(c, { kind: it.kind, objects: furniture.get(c)?.objects ?? 0 });
    }
    for (const it of f.items) {
      const c = it.y * f.width + it.x;
      if (it.kind === 'object' || it.kind === 'key') furniture.get(c)!.objects++;
    }
    const here = f.agent.y * f.width + f.agent.x;
    const held = f.carrying;
    const holdsKey = held?.endsWith(' key') === true;
    const mask: number[] = [];
    const cells = [here - f.width, here + 1, here + f.width, here - 1];
    for (const c of cells) mask.push(!furniture.has(c) && (f.tiles[c] === '.' || f.tiles[c] === '+') ? 1 : 0);
    for (const c of cells) {
      const piece = furniture.get(c);
      let ok = false;
      if (f.tiles[c] === 'D') ok = true;
      else if (f.tiles[c] === 'L') ok = holdsKey;
      else if (piece?.kind === 'receptacle') ok = (held !== null && !holdsKey) || (held === null && piece.objects > 0);
      else if (piece?.kind === 'appliance') {
        const label = f.items.find((it) => it.y * f.width + it.x === c)!.label;
        const adjective = { microwave: 'hot', fridge: 'cold', sink: 'clean' }[label]!;
        ok = held !== null && !holdsKey && !held.split(' ').includes(adjective);
      }
      mask.push(ok ? 1 : 0);
    }
    return mask;
  }

  it.each(['random', 'oracle'] as const)('masks match the drawing along %s play', (policy) => {
    for (const horizon of HORIZONS) {
      const B = 24;
      const env = createGridHouse({ horizon, batchSize: B });
      const rng = new Rng(31);
      env.reset(seedsFrom(900, B), rng);
      const wrong: string[] = [];
      const check = (): void => {
        for (let b = 0; b < B; b++) {
          if (env.done[b]) continue;
          const got = Array.from(env.actionMask.subarray(b * NUM_ACTIONS, (b + 1) * NUM_ACTIONS));
          const want = expectedMask(env, b);
          if (got.join() !== want.join()) wrong.push(`${horizon} episode ${b} step ${env.steps[b]}: ${got.join('')} ≠ ${want.join('')}`);
        }
      };
      check();
      play(env, policy, rng, check);
      expect(wrong.slice(0, 5)).toEqual([]);
    }
  });

  it('masks match the drawing; admissible actions change the state, inadmissible ones throw', () => {
    for (const horizon of HORIZONS) {
      const G = NUM_ACTIONS;
      const env = createGridHouse({ horizon, batchSize: G });
      const rng = new Rng(77);
      const actions = new Int32Array(G);
      let branches = 0;
      for (let seed = 0; seed < 6; seed++) {
        const prefix = rng.nextInt(env.maxSteps - 1);
        env.reset(seedsFrom(seed, G, G), rng);
        // The G copies of one task follow episode 0's random actions, then each tries a different action.
        for (let t = 0; t < prefix && !env.done[0]; t++) {
          randomAdmissibleActions(env, rng, actions);
          actions.fill(actions[0]);
          env.step(actions);
          expect(expectedMask(env, 0)).toEqual(Array.from(env.actionMask.subarray(0, G)));
        }
        if (env.done[0]) continue;
        const key = env.stateKey[0];
        const mask = Array.from(env.actionMask.subarray(0, G));
        expect(mask.some((m) => m === 1)).toBe(true);
        const safe = mask.indexOf(1);
        for (let a = 0; a < G; a++) {
          if (mask[a]) continue;
          actions.fill(safe);
          actions[a] = a;
          expect(() => env.step(actions)).toThrow(/not admissible in episode/);
          expect(env.stateKey[a]).toBe(key); // a throwing step changes nothing
        }
        for (let a = 0; a < G; a++) actions[a] = mask[a] ? a : safe;
        env.step(actions);
        for (let a = 0; a < G; a++) if (mask[a]) expect(env.stateKey[a], `action ${env.describeAction(a, a)}`).not.toBe(key);
        branches++;
      }
      expect(branches).toBeGreaterThan(2);
    }
  });

  it('writes finite features of the declared sizes, one-hot action types and a bias on admissible candidates', () => {
    const env = createGridHouse({ horizon: 'long', batchSize: 32 });
    expect(env.obsDim).toBeLessThanOrEqual(96);
    expect(env.obsDim).toBe(OBS_FEATURE_NAMES.length);
    expect(env.actionDim).toBe(ACTION_FEATURE_NAMES.length);
    expect(env.obs.length).toBe(32 * env.obsDim);
    expect(env.actionFeatures.length).toBe(32 * env.maxActions * env.actionDim);
    const rng = new Rng(8);
    env.reset(seedsFrom(0, 32), rng);
    let nonFinite = 0;
    play(env, 'random', rng, () => {
      for (const x of env.obs) if (!Number.isFinite(x)) nonFinite++;
      for (const x of env.actionFeatures) if (!Number.isFinite(x)) nonFinite++;
    });
    expect(nonFinite).toBe(0);
    for (let b = 0; b < 32; b++) {
      for (let a = 0; a < env.maxActions; a++) {
        const row = env.actionFeatures.subarray((b * env.maxActions + a) * env.actionDim, (b * env.maxActions + a + 1) * env.actionDim);
        expect(row[0] + row[1]).toBe(1);
        expect(row[env.actionDim - 1]).toBe(env.actionMask[b * env.maxActions + a]);
      }
    }
  });
});
