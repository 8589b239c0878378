/**
 * GiGPO (docs/maths.md §7): worked examples by hand (repeated states within a run, singleton step groups,
 * ties, every state shared), ω = 0 equals GRPO's trajectory term, and a property test against a plain
 * transcription of the formulas.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateAdvantages as computeAdvantages } from '../../src/methods/registry.ts';
import { anchorCoverage, buildStepGroupIndex, computeGigpo, stepReturns, type GigpoSettings } from '../../src/advantages/gigpo.ts';
import { DEFAULT_ADVANTAGE_SETTINGS, DEFAULT_GIGPO_SETTINGS } from '../../src/config.ts';
import { keyedRun as run, makeKeyedBatch as batchOf, type KeyedRun } from '../support/batches.ts';

const EPS = 1e-6;
const gigpo = (over: Partial<GigpoSettings> = {}): GigpoSettings => ({ ...DEFAULT_GIGPO_SETTINGS, ...over });
const close = (xs: ArrayLike<number>, ys: number[], digits = 12) => {
  expect(xs.length).toBe(ys.length);
  ys.forEach((y, i) => expect(xs[i], `[${i}]`).toBeCloseTo(y, digits));
};

describe('GiGPO, worked examples', () => {
  it('defaults: γ = 0.95, ω = 1, meanStd, paper', () => {
    expect(DEFAULT_GIGPO_SETTINGS).toEqual({ gamma: 0.95, omega: 1, normalize: 'meanStd', variant: 'paper' });
  });

  // Run A: R = 1, states 7, 8, 7 (state 7 visited twice). Run B: R = 0, states 7, 9. γ = 0.5.
  const { batch, keys } = batchOf([[run(1, [7, 8, 7]), run(0, [7, 9])]]);

  it('step returns R_t = R_i γ^(T_i − 1 − t)', () => {
    expect(Array.from(stepReturns(batch, 0.5))).toEqual([0.25, 0.5, 1, 0, 0]);
  });

  it('repeated states within a run are separate members; singleton step groups get A_S = 0 (mean)', () => {
    // Step group of state 7: A.t0 (R_t = 0.25), A.t2 (1), B.t0 (0): mean 1.25 / 3 = 5/12.
    //   A_S = 0.25 − 5/12 = −1/6, 1 − 5/12 = 7/12, 0 − 5/12 = −5/12.
    // States 8 and 9: one step each → A_S = 0.
    // A_E: rewards 1, 0 → mean 1/2 → +1/2, −1/2.  A = A_E + A_S.
    const res = computeGigpo(batch, keys, gigpo({ gamma: 0.5, normalize: 'mean' }));
    close(res.stepReturns, [0.25, 0.5, 1, 0, 0]);
    close(res.episodeAdvantages, [0.5, -0.5]);
    close(res.stepAdvantages, [-1 / 6, 0, 7 / 12, -5 / 12, 0]);
    expect(res.stepAdvantages[1]).toBe(0);
    expect(res.stepAdvantages[4]).toBe(0);
    close(res.advantages, [1 / 3, 0.5, 13 / 12, -11 / 12, -0.5]);
    // 3 of 5 steps share their state with another step.
    expect(res.anchorCoverage).toBe(0.6);
  });

  it('meanStd divides each term by its own std + ε (n − 1)', () => {
    // State 7: deviations −1/6, 7/12, −5/12: Σ d² = 4/144 + 49/144 + 25/144 = 78/144, / 2 = 13/48.
    // Episode: rewards 1, 0: std = √(1/2).
    const res = computeGigpo(batch, keys, gigpo({ gamma: 0.5, normalize: 'meanStd', omega: 2 }));
    const sS = Math.sqrt(13 / 48) + EPS;
    const sE = Math.SQRT1_2 + EPS;
    close(res.episodeAdvantages, [0.5 / sE, -0.5 / sE]);
    close(res.stepAdvantages, [-1 / 6 / sS, 0, 7 / 12 / sS, -5 / 12 / sS, 0]);
    close(res.advantages, [0.5 / sE - 2 / 6 / sS, 0.5 / sE, 0.5 / sE + 14 / 12 / sS, -0.5 / sE - 10 / 12 / sS, -0.5 / sE]);
  });

  it('ties give exactly 0: a step group of equal returns, and a group of equal rewards', () => {
    // A and B end in state 2 with R = 1: both R_t = 1 → that step group is tied (meanStd: no ε blow-up).
    const t = batchOf([[run(1, [1, 2]), run(1, [3, 2]), run(0, [4, 5])]]);
    for (const normalize of ['meanStd', 'mean'] as const) {
      const res = computeGigpo(t.batch, t.keys, gigpo({ normalize }));
      expect(res.stepAdvantages[1]).toBe(0);
      expect(res.stepAdvantages[3]).toBe(0);
      expect(Array.from(res.stepAdvantages).every((a) => a === 0)).toBe(true); // the rest are singletons
      expect(res.episodeAdvantages[0]).toBeGreaterThan(0);
    }
    // Identical runs visiting distinct states: every step group holds equal R_t, every term is exactly 0.
    const same = batchOf([[run(1, [1, 2, 3]), run(1, [1, 2, 3]), run(1, [1, 2, 3])]]);
    for (const variant of ['paper', 'released'] as const) {
      for (const normalize of ['meanStd', 'mean'] as const) {
        const res = computeGigpo(same.batch, same.keys, gigpo({ normalize, variant }));
        expect(Array.from(res.advantages).every((a) => a === 0)).toBe(true);
      }
    }
  });

  it('a group where every state is shared: one step group holds every step', () => {
    // A: R = 1, 2 steps (R_t = 0.5, 1); B: R = 0, 1 step (R_t = 0). Mean 0.5 → A_S = 0, 0.5, −0.5.
    const s = batchOf([[run(1, [0, 0]), run(0, [0])]]);
    const res = computeGigpo(s.batch, s.keys, gigpo({ gamma: 0.5, normalize: 'mean' }));
    close(res.stepAdvantages, [0, 0.5, -0.5]);
    close(res.advantages, [0.5, 1, -1]);
    expect(res.anchorCoverage).toBe(1);
  });

  it('step groups never cross batch groups, even with equal state keys', () => {
    const s = batchOf([
      [run(1, [0]), run(0, [1])],
      [run(1, [0]), run(0, [1])],
    ]);
    const index = buildStepGroupIndex(s.batch, s.keys);
    expect(index.numStepGroups).toBe(4);
    expect(anchorCoverage(index)).toBe(0);
    expect(Array.from(computeGigpo(s.batch, s.keys, gigpo()).stepAdvantages)).toEqual([0, 0, 0, 0]);
  });

  it('the released variant takes the episode statistics over step rows', () => {
    // Rows: 1 ×3 (run A), 0 ×2 (run B): mean 3/5 → A_E = 2/5, −3/5 (mean); the step term is unchanged.
    const paper = computeGigpo(batch, keys, gigpo({ gamma: 0.5, normalize: 'mean' }));
    const rel = computeGigpo(batch, keys, gigpo({ gamma: 0.5, normalize: 'mean', variant: 'released' }));
    close(rel.episodeAdvantages, [0.4, -0.6]);
    expect(Array.from(rel.stepAdvantages)).toEqual(Array.from(paper.stepAdvantages));
  });

  it('the step-group index: dense ids by first appearance, members in step order', () => {
    const index = buildStepGroupIndex(batch, keys);
    expect(index.numStepGroups).toBe(3);
    expect(Array.from(index.stepGroupOf)).toEqual([0, 1, 0, 0, 2]);
    expect(Array.from(index.offsets)).toEqual([0, 3, 4, 5]);
    expect(Array.from(index.members)).toEqual([0, 2, 3, 1, 4]);
  });

  it('the step-group index equals a Map-based numbering (first appearance, per batch group), any uint32 keys', () => {
    const key = fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(0xffffffff, 0x80000000, 2 ** 16));
    const arbRun = fc.record({ reward: fc.constant(0), keys: fc.array(key, { minLength: 1, maxLength: 60 }) }).map(({ reward, keys: k }) => run(reward, k));
    fc.assert(
      fc.property(fc.array(fc.array(arbRun, { minLength: 2, maxLength: 8 }), { minLength: 1, maxLength: 4 }), (groups) => {
        const { batch: b, keys: k } = batchOf(groups);
        const index = buildStepGroupIndex(b, k);
        const expected: number[] = [];
        let next = 0;
        let t = 0;
        for (const group of groups) {
          const ids = new Map<number, number>();
          for (const r of group)
            for (const x of r.keys) {
              if (!ids.has(x)) ids.set(x, next++);
              expected.push(ids.get(x)!);
              t++;
            }
        }
        expect(Array.from(index.stepGroupOf)).toEqual(expected);
        expect(index.numStepGroups).toBe(next);
        // members: every step once, grouped by id, ascending inside each step group.
        for (let sg = 0; sg < index.numStepGroups; sg++) {
          const m = Array.from(index.members.subarray(index.offsets[sg], index.offsets[sg + 1]));
          expect(m).toEqual(expected.flatMap((id, u) => (id === sg ? [u] : [])));
        }
        expect(index.offsets[index.numStepGroups]).toBe(t);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects missing or malformed state keys, naming them', () => {
    expect(() => computeGigpo(batch, keys.slice(1), gigpo())).toThrow(/stateKeys must have one entry per step \(5\), got 4/);
    expect(() => computeGigpo(batch, [7, 8, 7, 0.5, 1], gigpo())).toThrow(/stateKeys\[3\]/);
    expect(() => computeGigpo(batch, keys, gigpo({ omega: -1 }))).toThrow(/omega/);
  });
});

describe('GiGPO properties', () => {
  it('ω = 0 equals GRPO’s trajectory term exactly (paper: over runs; released: over rows)', () => {
    fc.assert(
      fc.property(
        arbKeyedGroups(),
        fc.constantFrom('meanStd' as const, 'mean' as const),
        fc.constantFrom('paper' as const, 'released' as const),
        (groups, normalize, variant) => {
          const { batch: b, keys: k } = batchOf(groups);
          const res = computeGigpo(b, k, gigpo({ omega: 0, normalize, variant }));
          const grpo = computeAdvantages(b, { ...DEFAULT_ADVANTAGE_SETTINGS, method: 'grpo', normalize, variant });
          expect(Array.from(res.episodeAdvantages)).toEqual(Array.from(grpo.trajectoryAdvantages));
          expect(Array.from(res.advantages)).toEqual(Array.from(grpo.advantages));
        },
      ),
    );
  });

  it('equals a plain transcription of docs/maths.md §7 over random batches and settings', () => {
    fc.assert(
      fc.property(arbKeyedGroups(), arbSettings(), (groups, s) => {
        const { batch: b, keys: k } = batchOf(groups);
        const res = computeGigpo(b, k, s);
        const plain = plainGigpo(groups, s);
        // 6 digits: a near-tied step group (γ within 1e-12 of 1) has std ≪ ε, so f64 rounding of
        // R_t − mean (~1e-15 · |R|, summation order differs from the plain version) is amplified by ω / ε.
        plain.advantages.forEach((a, t) => expect(res.advantages[t]).toBeCloseTo(a, 6));
        plain.aS.forEach((a, t) => expect(res.stepAdvantages[t]).toBeCloseTo(a, 6));
        expect(res.anchorCoverage).toBeCloseTo(plain.coverage, 12);
      }),
      { numRuns: 300 },
    );
  });
});

function arbKeyedGroups(maxKeys = 6) {
  const r = fc
    .record({ reward: fc.constantFrom(0, 1, 0.5, 10), keys: fc.array(fc.integer({ min: 0, max: maxKeys }), { minLength: 1, maxLength: 20 }) })
    .map(({ reward, keys }) => run(reward, keys));
  return fc.array(fc.array(r, { minLength: 2, maxLength: 6 }), { minLength: 1, maxLength: 3 });
}

function arbSettings() {
  return fc.record({
    gamma: fc.oneof(fc.constantFrom(0, 0.5, 0.95, 1), fc.double({ min: 0, max: 1, noNaN: true })),
    omega: fc.constantFrom(0, 0.5, 1, 2),
    normalize: fc.constantFrom('meanStd' as const, 'mean' as const),
    variant: fc.constantFrom('paper' as const, 'released' as const),
  });
}

/** Plain, slow, direct transcription of §7 (pools by filtering, statistics by definition). */
function plainGigpo(groups: KeyedRun[][], s: GigpoSettings) {
  const advantages: number[] = [];
  const aS: number[] = [];
  let shared = 0;
  let total = 0;
  const norm = (x: number, xs: number[]) => {
    if (xs.every((y) => y === xs[0])) return 0;
    const mean = xs.reduce((a, y) => a + y, 0) / xs.length;
    const std = Math.sqrt(xs.reduce((a, y) => a + (y - mean) ** 2, 0) / (xs.length - 1));
    return s.normalize === 'meanStd' ? (x - mean) / (std + EPS) : x - mean;
  };
  for (const group of groups) {
    const steps = group.flatMap((r) => r.keys.map((key, t) => ({ key, R: r.reward, Rt: r.reward * s.gamma ** (r.keys.length - 1 - t) })));
    const episodePool = s.variant === 'released' ? steps.map((q) => q.R) : group.map((r) => r.reward);
    for (const q of steps) {
      const sg = steps.filter((p) => p.key === q.key).map((p) => p.Rt);
      const a = sg.length === 1 ? 0 : norm(q.Rt, sg);
      if (sg.length > 1) shared++;
      total++;
      aS.push(a);
      advantages.push(norm(q.R, episodePool) + s.omega * a);
    }
  }
  return { advantages, aS, coverage: shared / total };
}
