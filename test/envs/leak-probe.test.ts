/**
 * The leak probe (test/support/leak-probe.ts): no fixed, observation-blind rule over one or two action
 * features may solve more than 5% of long tasks, in any environment. Features that carried planner
 * output (say, "this move goes towards the landmark the next sub-goal needs") would let such a rule
 * sequence the sub-goals; the positive control shows the probe catches exactly that.
 */
import { describe, expect, it } from 'vitest';
import { ORACLE_FEATURE, probePairs, probeSingles, runScorer, type ProbeOptions, type ScorerResult } from '../support/leak-probe.ts';

const MAX_SUCCESS = 0.05;
/** Pairs are drawn from this many of the most promising single features. */
const TOP_SINGLES = 6;

const worst = (results: ScorerResult[]): string =>
  results
    .slice(0, 3)
    .map((r) => `${r.label}: ${(100 * r.success).toFixed(1)}%`)
    .join('; ');

describe.each(['gridhouse', 'texthouse', 'shop'])('%s leak probe on long tasks', (env) => {
  const options: ProbeOptions = { env, horizon: 'long', episodes: 256, seed: 1 };

  it('catches a leak: a scorer on a feature that marks the oracle action solves every task', () => {
    expect(runScorer(options, [{ feature: ORACLE_FEATURE, weight: 1 }]).success).toBe(1);
  });

  it(`no single action feature (either sign), nor any pair of the top ${TOP_SINGLES}, solves more than 5%`, () => {
    const singles = probeSingles(options);
    expect(singles.length).toBeGreaterThan(40);
    expect(
      singles.filter((r) => r.success > MAX_SUCCESS),
      worst(singles),
    ).toEqual([]);
    const pairs = probePairs(options, singles, TOP_SINGLES);
    expect(pairs).toHaveLength(15 * 4 * 3);
    expect(
      pairs.filter((r) => r.success > MAX_SUCCESS),
      worst(pairs),
    ).toEqual([]);
  }, 180_000);
});
