/**
 * The cost of a wide race on the CPU, said before it runs (src/page/scale-estimate.ts): asked only on
 * wasm and cpu from COST_CHECK_RUNS runs, scaled by the runs from what was measured here, called an estimate.
 */
import { describe, expect, it } from 'vitest';
import { COST_CHECK_RUNS, duration, estimateCost, needsCostCheck } from '../../src/page/scale-estimate.ts';

describe('scale estimate', () => {
  it('asks first only on wasm or cpu, and only for wide races', () => {
    expect(needsCostCheck('wasm', 4096)).toBe(true);
    expect(needsCostCheck('cpu', COST_CHECK_RUNS)).toBe(true);
    expect(needsCostCheck('wasm', COST_CHECK_RUNS - 1)).toBe(false);
    expect(needsCostCheck('webgpu', 4096)).toBe(false);
    expect(needsCostCheck(null, 4096)).toBe(false);
  });

  it('scales the measured seconds per iteration by the ratio of runs and labels it an estimate', () => {
    const e = estimateCost('wasm', 4096, { secondsPerIteration: 0.5, runs: 64, source: 'this race’s last iterations' });
    expect(e.secondsPerIteration).toBeCloseTo(32);
    expect(e.text).toContain('Estimate: about 32 s per iteration');
    expect(e.text).toContain('measured 0.50 s per iteration at 64 runs, this race’s last iterations, scaled 64×');
  });

  it('says that nothing was measured rather than inventing a figure', () => {
    const e = estimateCost('cpu', 4096, null);
    expect(e.secondsPerIteration).toBeNull();
    expect(e.text).toContain('Nothing has been measured here yet');
  });

  it('writes durations in the unit a visitor reads', () => {
    expect(duration(0.25)).toBe('0.25 s');
    expect(duration(4.26)).toBe('4.3 s');
    expect(duration(45.4)).toBe('45 s');
    expect(duration(300)).toBe('5.0 min');
  });
});
