/**
 * A cell's mean curve must not flatter: runs whose episodes end sooner take more iterations within the
 * same env-step budget, so a curve averaged per iteration ends on the learners alone. The cell curve is
 * drawn on a common env-step grid with every run carried to the budget the way the AUC counts it
 * (docs/maths.md §11), so its last point is the mean over all the cell's runs at the budget. Beside it,
 * the two readings the study leaves open: the AUC as written against as coded, and equal updates.
 */
import { describe, expect, it } from 'vitest';
import { evaluateConfirmatoryClaims } from '../../src/study/confirmatory-claims.ts';
import { normalisedArea, normalisedAreaAsWritten } from '../../src/study/endpoints.ts';
import { runSpec } from '../../src/study/matrix.ts';
import { aucReadings, equalUpdates } from '../../src/study/readings.ts';
import { StudyCells, summariseCells } from '../../src/study/study-cells.ts';
import { aggregateOnSteps, carriedCurveOnSteps, finalSuccess, STEP_GRID_POINTS, summarizeRun, type IterationFigures } from '../../src/study/summary.ts';

const BUDGET = 12_000;

/** One record per iteration with the given success and env steps. */
function figures(success: number[], steps: number[] = success.map(() => 1000)): IterationFigures[] {
  return success.map((s, i) => ({
    success: s,
    partial: 0,
    failure: 1 - s,
    sampleUtilization: 1,
    zeroAdvantageRatio: 0,
    contradictoryRatio: 0,
    contradictoryRatioSigned: Number.NaN,
    signalRetention: 0,
    ccr: 1,
    meanEpisodeLength: 10,
    envSteps: steps[i],
    ms: { rollout: 1, advantage: 1, update: 1 },
  }));
}

/** A GRPO run on GridHouse long with the env steps and success of each iteration. */
function run(seed: number, success: number[], steps: number[], stopped: string | null = null) {
  return summarizeRun(runSpec('gridhouse', 'long', 'grpo', seed), figures(success, steps), 1, { envStepBudget: BUDGET, stopped });
}

// A learner: short episodes once it succeeds, so it takes 8 iterations of the budget.
const learner = run(101, [0, 0.4, 0.8, 1, 1, 1, 1, 1], [2000, 2000, 2000, 1000, 1000, 1000, 1000, 2000]);
// A non-learner: full-length episodes, 4 iterations; its last iteration overshoots nothing.
const stuck = run(102, [0, 0, 0.1, 0.1], [3000, 3000, 3000, 3000]);
// A run that stopped on a non-finite loss after 2 iterations: it counts as 0 for the rest.
const stopped = run(103, [0, 0.5], [3000, 3000], 'non-finite loss');

describe('cell curves carried to the budget', () => {
  it('carries a run past its last step at its last-5 success, or 0 if it stopped, and says which points it took', () => {
    const grid = [1000, 5000, 7000, 12_000];
    const s = carriedCurveOnSteps(stopped, 'success', grid);
    expect(s.values).toEqual([0, 0.5, 0, 0]);
    expect(s.observed).toEqual([true, true, false, false]);
    const early = run(104, [0, 1, 1], [2000, 2000, 2000]);
    // Steps 1–2,000 are iteration 0's, 4,001–6,000 iteration 2's; past 6,000 the last-5 mean.
    expect(carriedCurveOnSteps(early, 'success', grid).values).toEqual([0, 1, finalSuccess([0, 1, 1]), finalSuccess([0, 1, 1])]);
    // Without carrying, the late points average only the runs still going.
    const plain = aggregateOnSteps([learner, stopped], 'success', [12_000]);
    expect(plain.n).toEqual([1]);
    const carried = aggregateOnSteps([learner, stopped], 'success', [12_000], { carry: true });
    expect(carried.n).toEqual([2]);
    expect(carried.observed).toEqual([1]);
    expect(carried.mean[0]).toBeCloseTo((1 + 0) / 2, 12);
  });

  it("ends each cell's curve at the mean over all its runs at the budget, on increasing env steps", () => {
    const cells = new StudyCells([learner, stuck, stopped], { gridhouse: { long: BUDGET } });
    const [cell] = summariseCells(cells);
    const { envSteps, success, observed } = cell.curve;
    expect(envSteps).toHaveLength(STEP_GRID_POINTS);
    expect(envSteps.at(-1)).toBe(BUDGET);
    for (let i = 1; i < envSteps.length; i++) expect(envSteps[i]).toBeGreaterThan(envSteps[i - 1]);
    // At the budget: the learner's iteration that took step 12,000 (success 1), the stuck run's last
    // iteration (0.1), the stopped run at 0 — not the learner alone.
    expect(success.at(-1)).toBeCloseTo((1 + 0.1 + 0) / 3, 12);
    expect(observed?.at(-1)).toBe(2);
    // Every run is behind every point; the ones still going are counted apart.
    expect(observed?.[0]).toBe(3);
    // A per-iteration average would have ended at the learner's last iteration alone (100%).
    expect(success.at(-1)).toBeLessThan(0.5);
  });
});

