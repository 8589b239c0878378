/**
 * The credit metrics of docs/maths.md §5 on small hand-made batches, against values worked out by hand
 * (the working is in the comments). The batch is the worked example of docs/maths.md §5.
 */
import { describe, expect, it } from 'vitest';
import { estimateAdvantages as computeAdvantages } from '../../src/methods/registry.ts';
import type { Method } from '../../src/methods/registry.ts';
import { DEFAULT_ADVANTAGE_SETTINGS } from '../../src/config.ts';
import { creditConcentration, creditMetrics, type CreditMetricsInput } from '../../src/metrics/credit-metrics.ts';
import { makeBatch } from '../support/batches.ts';

interface Step {
  key: number;
  action: number;
  milestone: 0 | 1;
  a: number;
}
interface HandRun {
  solved: 0 | 1;
  /** K as the environment reported it (the outcome mix reads this, not the batch's milestones). */
  reached: number;
  steps: Step[];
}

function input(groups: HandRun[][]): CreditMetricsInput {
  const runs = groups.flat();
  const steps = runs.flatMap((r) => r.steps);
  return {
    batch: makeBatch(groups.map((g) => g.map((r) => ({ reward: r.solved, milestones: r.steps.map((s) => s.milestone) })))),
    advantages: Float64Array.from(steps.map((s) => s.a)),
    success: Uint8Array.from(runs.map((r) => r.solved)),
    milestonesReached: Float64Array.from(runs.map((r) => r.reached)),
    stateKeys: Uint32Array.from(steps.map((s) => s.key)),
    actions: Int32Array.from(steps.map((s) => s.action)),
  };
}

const s = (key: number, action: number, milestone: 0 | 1, a: number): Step => ({ key, action, milestone, a });

/**
 * Two groups, five runs, 13 steps. Steps are (state key, action, milestone, A); every A is a binary
 * fraction, so sums are exact.
 *
 * group 0
 *   run 0  solved, K = 2   (1,0,·, 0.5)  (2,1,M, 1.5)  (3,2,M, 1.0)
 *   run 1  failed, K = 1   (1,0,·,−0.5)  (2,1,M, 0.5)  (4,0,·,−0.5)  (4,0,·,−0.25)
 *   run 2  failed, K = 0   (1,1,·,−0.5)  (5,0,·,−0.5)
 * group 1 (every reward 0 and no milestone: all A are 0)
 *   run 3  failed, K = 0   (1,0,·, 0)    (2,1,·, 0)
 *   run 4  failed, K = 0   (1,0,·, 0)    (2,1,·, 0)
 */
const EXAMPLE: HandRun[][] = [
  [
    { solved: 1, reached: 2, steps: [s(1, 0, 0, 0.5), s(2, 1, 1, 1.5), s(3, 2, 1, 1.0)] },
    { solved: 0, reached: 1, steps: [s(1, 0, 0, -0.5), s(2, 1, 1, 0.5), s(4, 0, 0, -0.5), s(4, 0, 0, -0.25)] },
    { solved: 0, reached: 0, steps: [s(1, 1, 0, -0.5), s(5, 0, 0, -0.5)] },
  ],
  [
    { solved: 0, reached: 0, steps: [s(1, 0, 0, 0), s(2, 1, 0, 0)] },
    { solved: 0, reached: 0, steps: [s(1, 0, 0, 0), s(2, 1, 0, 0)] },
  ],
];

