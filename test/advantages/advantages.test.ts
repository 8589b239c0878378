/**
 * The advantage estimators against docs/maths.md §3–4: the worked examples, the four consequences, and
 * property tests against a plain transcription of the formulas over random batches.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateAdvantages as computeAdvantages } from '../../src/methods/registry.ts';
import { randomizeMilestones } from '../../src/advantages/random-segments.ts';
import { perStepReturn, segmentRuns } from '../../src/advantages/segmentation.ts';
import type { AdvantageBatch, AdvantageSettings } from '../../src/advantages/types.ts';
import { DEFAULT_ADVANTAGE_SETTINGS } from '../../src/config.ts';
import { Rng } from '../../src/prng.ts';
import { makeBatch, type RunSpec } from '../support/batches.ts';

const beacon = (over: Partial<AdvantageSettings> = {}): AdvantageSettings => ({ ...DEFAULT_ADVANTAGE_SETTINGS, ...over });
const grpo = (over: Partial<AdvantageSettings> = {}): AdvantageSettings => beacon({ method: 'grpo', ...over });

/** Step range of run i. */
const stepsOf = (b: AdvantageBatch, i: number) => Array.from({ length: b.runOffsets[i + 1] - b.runOffsets[i] }, (_, n) => b.runOffsets[i] + n);

describe('docs/maths.md §3 temporal reward shaping', () => {
  it('γ = 0.95, L = 5 gives 0.8145, 0.8574, 0.9025, 0.95, 1.0 (× R_ms)', () => {
    const b = makeBatch([
      [
        { reward: 1, milestones: [0, 0, 0, 0, 1] },
        { reward: 0, milestones: [0, 0] },
      ],
    ]);
    const seg = segmentRuns(b, 2, 0.95);
    expect(Array.from(seg.shapedRewards.slice(0, 5)).map((r) => r / 2)).toEqual([0.81450625, 0.857375, 0.9025, 0.95, 1].map((x) => expect.closeTo(x, 12)));
    expect(Array.from(seg.shapedRewards.slice(5))).toEqual([0, 0]); // incomplete segment: r = 0
  });

  it('per-step returns: L=1 → 1, 2 → 0.975, 3 → 0.95083, 5 → 0.90488, 8 → 0.84145', () => {
    const expected: [number, number][] = [
      [1, 1],
      [2, 0.975],
      [3, 0.95083],
      [5, 0.90488],
      [8, 0.84145],
    ];
    for (const [L, rho] of expected) expect(perStepReturn(1, 0.95, L)).toBeCloseTo(rho, 5);
    // ρ is the mean of the shaped rewards of the segment.
    for (const [L] of expected) {
      const b = makeBatch([
        [
          { reward: 0, milestones: [...Array(L - 1).fill(0), 1] },
          { reward: 0, milestones: [0] },
        ],
      ]);
      const r = segmentRuns(b, 1, 0.95).shapedRewards.slice(0, L);
      expect(r.reduce((a, x) => a + x, 0) / L).toBeCloseTo(perStepReturn(1, 0.95, L), 12);
    }
  });
});

describe('docs/maths.md §4 trajectory term', () => {
  it('meanStd uses the sample std (n − 1) and ε; mean subtracts the mean', () => {
    const b = makeBatch([
      [
        { reward: 1, milestones: [1] },
        { reward: 0, milestones: [0] },
        { reward: 0, milestones: [0] },
      ],
    ]);
    const std = Math.sqrt(((2 / 3) ** 2 + 2 * (1 / 3) ** 2) / 2);
    expect(computeAdvantages(b, grpo()).trajectoryAdvantages[0]).toBeCloseTo(2 / 3 / (std + 1e-6), 12);
    expect(computeAdvantages(b, grpo({ normalize: 'mean' })).trajectoryAdvantages[1]).toBeCloseTo(-1 / 3, 12);
  });

  it('a tied group gives exactly 0, for any reward value', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 2, max: 64 }), (r, n) => {
        const b = makeBatch([Array.from({ length: n }, () => ({ reward: r, milestones: [0, 1, 0] }))]);
        for (const normalize of ['meanStd', 'mean'] as const) {
          expect(Array.from(computeAdvantages(b, grpo({ normalize })).advantages).every((a) => a === 0)).toBe(true);
        }
      }),
    );
  });

  it('rejects groups of fewer than 2 runs, naming the group', () => {
    const b = makeBatch([
      [
        { reward: 1, milestones: [1] },
        { reward: 0, milestones: [0] },
      ],
      [{ reward: 1, milestones: [1] }],
    ]);
    expect(() => computeAdvantages(b, grpo())).toThrow(/groups\[1\].*at least 2 runs/);
  });
});

