/**
 * Shop mechanics (envs/shop/, docs/maths.md §10): WebShop's graded reward, BEACON's four milestones
 * per product in order, buying ends the order, equal seeds give equal tasks, and bad input is refused.
 */
import { describe, expect, it } from 'vitest';
import { createEnv } from '../../envs/index.ts';
import { ACTION_FEATURE_NAMES, ACTION_DIM, OBS_DIM, OBS_FEATURE_NAMES } from '../../envs/shop/features.ts';
import { goalConsistent, purchaseReward } from '../../envs/shop/reward.ts';
import type { Shop } from '../../envs/shop/shop.ts';
import { P_ITEM, P_RESULTS, S_BUY } from '../../envs/shop/state.ts';
import { Rng } from '../../src/prng.ts';

function shop(horizon: 'tiny' | 'short' | 'medium' | 'long', seeds: number[]): Shop {
  const env = createEnv('shop', { horizon, batchSize: seeds.length }) as Shop;
  env.reset(Uint32Array.from(seeds), new Rng(1));
  return env;
}

/** Plays the oracle until episode 0 ends; returns the milestones reported, in order. */
function playOracle(env: Shop): number[] {
  const out = new Int32Array(env.batchSize);
  const fired: number[] = [];
  while (!env.done[0]) {
    env.oracleActions(out);
    env.step(out);
    if (env.milestone[0]) fired.push(env.milestone[0]);
  }
  return fired;
}

describe('shop', () => {
  it('names every feature, and the layouts match the dimensions', () => {
    expect(ACTION_FEATURE_NAMES).toHaveLength(ACTION_DIM);
    expect(OBS_FEATURE_NAMES).toHaveLength(OBS_DIM);
    expect(ACTION_FEATURE_NAMES.some((n) => /match|goal|wanted|target/.test(n))).toBe(false);
  });

  it('long orders hold two products: eight milestones, fired in order by the oracle, reward 1', () => {
    const env = shop('long', [7]);
    expect(env.numMilestones[0]).toBe(8);
    expect(env.describeMilestones(0)).toHaveLength(8);
    expect(playOracle(env)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(env.success[0]).toBe(1);
    expect(env.reward[0]).toBe(1);
  });

  it('a results listing shows the option values each product offers, in its features and its text', () => {
    const env = shop('long', [11]);
    env.step(Int32Array.of(0)); // a query: its results page
    expect(env.state.page[0]).toBe(P_RESULTS);
    const s = env.state;
    const firstOption = ACTION_FEATURE_NAMES.indexOf('word:black');
    const n = s.shownCount(0);
    expect(n).toBeGreaterThan(0);
    for (let a = 0; a < n; a++) {
      const opts = s.prodOpts[s.lineIndex(0) * s.P + s.resultAt(0, s.query[0], a)];
      const row = env.actionFeatures.subarray(a * ACTION_DIM, (a + 1) * ACTION_DIM);
      const shown = Array.from({ length: 10 }, (_, v) => row[firstOption + v]);
      expect(shown, `product slot ${a}`).toEqual(Array.from({ length: 10 }, (_, v) => ((opts >> v) & 1 ? 1 : 0)));
    }
    expect(env.describeObservation(0)).toMatch(/\((black|white|red|blue|green|grey)[^)]*; (small|medium|large|x-large)/);
  });

  it('equal seeds give equal tasks and pages; different seeds differ', () => {
    const env = shop('medium', [5, 5, 6]);
    expect(env.describeTask(0)).toBe(env.describeTask(1));
    expect(env.describeObservation(0)).toBe(env.describeObservation(1));
    expect(env.describeTask(0)).not.toBe(env.describeTask(2));
    const d = env.actionDim * env.maxActions;
    expect(env.actionFeatures.slice(0, d)).toEqual(env.actionFeatures.slice(d, 2 * d));
    // Episode 1 copies episode 0's task (equal seeds); drawn on its own, seed 5 gives the same task.
    const alone = shop('medium', [6, 5]);
    expect(alone.describeTask(1)).toBe(env.describeTask(1));
    for (const key of [
      'goalType',
      'goalAttrs',
      'goalOpt',
      'limit',
      'queryType',
      'queryAttrs',
      'results',
      'prodType',
      'prodAttrs',
      'prodPrice',
      'prodOpts',
    ] as const) {
      const a = alone.state[key];
      const b = env.state[key];
      const n = a.length / 2;
      expect(Array.from(a.slice(n)), key).toEqual(Array.from(b.slice(b.length / 3, (2 * b.length) / 3)));
      expect(n).toBe(b.length / 3);
    }
  });

  it("buying a product that misses a constraint ends the order with WebShop's graded reward below 1", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const env = shop('short', [seed]);
      const s = env.state;
      const a = new Int32Array(1);
      // The oracle up to the results page that lists the wanted product, then open a different product.
      while (s.page[0] !== P_RESULTS || !env.milestonesReached[0]) {
        env.oracleActions(a);
        env.step(a);
      }
      let other = -1;
      for (let r = 0; r < s.shownCount(0) && other < 0; r++) if (!goalConsistent(s, 0, s.resultAt(0, s.query[0], r))) other = r;
      if (other < 0) continue;
      a[0] = other;
      env.step(a);
      expect(s.page[0]).toBe(P_ITEM);
      const expected = purchaseReward(s, 0, 0, s.item[0]);
      a[0] = S_BUY;
      env.step(a);
      expect(env.done[0]).toBe(1);
      expect(env.success[0]).toBe(0);
      expect(env.reward[0]).toBeCloseTo(expected, 6);
      expect(env.reward[0]).toBeLessThan(1);
      return;
    }
    throw new Error('no seed listed a wrong product beside the wanted one');
  });

  it('the reward is (attributes + options + price) / (attributes + options + 1), scaled by the type', () => {
    const env = shop('medium', [3]);
    const s = env.state;
    // Product 0 of the pool is the wanted one; select its named options as the oracle would.
    s.item[0] = 0;
    s.selected[0] = s.goalOpt[0];
    s.selected[1] = s.goalOpt[1];
    expect(purchaseReward(s, 0, 0, 0)).toBe(1);
    s.selected[1] = -1; // one of 2 options missing: (2 + 1 + 1) / 5
    expect(purchaseReward(s, 0, 0, 0)).toBeCloseTo(4 / 5, 6);
    s.prodType[0] ^= 1; // the related type halves it
    expect(purchaseReward(s, 0, 0, 0)).toBeCloseTo(0.4, 6);
  });

  it('refuses an inadmissible click, naming it', () => {
    const env = shop('short', [1]);
    expect(() => env.step(Int32Array.of(S_BUY))).toThrow(/action 14 \("click\[buy now\]"\) is not admissible in episode 0/);
  });
});
