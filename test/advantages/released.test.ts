/**
 * BEACON's released-code variant (docs/maths.md §4, "Reference-code variants" 1–4): worked examples by
 * hand, the consequence that γ = 1 no longer removes A_seg, and a property test against a plain
 * transcription of the four items.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateAdvantages as computeAdvantages } from '../../src/methods/registry.ts';
import { rowStats } from '../../src/advantages/group-stats.ts';
import { VARIANTS, type AdvantageSettings } from '../../src/advantages/types.ts';
import { DEFAULT_ADVANTAGE_SETTINGS } from '../../src/config.ts';
import { makeBatch, type RunSpec } from '../support/batches.ts';

const released = (over: Partial<AdvantageSettings> = {}): AdvantageSettings => ({ ...DEFAULT_ADVANTAGE_SETTINGS, variant: 'released', ...over });
const EPS = 1e-6;
const close = (xs: ArrayLike<number>, ys: number[], digits = 12) => {
  expect(xs.length).toBe(ys.length);
  ys.forEach((y, i) => expect(xs[i], `[${i}]`).toBeCloseTo(y, digits));
};

describe('released variant, worked examples', () => {
  it('lists the variants, paper first (the default)', () => {
    expect(VARIANTS).toEqual(['paper', 'released']);
    expect(DEFAULT_ADVANTAGE_SETTINGS.variant).toBe('paper');
  });

  // Run A: R = 1, 3 steps, milestone on its last step. Run B: R = 0, 1 step, no milestone.
  // γ = 0.5, R_ms = 10, λ = 1.
  const b = makeBatch([
    [
      { reward: 1, milestones: [0, 0, 1] },
      { reward: 0, milestones: [0] },
    ],
  ]);

  it('1. trajectory statistics over step rows (length-weighted), both normalisations', () => {
    // Rows: 1, 1, 1 (run A) and 0 (run B). mean = 3/4 (the paper's mean over runs would be 1/2).
    // Deviations 1/4 (×3) and −3/4: Σ d² = 3/16 + 9/16 = 3/4, over n − 1 = 3 rows: 1/4, std = 1/2.
    close(computeAdvantages(b, released({ method: 'grpo', normalize: 'mean' })).trajectoryAdvantages, [0.25, -0.75]);
    close(computeAdvantages(b, released({ method: 'grpo', normalize: 'meanStd' })).trajectoryAdvantages, [0.25 / (0.5 + EPS), -0.75 / (0.5 + EPS)]);
    // The paper's trajectory term for the same batch: ±1/2.
    close(computeAdvantages(b, { ...released({ method: 'grpo', normalize: 'mean' }), variant: 'paper' }).trajectoryAdvantages, [0.5, -0.5]);
  });

  it('2–3. segment term keyed by (group, segment index), tail rows included, both normalisations', () => {
    // Segment index = milestones reached strictly before the step: all four steps have index 0.
    // r: run A 10·0.5² = 2.5, 10·0.5 = 5, 10 (milestone); run B's tail 0.
    // Baseline = (2.5 + 5 + 10 + 0) / 4 = 4.375.
    // mean:    A_seg = −1.875, 0.625, 5.625 | −4.375;  A = A_traj + A_seg = 0.25 + … | −0.75 − 4.375.
    const mean = computeAdvantages(b, released({ gamma: 0.5, rMs: 10, normalize: 'mean' }));
    close(mean.shapedRewards, [2.5, 5, 10, 0]);
    close(mean.segmentAdvantages, [-1.875, 0.625, 5.625, -4.375]);
    close(mean.advantages, [-1.625, 0.875, 5.875, -5.125]);
    // meanStd: Σ d² = 3.515625 + 0.390625 + 31.640625 + 19.140625 = 54.6875, / 3 = 18.2291…,
    // std = 4.26955…; both terms are divided by their own std + ε.
    const std = Math.sqrt(54.6875 / 3);
    const ms = computeAdvantages(b, released({ gamma: 0.5, rMs: 10, normalize: 'meanStd' }));
    close(
      ms.segmentAdvantages,
      [-1.875, 0.625, 5.625, -4.375].map((d) => d / (std + EPS)),
    );
    close(
      ms.advantages,
      [0, 1, 2, 3].map((t) => ms.trajectoryAdvantages[t < 3 ? 0 : 1] + ms.segmentAdvantages[t]),
    );
    expect(ms.segmentAdvantages[2]).toBeCloseTo(1.317464, 5);
  });

  it('γ = 1 does not make A_seg vanish when a run missed milestone k (consequence 1 is paper-only)', () => {
    // Run A: milestones [1, 0, 1] (success). Run B: milestones [1, 0, 0, 0] (missed milestone 2).
    // Indices: A 0, 1, 1; B 0, 1, 1, 1 (B's tail has index K_B = 1). γ = 1, R_ms = 10: every
    // completed step has r = 10, B's tail r = 0.
    // Key (g, 0): 10, 10 → mean 10 → A_seg 0, 0.
    // Key (g, 1): 10, 10 (A) and 0, 0, 0 (B) → mean 20/5 = 4 → A_seg +6, +6 and −4, −4, −4.
    const g = makeBatch([
      [
        { reward: 1, milestones: [1, 0, 1] },
        { reward: 0, milestones: [1, 0, 0, 0] },
      ],
    ]);
    const rel = computeAdvantages(g, released({ gamma: 1, rMs: 10, normalize: 'mean' }));
    expect(Array.from(rel.segmentAdvantages)).toEqual([0, 6, 6, 0, -4, -4, -4]);
    // Trajectory rows: 1 ×3, 0 ×4 → mean 3/7: A_traj = 4/7, −3/7.
    close(rel.trajectoryAdvantages, [4 / 7, -3 / 7]);
    // The paper variant at γ = 1: A_seg ≡ 0 (B's tail is in no G_k; every ρ_k = R_ms).
    const paper = computeAdvantages(g, { ...released({ gamma: 1, rMs: 10, normalize: 'mean' }), variant: 'paper' });
    expect(paper.segmentAdvantages.every((a) => a === 0)).toBe(true);
  });

  it('a (group, segment index) key of one row gets A_seg = 0, in both normalisations', () => {
    // Run A: milestones at every step (indices 0, 1, 2); run B: one step, no milestone (index 0).
    // Keys (g, 1) and (g, 2) hold one row each (r = 10): A_seg = 0 there, not r − 0.
    const g = makeBatch([
      [
        { reward: 1, milestones: [1, 1, 1] },
        { reward: 0, milestones: [0] },
      ],
    ]);
    for (const normalize of ['mean', 'meanStd'] as const) {
      const res = computeAdvantages(g, released({ gamma: 0.9, rMs: 10, normalize }));
      expect(res.segmentAdvantages[1]).toBe(0);
      expect(res.segmentAdvantages[2]).toBe(0);
      expect(res.segmentAdvantages[0]).toBeGreaterThan(0); // key (g, 0): 10 vs B's 0
    }
  });

  it('tied rewards, and tied r within each key, give exactly 0 (no ε blow-up)', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 2, max: 32 }), fc.integer({ min: 1, max: 6 }), (r, n, L) => {
        const g = makeBatch([Array.from({ length: n }, () => ({ reward: r, milestones: [...Array(L - 1).fill(0), 1] }))]);
        for (const normalize of ['meanStd', 'mean'] as const) {
          // Identical runs: every key holds equal r only at γ = 1 (at γ < 1 the steps of a segment differ).
          expect(computeAdvantages(g, released({ normalize, gamma: 0.95 })).trajectoryAdvantages.every((a) => a === 0)).toBe(true);
          expect(computeAdvantages(g, released({ normalize, gamma: 1, rMs: r === 0 ? 1 : Math.abs(r) })).advantages.every((a) => a === 0)).toBe(true);
        }
      }),
    );
  });

  it('rejects an unknown variant, naming it', () => {
    expect(() => computeAdvantages(b, { ...released(), variant: 'shipped' as never })).toThrow(/variant must be one of paper, released, got shipped/);
  });

  it('a single row gets mean 0, std 1 (the released rule)', () => {
    expect(rowStats([5], [1], 0, 1)).toEqual({ mean: 0, std: 1, rows: 1 });
    // Weighted rows: values 1 ×3, 0 ×1.
    expect(rowStats([1, 0], [3, 1], 0, 2)).toEqual({ mean: 0.75, std: 0.5, rows: 4 });
  });

  it('under "mean" the segment term equals the stepMean baseline exactly', () => {
    fc.assert(
      fc.property(arbGroups(), fc.constantFrom(0, 0.5, 0.9, 1), (groups, gamma) => {
        const b2 = makeBatch(groups);
        const rel = computeAdvantages(b2, released({ normalize: 'mean', gamma, rMs: 10 }));
        const stepMean = computeAdvantages(b2, { ...released({ normalize: 'mean', gamma, rMs: 10 }), variant: 'paper', segmentBaseline: 'stepMean' });
        expect(Array.from(rel.segmentAdvantages)).toEqual(Array.from(stepMean.segmentAdvantages));
      }),
    );
  });
});

describe('property: released variant equals a plain transcription of docs/maths.md §4 items 1–4', () => {
  it('over random batches, both methods, both normalisations, γ ∈ [0, 1]', () => {
    fc.assert(
      fc.property(arbGroups(), arbSettings(), (groups, s) => {
        const res = computeAdvantages(makeBatch(groups), s);
        const expected = plainReleased(groups, s);
        expect(res.advantages.length).toBe(expected.length);
        // 6 digits: a near-tied pool (γ within 1e-12 of 1) has std ≪ ε, so f64 rounding of r − mean
        // (~1e-15 · |r|, summation order differs from the plain version) is amplified by up to λ / ε.
        expected.forEach((a, t) => expect(res.advantages[t]).toBeCloseTo(a, 6));
      }),
      { numRuns: 300 },
    );
  });
});

function arbGroups() {
  const run = fc.record({
    reward: fc.constantFrom(0, 1, 0.5, 10),
    milestones: fc.array(fc.constantFrom(0, 0, 0, 1), { minLength: 1, maxLength: 24 }),
  });
  return fc.array(fc.array(run, { minLength: 2, maxLength: 6 }), { minLength: 1, maxLength: 4 });
}

function arbSettings() {
  return fc.record({
    method: fc.constantFrom('grpo' as const, 'beacon' as const),
    gamma: fc.oneof(fc.constantFrom(0, 0.5, 0.95, 1), fc.double({ min: 0, max: 1, noNaN: true })),
    lambda: fc.constantFrom(0, 0.5, 1, 10),
    rMs: fc.constantFrom(0.1, 1, 10),
    normalize: fc.constantFrom('meanStd' as const, 'mean' as const),
    segmentBaseline: fc.constantFrom('perStepReturn' as const, 'stepMean' as const), // not consulted
    trajectoryTerm: fc.boolean(),
    variant: fc.constant('released' as const),
  });
}

/** Plain, slow, direct: one row per step, statistics by definition. */
function plainReleased(groups: RunSpec[][], s: AdvantageSettings): number[] {
  const out: number[] = [];
  const stats = (xs: number[]) => {
    if (xs.length === 1) return { mean: 0, std: 1 };
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    return { mean, std: Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1)) };
  };
  const norm = (x: number, xs: number[]) => {
    if (xs.every((y) => y === xs[0])) return 0; // ties (and keys of one row): exactly 0
    const { mean, std } = stats(xs);
    return s.normalize === 'meanStd' ? (x - mean) / (std + EPS) : x - mean;
  };
  for (const group of groups) {
    const rows = group.flatMap((run) =>
      run.milestones.map((_, t) => {
        const ts = run.milestones.flatMap((m, u) => (m ? [u] : []));
        const index = ts.filter((u) => u < t).length; // milestones reached strictly before t
        const r = index < ts.length ? s.rMs * s.gamma ** (ts[index] - t) : 0;
        return { R: run.reward, index, r };
      }),
    );
    for (const row of rows) {
      const aTraj = s.trajectoryTerm
        ? norm(
            row.R,
            rows.map((q) => q.R),
          )
        : 0;
      const aSeg =
        s.method === 'beacon'
          ? norm(
              row.r,
              rows.filter((q) => q.index === row.index).map((q) => q.r),
            )
          : 0;
      out.push(aTraj + s.lambda * aSeg);
    }
  }
  return out;
}
