/**
 * The credit view's chart without the DOM (src/page/credit-chart.ts): when three bars per step stop
 * fitting, which step the pointer is on, the scale's nice ceiling, the number formats, and the bars'
 * names per method.
 */
import { describe, expect, it } from 'vitest';
import { creditBars, creditGeometry, creditScale, formatAxis, formatCredit, niceCeil, partNames, stepAt } from '../../src/page/credit-chart.ts';
import type { RunCredit } from '../../src/page/credit-data.ts';

const credit = (aTraj: number, aSeg: number[], advantages: number[]): RunCredit => ({
  steps: aSeg.length,
  aTraj,
  lambda: 1,
  aSeg: Float32Array.from(aSeg),
  advantages: Float32Array.from(advantages),
  shapedRewards: new Float32Array(aSeg.length),
  boundaries: new Uint8Array(aSeg.length),
  segments: [],
  ccr: Number.NaN,
});

describe('credit chart', () => {
  it('gives each step its share of the width, at least 200 px, and turns compact below 9 px a step', () => {
    // 48 px of padding: 400 px over 8 steps is 44 px a step; over 40 steps 8.8 px, too narrow for three bars.
    expect(creditGeometry(400, 8)).toEqual({ width: 400, group: 44, compact: false });
    expect(creditGeometry(400, 40)).toMatchObject({ width: 400, compact: true });
    expect(creditGeometry(100, 4)).toEqual({ width: 200, group: 38, compact: false });
    expect(creditGeometry(400, 0).group).toBe(352);
  });

  it('finds the step under the pointer, and −1 in the padding or past the run', () => {
    const g = creditGeometry(400, 8);
    expect(stepAt(40, g, 8)).toBe(0);
    expect(stepAt(40 + 44 * 3 + 1, g, 8)).toBe(3);
    expect(stepAt(39, g, 8)).toBe(-1);
    expect(stepAt(40 + 44 * 8, g, 8)).toBe(-1);
  });

  it('scales to the largest |value| rounded up to 1, 2, 2.5 or 5 × 10^k, at least 0.05', () => {
    expect(creditScale(credit(0.3, [-0.7, 0.1], [0.2, 0]))).toBe(1);
    expect(creditScale(credit(0.01, [0.02], [-0.03]))).toBe(0.05);
    expect(creditScale(credit(-2.2, [0], [0]))).toBe(2.5);
    expect([0.11, 0.2, 0.21, 0.6, 7].map(niceCeil)).toEqual([0.2, 0.2, 0.25, 1, 10]);
  });

  it('writes values with their sign and axis ticks without trailing zeros', () => {
    expect(formatCredit(0.25)).toBe('+0.250');
    expect(formatCredit(-1.5)).toBe('−1.500');
    expect(formatCredit(Number.NaN)).toBe('–');
    expect([0, 0.5, -0.125, 2.5].map(formatAxis)).toEqual(['0', '0.5', '−0.125', '2.5']);
  });

  it("names the bars after the method's parts, BEACON's where a method has none", () => {
    expect(creditBars('beacon').map((b) => b.label)).toEqual(['A_traj', 'A_seg', 'A']);
    expect(creditBars('gigpo').map((b) => b.label)).toEqual(['A_E', 'A_S', 'A']);
    expect(creditBars('gigpo').map((b) => b.key)).toEqual(['aTraj', 'aSeg', 'a']);
    expect(partNames('ppo')).toEqual({ run: 'A_traj', step: 'Â (GAE)', reward: 'R̂ = Â + V' });
  });
});
