/**
 * The debiased EMA of the success curves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { debiasedEma } from '../../src/page/smoothing.ts';

/** The textbook definition, written out: m_t = β m_{t−1} + (1 − β) x_t, shown m_t / (1 − β^t). */
function reference(xs: number[], beta: number): number[] {
  let m = 0;
  return xs.map((x, i) => {
    m = beta * m + (1 - beta) * x;
    return m / (1 - beta ** (i + 1));
  });
}

describe('debiased EMA', () => {
  it('starts at the first value (no bias towards 0)', () => {
    expect(debiasedEma([0.8], 0.9)).toEqual([0.8]);
    expect(debiasedEma([0.8, 0.8, 0.8], 0.99).map((v) => +v!.toFixed(12))).toEqual([0.8, 0.8, 0.8]);
  });

  it('matches the definition', () => {
    const xs = [0.1, 0.5, 0.3, 0.9, 0.0, 1.0];
    const got = debiasedEma(xs, 0.6);
    reference(xs, 0.6).forEach((v, i) => expect(got[i]).toBeCloseTo(v, 12));
    // Second value by hand: m1 = 0.04, m2 = 0.6·0.04 + 0.4·0.5 = 0.224, shown 0.224 / (1 − 0.36) = 0.35.
    expect(got[1]).toBeCloseTo(0.35, 12);
  });

  it('with β = 0 is the raw curve', () => {
    expect(debiasedEma([0.2, 0.7, 0.4], 0)).toEqual([0.2, 0.7, 0.4]);
  });

  it('stays within the range of the values seen so far', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 50 }),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        (xs, beta) => {
          const out = debiasedEma(xs, beta);
          out.forEach((v, i) => {
            const seen = xs.slice(0, i + 1);
            expect(v!).toBeGreaterThanOrEqual(Math.min(...seen) - 1e-9);
            expect(v!).toBeLessThanOrEqual(Math.max(...seen) + 1e-9);
          });
        },
      ),
    );
  });

  it('skips gaps: they stay null and do not count', () => {
    const out = debiasedEma([0.5, null, Number.NaN, 0.5], 0.9);
    expect(out[1]).toBeNull();
    expect(out[2]).toBeNull();
    expect(out[3]).toBeCloseTo(0.5, 12);
  });

  it('rejects β outside [0, 1)', () => {
    expect(() => debiasedEma([1], 1)).toThrow(/smoothing β must be in \[0, 1\)/);
    expect(() => debiasedEma([1], -0.1)).toThrow(RangeError);
  });
});
