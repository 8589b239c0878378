/** The pre-registration's budget rule on hand-made pilot curves (src/study/pilot-budget.ts). */
import { describe, expect, it } from 'vitest';
import { pilotBudget } from '../../src/study/pilot-budget.ts';

describe('pilot budget rule', () => {
  it('takes the first iteration whose mean smoothed success reaches half the mean final, in whole full-length iterations', () => {
    // Two seeds; 12 iterations of 1000 env steps; success climbs to 0.8 and stays.
    const climb = [0, 0, 0.2, 0.4, 0.6, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8, 0.8];
    const steps = climb.map((_, i) => 1000 * (i + 1));
    const b = pilotBudget(
      [
        { success: climb, envSteps: steps },
        { success: climb, envSteps: steps },
      ],
      500,
      2,
    );
    expect(b.final).toBeCloseTo(0.8, 12);
    // Trailing-5 means: i = 4: (0 + 0 + 0.2 + 0.4 + 0.6) / 5 = 0.24; i = 5: 0.4 ≥ 0.4 → at 6000 steps = 12 full iterations of 500.
    expect(b.halfReachedAt).toBe(6000);
    expect(b.limitIterations).toBe(12);
  });

  it('never less than the floor, and the floor when half is never reached', () => {
    const flat = { success: [0.5, 0.5, 0.5], envSteps: [100, 200, 300] };
    expect(pilotBudget([flat], 1000, 8)).toMatchObject({ halfReachedAt: 100, limitIterations: 8 });
    expect(() => pilotBudget([], 1000, 8)).toThrow(/no pilot runs/);
  });
});