describe('docs/maths.md §4 consequences', () => {
  it('1. γ = 1 makes A_seg vanish exactly, so BEACON equals GRPO bit for bit', () => {
    fc.assert(
      fc.property(arbBatch(), fc.double({ min: 0.01, max: 10, noNaN: true }), ({ groups }, rMs) => {
        const b = makeBatch(groups);
        for (const normalize of ['meanStd', 'mean'] as const) {
          const be = computeAdvantages(b, beacon({ gamma: 1, rMs, normalize }));
          const gr = computeAdvantages(b, grpo({ normalize }));
          expect(be.segmentAdvantages.every((a) => a === 0)).toBe(true);
          expect(Array.from(be.advantages)).toEqual(Array.from(gr.advantages));
        }
      }),
    );
  });

  it('2. the incomplete tail gets A_traj alone (one identical value per tail)', () => {
    const b = makeBatch([
      [
        { reward: 1, milestones: [0, 1, 0, 0, 1] },
        { reward: 0, milestones: [0, 1, 0, 0, 0, 0] },
        { reward: 0, milestones: [0, 0, 0] },
      ],
    ]);
    const res = computeAdvantages(b, beacon());
    const tail = [7, 8, 9, 10].map((t) => res.advantages[t]);
    expect(tail.every((a) => a === res.trajectoryAdvantages[1])).toBe(true);
    expect(stepsOf(b, 2).map((t) => res.advantages[t])).toEqual([0, 0, 0].map(() => res.trajectoryAdvantages[2]));
  });

  it('3. in a failed run, negative A_traj largely cancels the positive A_seg of its milestone step', () => {
    // One failed run reaches milestone 1 faster than the successful runs.
    const ok = { reward: 1, milestones: [0, 0, 1, 0, 1] };
    const failed = { reward: 0, milestones: [1, 0, 0, 0, 0, 0] };
    const res = computeAdvantages(makeBatch([[ok, ok, ok, failed]]), beacon());
    const milestoneStep = 15; // first step of the failed run
    expect(res.trajectoryAdvantages[3]).toBeLessThan(-1);
    expect(res.segmentAdvantages[milestoneStep]).toBeGreaterThan(0);
    expect(Math.abs(res.advantages[milestoneStep])).toBeLessThan(Math.abs(res.trajectoryAdvantages[3]));
  });

  it('4. a completed segment longer than its group average leans negative', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 10 }), fc.double({ min: 0.05, max: 0.99, noNaN: true }), (short, extra, gamma) => {
        const long = short + extra;
        const run = (L: number) => ({ reward: 1, milestones: [...Array(L - 1).fill(0), 1] });
        const b = makeBatch([[run(short), run(short), run(long)]]);
        const res = computeAdvantages(b, beacon({ gamma }));
        const sum = stepsOf(b, 2).reduce((s, t) => s + res.segmentAdvantages[t], 0);
        expect(sum).toBeLessThan(0);
        // Its earliest step, the one furthest from the milestone, is always below the baseline.
        expect(res.segmentAdvantages[b.runOffsets[2]]).toBeLessThan(0);
      }),
    );
  });
});

describe('stepMean (released-code) baseline', () => {
  it('pools steps of segment index k across runs, tails included, so tails lean negative', () => {
    const b = makeBatch([
      [
        { reward: 0, milestones: [0, 1, 0, 0] }, // segment 1 (2 steps), tail in index 2 (2 steps)
        { reward: 0, milestones: [0, 0, 0] }, // tail in index 1 (3 steps)
      ],
    ]);
    const res = computeAdvantages(b, beacon({ segmentBaseline: 'stepMean', gamma: 0.5 }));
    const mean1 = (0.5 + 1) / 5; // r over index-1 steps: 0.5, 1, 0, 0, 0
    expect(res.segmentAdvantages[0]).toBeCloseTo(0.5 - mean1, 12);
    expect(res.segmentAdvantages[1]).toBeCloseTo(1 - mean1, 12);
    expect(res.segmentAdvantages[2]).toBe(0); // index 2 holds only this tail: mean 0
    expect(res.segmentAdvantages[4]).toBeCloseTo(-mean1, 12);
  });
});

describe('property: the estimators equal a plain transcription of docs/maths.md §3–4', () => {
  it('over random batches, both baselines, both normalisations, γ ∈ [0, 1]', () => {
    fc.assert(
      fc.property(arbBatch(), arbSettings(), ({ groups }, settings) => {
        const res = computeAdvantages(makeBatch(groups), settings);
        const expected = plainAdvantages(groups, settings);
        expect(res.advantages.length).toBe(expected.length);
        expected.forEach((a, t) => expect(res.advantages[t]).toBeCloseTo(a, 9));
      }),
      { numRuns: 300 },
    );
  });
});

