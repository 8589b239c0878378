/**
 * Calibration of every environment on long tasks (docs/maths.md §1), through the stats the envs CLI
 * prints: a uniformly random admissible policy almost never solves a task (under 2%) but often completes
 * at least one sub-goal (partial success at least 30%), and the oracle solves every task.
 */
import { describe, expect, it } from 'vitest';
import { runStats } from '../../envs/stats.ts';

describe.each(['gridhouse', 'texthouse', 'shop'])('%s calibration on long tasks', (env) => {
  it('random policy: full success under 2%, partial success at least 30% (1000 episodes)', () => {
    const stats = runStats(env, { horizon: 'long', policy: 'random', episodes: 1000, seed: 1 });
    expect(stats.success).toBeLessThan(0.02);
    expect(stats.partial).toBeGreaterThanOrEqual(0.3);
  }, 60_000);

  it('oracle: solves every task (500 episodes)', () => {
    const stats = runStats(env, { horizon: 'long', policy: 'oracle', episodes: 500, seed: 1 });
    expect(stats.success).toBe(1);
  }, 60_000);
});
