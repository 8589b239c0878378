import { describe, expect, it } from 'vitest';
import { effect, interval, percent, pValue, shortCommit, steps, verdict } from '../../src/results/format.ts';

describe('results formatting', () => {
  it('writes rates as percentages and missing values as a dash', () => {
    expect(percent(0.4567)).toBe('45.7%');
    expect(percent(1)).toBe('100.0%');
    expect(percent(null)).toBe('–');
    expect(percent(Number.NaN)).toBe('–');
  });

  it('writes env steps rounded, with thousands separators', () => {
    expect(steps(90112)).toBe('90,112');
    expect(steps(1234.6)).toBe('1,235');
    expect(steps(undefined)).toBe('–');
  });

  it('writes intervals with the given format and a dash when absent', () => {
    expect(interval([0.1, 0.25], (x) => percent(x))).toBe('[10.0%, 25.0%]');
    expect(interval(null, steps)).toBe('–');
  });

  it('writes small p-values as a bound, others to three decimals', () => {
    expect(pValue(0.00003)).toBe('< 0.001');
    expect(pValue(0.0312)).toBe('0.031');
    expect(pValue(1)).toBe('1.000');
    expect(pValue(null)).toBe('–');
  });

  it('writes effects in their endpoint’s unit, signed with a true minus', () => {
    expect(effect('auc', 0.034)).toBe('+3.4 pts');
    expect(effect('auc', -0.021)).toBe('−2.1 pts');
    expect(effect('stepsTo60', 18432)).toBe('+18,432 steps');
    expect(effect('stepsTo60', -2048)).toBe('−2,048 steps');
    expect(effect('auc', 0)).toBe('0.0 pts');
    expect(effect('signalRetention', 0.142, false)).toBe('0.142');
    expect(effect('finalSuccess', 0.5, false)).toBe('50.0%');
    expect(effect('auc', null)).toBe('–');
  });

  it('names a verdict from held: true, false or null (untestable)', () => {
    expect(verdict({ held: true })).toBe('held');
    expect(verdict({ held: false })).toBe('not held');
    expect(verdict({ held: null })).toBe('untestable');
  });

  it('shortens a commit as git does', () => {
    expect(shortCommit('c0ffee0000000000000000000000000000000003')).toBe('c0ffee0');
  });
});