describe('random segmentation ablation', () => {
  it('keeps each run’s milestone count, moves boundaries, and is seeded', () => {
    fc.assert(
      fc.property(arbBatch(), fc.integer({ min: 0, max: 2 ** 32 - 1 }), ({ groups }, seed) => {
        const b = makeBatch(groups);
        const a = randomizeMilestones(b.runOffsets, b.milestones, new Rng(seed));
        expect(Array.from(a)).toEqual(Array.from(randomizeMilestones(b.runOffsets, b.milestones, new Rng(seed))));
        for (let i = 0; i + 1 < b.runOffsets.length; i++) {
          const count = (m: Uint8Array) => stepsOf(b, i).reduce((s, t) => s + m[t], 0);
          expect(count(a)).toBe(count(b.milestones));
        }
      }),
    );
  });

  it('places boundaries uniformly', () => {
    const runOffsets = Int32Array.from([0, 4]);
    const hits = [0, 0, 0, 0];
    const rng = new Rng(7);
    for (let n = 0; n < 4000; n++) randomizeMilestones(runOffsets, Uint8Array.from([1, 0, 0, 0]), rng).forEach((m, t) => (hits[t] += m));
    for (const h of hits) expect(h / 4000).toBeGreaterThan(0.22), expect(h / 4000).toBeLessThan(0.28);
  });
});

// ---- Helpers: random batches and a plain, slow, direct transcription of the formulas. ----

function arbBatch() {
  const run = fc.record({
    reward: fc.constantFrom(0, 1, 0.5, 10),
    milestones: fc.array(fc.constantFrom(0, 0, 0, 1), { minLength: 1, maxLength: 24 }),
  });
  return fc.record({ groups: fc.array(fc.array(run, { minLength: 2, maxLength: 6 }), { minLength: 1, maxLength: 4 }) });
}

function arbSettings() {
  return fc.record({
    method: fc.constantFrom('grpo' as const, 'beacon' as const),
    gamma: fc.oneof(fc.constantFrom(0, 0.5, 0.95, 1), fc.double({ min: 0, max: 1, noNaN: true })),
    lambda: fc.constantFrom(0, 0.5, 1, 2),
    rMs: fc.constantFrom(0.1, 1, 10),
    normalize: fc.constantFrom('meanStd' as const, 'mean' as const),
    segmentBaseline: fc.constantFrom('perStepReturn' as const, 'stepMean' as const),
    trajectoryTerm: fc.boolean(),
  });
}

function plainAdvantages(groups: RunSpec[][], s: AdvantageSettings): number[] {
  const out: number[] = [];
  for (const group of groups) {
    const R = group.map((r) => r.reward);
    const mean = R.reduce((a, x) => a + x, 0) / R.length;
    const std = Math.sqrt(R.reduce((a, x) => a + (x - mean) ** 2, 0) / (R.length - 1));
    const tied = R.every((x) => x === R[0]);
    const aTraj = R.map((x) => (!s.trajectoryTerm || tied ? 0 : s.normalize === 'meanStd' ? (x - mean) / (std + 1e-6) : x - mean));
    // Per run: milestone steps t_k, per-step segment index and r_t.
    const parsed = group.map((run) => {
      const ts = run.milestones.flatMap((m, t) => (m ? [t] : []));
      const K = ts.length;
      const index = run.milestones.map((_, t) => {
        let k = 0;
        while (k < K && ts[k] < t) k++;
        return k + 1;
      });
      const r = run.milestones.map((_, t) => (index[t] <= K ? s.rMs * s.gamma ** (ts[index[t] - 1] - t) : 0));
      const L = (k: number) => ts[k - 1] - (k === 1 ? -1 : ts[k - 2]);
      const rho = (k: number) => {
        let sum = 0;
        for (let t = ts[k - 1] - L(k) + 1; t <= ts[k - 1]; t++) sum += r[t];
        return sum / L(k);
      };
      return { K, index, r, rho };
    });
    group.forEach((run, i) => {
      const p = parsed[i];
      run.milestones.forEach((_, t) => {
        let aSeg = 0;
        if (s.method === 'beacon') {
          const k = p.index[t];
          if (s.segmentBaseline === 'perStepReturn') {
            if (k <= p.K) {
              const Gk = parsed.filter((q) => q.K >= k);
              aSeg = p.r[t] - Gk.reduce((a, q) => a + q.rho(k), 0) / Gk.length;
            }
          } else {
            const pool = parsed.flatMap((q) => q.r.filter((_, u) => q.index[u] === k));
            aSeg = p.r[t] - pool.reduce((a, x) => a + x, 0) / pool.length;
          }
        }
        out.push(aTraj[i] + s.lambda * aSeg);
      });
    });
  }
  return out;
}

describe('batch validation', () => {
  it('rejects milestone flags other than 0 and 1, naming the step', () => {
    const b = makeBatch([
      [
        { reward: 1, milestones: [0, 2] },
        { reward: 0, milestones: [0] },
      ],
    ]);
    expect(() => computeAdvantages(b, DEFAULT_ADVANTAGE_SETTINGS)).toThrow(/milestones\[1\] must be 0 or 1, got 2/);
  });
});