describe('creditMetrics on the §5 worked example', () => {
  const m = creditMetrics(input(EXAMPLE));

  it('outcome mix: 1 solved, 1 partial (K ≥ 1, not solved), 3 complete failures out of 5 runs', () => {
    expect(m.success).toBe(1 / 5);
    expect(m.partial).toBe(1 / 5);
    expect(m.failure).toBe(3 / 5);
  });

  it('zero-advantage ratio: the 4 steps of group 1 out of 13', () => {
    expect(m.zeroAdvantageRatio).toBe(4 / 13);
  });

  it('contradictory ratio: 1 of the 4 keys seen in ≥ 2 runs takes both signs', () => {
    // Keys are (group, state, action). Seen in ≥ 2 runs:
    //   (g0, 1, 0): runs 0, 1, A = +0.5, −0.5  → both signs
    //   (g0, 2, 1): runs 0, 1, A = +1.5, +0.5  → one sign
    //   (g1, 1, 0): runs 3, 4, A = 0, 0        → no sign, still shared
    //   (g1, 2, 1): runs 3, 4, A = 0, 0        → no sign, still shared
    // Not shared: (g0, 3, 2) run 0 only; (g0, 4, 0) twice but in run 1 only; (g0, 1, 1) run 2 only (same
    // state as (g0, 1, 0), other action); (g0, 5, 0) run 2 only. Group 1's (1, 0) is not group 0's.
    expect(m.contradictoryRatio).toBe(1 / 4);
  });

  it('contradictory ratio over signed keys: the two all-zero keys of group 1 leave the denominator (1 of 2)', () => {
    expect(m.contradictoryRatioSigned).toBe(1 / 2);
  });

  it('signal retention: Σ|ΣA| / Σ Σ|A| = (0 + 2 + 0 + 0) / (1 + 2 + 0 + 0) = 2/3', () => {
    expect(m.signalRetention).toBeCloseTo(2 / 3, 15);
  });

  it('CCR: mean |A| at milestones 1.0 over mean |A| elsewhere 0.275 = 40/11', () => {
    // Milestone steps: 1.5, 1.0 (run 0), 0.5 (run 1) → 3.0 / 3 = 1.0.
    // Other steps: 0.5 + (0.5 + 0.5 + 0.25) + (0.5 + 0.5) + 4 × 0 = 2.75 over 10 steps → 0.275.
    expect(m.ccr).toBeCloseTo(40 / 11, 12);
    // Per run (the credit view): run 0: 1.25 / 0.5 = 2.5; run 1: 0.5 / ((0.5 + 0.5 + 0.25) / 3) = 1.2.
    const { milestones } = input(EXAMPLE).batch;
    const a = input(EXAMPLE).advantages;
    expect(creditConcentration(milestones, a, 0, 3)).toBe(2.5);
    expect(creditConcentration(milestones, a, 3, 7)).toBeCloseTo(1.2, 15);
    // Run 2 has no milestone step and group 1 has no non-zero step: undefined, NaN.
    expect(creditConcentration(milestones, a, 7, 9)).toBeNaN();
    expect(creditConcentration(milestones, a, 9, 13)).toBeNaN();
  });

  it("the outcome mix reads the milestones the environment reported, not the batch's flags", () => {
    // Run 2's report says K = 1 while its batch flags are all 0: the mix follows the report (partial).
    const groups = structuredClone(EXAMPLE);
    groups[0][2].reached = 1;
    const mix = creditMetrics(input(groups));
    expect([mix.success, mix.partial, mix.failure]).toEqual([1 / 5, 2 / 5, 2 / 5]);
  });
});

