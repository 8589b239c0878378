/**
 * The race chart against environment steps (src/page/chart-data.ts): each method's success placed at the
 * env steps it had played, on one sorted axis, with the target crossing at the same record as on the
 * iterations axis.
 */
import { describe, expect, it } from 'vitest';
import { comparisonColumns, cumulativeEnvSteps, envStepColumns } from '../../src/page/chart-data.ts';
import { MetricHistory } from '../../src/page/metric-history.ts';
import { sampleRecord } from './sample-record.ts';

/** A history of iteration 0 (no steps counted) then iterations 1… with these steps and successes. */
function history(steps: number[], success: number[]): MetricHistory {
  const h = new MetricHistory();
  h.push(sampleRecord({ iteration: 0, envSteps: 999, success: 0 }), 0);
  steps.forEach((s, i) => h.push(sampleRecord({ iteration: i + 1, envSteps: s, success: success[i] }), i + 1));
  return h;
}

describe('env-steps axis', () => {
  it('counts the steps of training iterations only, as a running sum', () => {
    expect(cumulativeEnvSteps(history([100, 50, 70], [0, 0, 0]))).toEqual([0, 100, 150, 220]);
  });

  it('places each method at its own steps on one sorted axis, null elsewhere', () => {
    const grpo = history([100, 100], [0.1, 0.2]);
    const beacon = history([60, 80], [0.3, 0.4]);
    const { columns } = envStepColumns({ grpo, beacon }, ['grpo', 'beacon'], 0, 0.6);
    expect(columns[0]).toEqual([0, 60, 100, 140, 200]);
    // β = 0: the smoothed column equals the raw one.
    expect(columns[1]).toEqual([0, null, 0.1, null, 0.2]);
    expect(columns[3]).toEqual([0, 0.3, null, 0.4, null]);
    expect(columns[4]).toEqual(columns[3]);
  });

  it('marks the target at the steps of the iteration that reached it on the iterations axis', () => {
    const steps = [10, 20, 30, 40, 50, 60, 70];
    const success = [0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7];
    const h = history(steps, success);
    const byIteration = comparisonColumns({ beacon: h }, ['beacon'], 0.9, 0.6).crossing.beacon;
    const bySteps = envStepColumns({ beacon: h }, ['beacon'], 0.9, 0.6).crossing.beacon;
    expect(byIteration).not.toBeNull();
    // Iteration i has played steps 10 + 20 + … up to i.
    expect(bySteps).toBe(steps.slice(0, byIteration!).reduce((a, b) => a + b, 0));
  });

  it('has no crossing when the target is never reached', () => {
    expect(envStepColumns({ grpo: history([10, 10], [0, 0]) }, ['grpo'], 0.9, 0.6).crossing.grpo).toBeNull();
  });
});
