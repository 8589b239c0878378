import { describe, expect, it } from 'vitest';
import { resultsView } from '../../src/results/results-url.ts';

describe('the results page URL', () => {
  it('reads present as the main page does', () => {
    expect(resultsView('')).toEqual({ present: false, issues: [] });
    expect(resultsView('?present=1')).toEqual({ present: true, issues: [] });
    expect(resultsView('?present=0')).toEqual({ present: false, issues: [] });
  });

  it('names a bad present value and parameters it does not read, applying neither', () => {
    const bad = resultsView('?present=yes');
    expect(bad.present).toBe(false);
    expect(bad.issues).toHaveLength(1);
    expect(bad.issues[0]).toMatch(/present/);
    expect(resultsView('?horizon=long&present=1').issues).toEqual(['The results page reads only "present"; ignored: "horizon".']);
  });
});