describe('creditMetrics thresholds and undefined cases', () => {
  it('|A| < 1e-6 counts as zero and carries no sign; 1e-6 does', () => {
    // One group of two runs on the same (state, action): A = +1e-6 and −5e-7.
    const groups: HandRun[][] = [
      [
        { solved: 0, reached: 0, steps: [s(7, 3, 0, 1e-6)] },
        { solved: 0, reached: 0, steps: [s(7, 3, 0, -5e-7)] },
      ],
    ];
    const m = creditMetrics(input(groups));
    expect(m.zeroAdvantageRatio).toBe(1 / 2); // only −5e-7 is below the threshold
    expect(m.contradictoryRatio).toBe(0); // −5e-7 has no sign, so the key is not contradictory
    // Net and gross still sum the raw values: |1e-6 − 5e-7| / (1e-6 + 5e-7) = 1/3.
    expect(m.signalRetention).toBeCloseTo(1 / 3, 9);
    flipSign(groups);
    expect(creditMetrics(input(groups)).contradictoryRatio).toBe(0);
    groups[0][1].steps[0].a = 1e-6; // now +1e-6 against −1e-6: both signs
    expect(creditMetrics(input(groups)).contradictoryRatio).toBe(1);
  });

  it('no key shared by two runs: contradictory ratio and signal retention are NaN', () => {
    const groups: HandRun[][] = [
      [
        { solved: 1, reached: 1, steps: [s(1, 0, 1, 1)] },
        { solved: 0, reached: 0, steps: [s(2, 0, 0, -1)] },
      ],
    ];
    const m = creditMetrics(input(groups));
    expect(m.contradictoryRatio).toBeNaN();
    expect(m.contradictoryRatioSigned).toBeNaN();
    expect(m.signalRetention).toBeNaN();
  });

  it('no milestone step in the batch: CCR is NaN', () => {
    const groups: HandRun[][] = [
      [
        { solved: 0, reached: 0, steps: [s(1, 0, 0, 0.5)] },
        { solved: 0, reached: 0, steps: [s(1, 0, 0, -0.5)] },
      ],
    ];
    expect(creditMetrics(input(groups)).ccr).toBeNaN();
  });
});

function flipSign(groups: HandRun[][]): void {
  for (const step of groups.flat().flatMap((r) => r.steps)) step.a = -step.a;
}

describe('sample utilisation (docs/maths.md §5)', () => {
  // The §5 definition: the share of runs with at least one step where |A| ≥ 1e-6, whatever the method.
  it('sampleUtilization follows the §5 definition on the advantages', () => {
    // Worked example: runs 0, 1, 2 each have a step with |A| ≥ 1e-6; runs 3, 4 are all 0 → 3/5.
    expect(creditMetrics(input(EXAMPLE)).sampleUtilization).toBe(3 / 5);

    // A run whose largest |A| is 5e-7 teaches nothing; one at exactly 1e-6 counts.
    const tiny: HandRun[][] = [
      [
        { solved: 0, reached: 1, steps: [s(1, 0, 1, 5e-7), s(2, 0, 0, -5e-7)] },
        { solved: 0, reached: 0, steps: [s(1, 0, 0, 0), s(3, 0, 0, 1e-6)] },
      ],
    ];
    expect(creditMetrics(input(tiny)).sampleUtilization).toBe(1 / 2);

    // A γ = 1 BEACON batch and its GRPO twin have identical advantages, so the same utilisation.
    // Group 0: one run solved, so every run has A_traj ≠ 0 → 3 runs; group 1: no run solved and γ = 1
    // makes A_seg ≡ 0, so all 3 runs have A = 0 although two reached milestones. 3 of 6 runs.
    const groups = [
      [
        { reward: 1, milestones: [0, 1, 1] },
        { reward: 0, milestones: [1, 0, 0] },
        { reward: 0, milestones: [0, 0] },
      ],
      [
        { reward: 0, milestones: [0, 1, 0] },
        { reward: 0, milestones: [1, 0] },
        { reward: 0, milestones: [0, 0, 0] },
      ],
    ];
    const batch = makeBatch(groups);
    const steps = batch.milestones.length;
    const twin = (method: Method, gamma: number) => {
      const { advantages } = computeAdvantages(batch, { ...DEFAULT_ADVANTAGE_SETTINGS, method, gamma });
      return creditMetrics({
        batch,
        advantages,
        success: Uint8Array.from(groups.flat().map((r) => r.reward)),
        milestonesReached: Int32Array.from(groups.flat().map((r) => r.milestones.reduce((a, x) => a + x, 0))),
        stateKeys: new Uint32Array(steps),
        actions: new Int32Array(steps),
      });
    };
    expect(twin('beacon', 1).sampleUtilization).toBe(3 / 6);
    expect(twin('grpo', 0.95).sampleUtilization).toBe(3 / 6);
    // With γ = 0.95 the segment term gives the two partial runs of group 1 a signal too: 5 of 6.
    expect(twin('beacon', 0.95).sampleUtilization).toBe(5 / 6);
  });
});
