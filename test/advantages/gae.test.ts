/**
 * GAE for critic PPO (docs/maths.md §8): a worked example by hand, the shaped-reward option, the λ_GAE
 * limits, and the bootstrap-0 choice at the end of every run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeGae, DEFAULT_GAE_SETTINGS } from '../../src/advantages/gae.ts';
import { makeBatch } from '../support/batches.ts';

const close = (xs: ArrayLike<number>, ys: number[], digits = 12) => {
  expect(xs.length).toBe(ys.length);
  ys.forEach((y, i) => expect(xs[i], `[${i}]`).toBeCloseTo(y, digits));
};

describe('GAE (docs/maths.md §8)', () => {
  it('defaults: γ = 0.99, λ_GAE = 0.95, no milestone rewards', () => {
    expect(DEFAULT_GAE_SETTINGS).toEqual({ gamma: 0.99, lambdaGae: 0.95, milestoneReward: 0 });
  });

  // Run A: R = 1, 2 steps, V = 0.5, 0.8 (a milestone on its first step). Run B: R = 0, 1 step, V = 0.2.
  const batch = makeBatch([
    [
      { reward: 1, milestones: [1, 0] },
      { reward: 0, milestones: [0] },
    ],
  ]);
  const values = [0.5, 0.8, 0.2];

  it('a worked example: δ, Â, returns, and the batch normalisation', () => {
    // γ = 0.5, λ_GAE = 0.5 (γλ = 0.25). Bootstrap V = 0 after each run's last step.
    // A.t1: r = 1, δ = 1 + 0 − 0.8 = 0.2,               Â = 0.2
    // A.t0: r = 0, δ = 0 + 0.5·0.8 − 0.5 = −0.1,         Â = −0.1 + 0.25·0.2 = −0.05
    // B.t0: r = 0, δ = 0 + 0 − 0.2 = −0.2,               Â = −0.2
    // returns = Â + V: 0.45, 1.0, 0.0
    const res = computeGae(batch, values, { gamma: 0.5, lambdaGae: 0.5, milestoneReward: 0 });
    close(res.rewards, [0, 1, 0]);
    close(res.rawAdvantages, [-0.05, 0.2, -0.2]);
    close(res.returns, [0.45, 1, 0]);
    // mean = −0.05 / 3; deviations −1/30, 13/60, −11/60; Σ d² = (4 + 169 + 121) / 3600 = 294/3600; / 2.
    const mean = -0.05 / 3;
    const std = Math.sqrt(294 / 3600 / 2);
    close(
      res.advantages,
      [-0.05, 0.2, -0.2].map((a) => (a - mean) / (std + 1e-6)),
    );
  });

  it('shaped-reward PPO adds R_ms at milestone steps', () => {
    // A.t0 is a milestone: r = 2, δ = 2 + 0.4 − 0.5 = 1.9, Â = 1.9 + 0.25·0.2 = 1.95.
    const res = computeGae(batch, values, { gamma: 0.5, lambdaGae: 0.5, milestoneReward: 2 });
    close(res.rewards, [2, 1, 0]);
    close(res.rawAdvantages, [1.95, 0.2, -0.2]);
  });

  it('λ_GAE = 1 gives discounted returns minus V; λ_GAE = 0 gives one-step TD errors', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ reward: fc.constantFrom(0, 1), values: fc.array(fc.double({ min: -2, max: 2, noNaN: true }), { minLength: 1, maxLength: 12 }) }), {
          minLength: 2,
          maxLength: 5,
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (runs, gamma) => {
          const b = makeBatch([runs.map((r) => ({ reward: r.reward, milestones: r.values.map(() => 0) }))]);
          const V = runs.flatMap((r) => r.values);
          const mc = computeGae(b, V, { gamma, lambdaGae: 1, milestoneReward: 0 });
          const td = computeGae(b, V, { gamma, lambdaGae: 0, milestoneReward: 0 });
          let t = 0;
          for (const r of runs) {
            const T = r.values.length;
            for (let u = 0; u < T; u++, t++) {
              const G = r.reward * gamma ** (T - 1 - u); // the discounted return of the final reward
              expect(mc.returns[t]).toBeCloseTo(G, 9);
              expect(mc.rawAdvantages[t]).toBeCloseTo(G - r.values[u], 9);
              const next = u + 1 < T ? r.values[u + 1] : 0; // bootstrap 0 at the run's end
              expect(td.rawAdvantages[t]).toBeCloseTo((u === T - 1 ? r.reward : 0) + gamma * next - r.values[u], 12);
            }
          }
        },
      ),
    );
  });

  it('equal raw advantages normalise to exactly 0; bad inputs are named', () => {
    const b = makeBatch([
      [
        { reward: 0, milestones: [0] },
        { reward: 0, milestones: [0] },
      ],
    ]);
    expect(Array.from(computeGae(b, [0.3, 0.3], DEFAULT_GAE_SETTINGS).advantages)).toEqual([0, 0]);
    expect(() => computeGae(batch, [0.5, 0.8], DEFAULT_GAE_SETTINGS)).toThrow(/values must have one entry per step \(3\), got 2/);
    expect(() => computeGae(batch, values, { ...DEFAULT_GAE_SETTINGS, lambdaGae: 2 })).toThrow(/lambdaGae/);
  });
});