describe('the AUC as written and as coded, and equal updates', () => {
  const SEEDS = Array.from({ length: 15 }, (_, i) => 101 + i);
  const budgets = { gridhouse: { long: 10_000 } };
  const grpoAt = (seed: number) => 0.3 + 0.001 * (seed % 3);
  // BEACON learns fast, its episodes end sooner, and it hits an iteration cap after 4,000 of 10,000
  // steps; GRPO spends the whole budget at about 30%.
  const runsOf = () =>
    SEEDS.flatMap((seed) => [
      summarizeRun(runSpec('gridhouse', 'long', 'beacon', seed), figures([0.1, 0.9, 0.9, 0.9]), 1, { envStepBudget: 10_000 }),
      summarizeRun(runSpec('gridhouse', 'long', 'grpo', seed), figures([0.1, ...new Array(9).fill(grpoAt(seed))]), 1, { envStepBudget: 10_000 }),
    ]);

  it('reads the written AUC over the whole budget with unused steps at 0', () => {
    // 3 iterations of 1,000 steps after iteration 0 at 0.9; the budget is 10,000.
    expect(normalisedAreaAsWritten([0.1, 0.9, 0.9, 0.9], [1000, 2000, 3000, 4000], 10_000)).toBeCloseTo(2700 / 10_000, 12);
    // The coded reading divides by the 9,000 steps after iteration 0 and carries the last-5 mean.
    expect(normalisedArea([0.1, 0.9, 0.9, 0.9], [1000, 2000, 3000, 4000], 10_000, false)).toBeCloseTo((2700 + 6000 * 0.7) / 9000, 12);
  });

  it('marks a claim whose verdict differs between the readings', () => {
    const runs = runsOf();
    const coded = evaluateConfirmatoryClaims(new StudyCells(runs, budgets));
    const readings = aucReadings(runs, budgets, coded);
    const p1 = readings.claims.find((c) => c.id === 'P1' && c.env === 'gridhouse');
    expect(p1?.asCoded.held).toBe(true);
    expect(p1?.asWritten.held).toBe(false);
    expect(p1?.differs).toBe(true);
    // Only AUC claims are compared.
    expect(readings.claims.every((c) => coded.find((x) => x.id === c.id)?.endpoint === 'auc')).toBe(true);
  });

  it('compares methods at the last iteration every run reached', () => {
    const cells = new StudyCells(runsOf(), budgets);
    const [cell] = equalUpdates(cells, 'long', 4);
    expect(cell).toMatchObject({ env: 'gridhouse', horizon: 'long', updatesPerIteration: 4, commonIterations: 3 });
    const beacon = cell.variants.find((v) => v.variant === 'beacon');
    const grpo = cell.variants.find((v) => v.variant === 'grpo');
    expect(beacon?.meanIterations).toBe(3);
    expect(grpo?.meanIterations).toBe(9);
    expect(beacon?.curve).toHaveLength(4);
    expect(beacon?.successAtCommon.mean).toBeCloseTo(finalSuccess([0.1, 0.9, 0.9, 0.9]), 12);
    expect(grpo?.successAtCommon.mean).toBeCloseTo(SEEDS.reduce((a, s) => a + finalSuccess([0.1, grpoAt(s), grpoAt(s), grpoAt(s)]), 0) / SEEDS.length, 12);
  });
});
