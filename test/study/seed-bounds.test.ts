/**
 * Floors and ceilings (src/study/seed-bounds.ts): the per-run rule on hand-made curves, the mean success
 * over the end of the budget (src/study/endpoints.ts `meanSuccessFrom`), which cells a claim compares
 * (read from its tests' comparisons), and the counts and notes on the committed study.json.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CellSummary, ClaimRecord } from '../../src/study/confirmatory-types.ts';
import { meanSuccessFrom, normalisedArea } from '../../src/study/endpoints.ts';
import { type BoundRun, claimArms, runBound, studyBounds } from '../../src/study/seed-bounds.ts';

/** A run of one iteration of 1000 env steps each (iteration 0 included), in a budget of `budget` steps. */
function run(success: number[], budget = success.length * 1000, stopped: string | null = null): BoundRun {
  const envSteps = success.map((_, i) => (i + 1) * 1000);
  return {
    key: 'test-run',
    env: 'gridhouse',
    horizon: 'long',
    variant: 'grpo',
    seed: 1,
    curves: { success, envSteps } as BoundRun['curves'],
    envStepBudget: budget,
    stopped,
  };
}

describe('meanSuccessFrom', () => {
  it('is the AUC as coded from the start of the budget, and the mean of its last three quarters from a quarter on', () => {
    const success = [0.1, 0.2, 0.4, 0.6, 0.8];
    const envSteps = [1000, 2000, 3000, 4000, 5000];
    expect(meanSuccessFrom(success, envSteps, 5000, false, 0)).toBe(normalisedArea(success, envSteps, 5000, false));
    // B' = 4000 steps after iteration 0's; from a quarter on: the last 3000 steps, at 0.4, 0.6 and 0.8.
    expect(meanSuccessFrom(success, envSteps, 5000, false, 0.25)).toBeCloseTo((0.4 + 0.6 + 0.8) / 3, 12);
    // Half an iteration inside the window: 500 steps at 0.2, then 0.4 and 0.6 (budget 4000 steps, B' = 3000).
    expect(meanSuccessFrom([0.1, 0.2, 0.4, 0.6], [1000, 2000, 3000, 4000], 4000, false, 1 / 6)).toBeCloseTo((500 * 0.2 + 1000 * 0.4 + 1000 * 0.6) / 2500, 12);
    // Unused steps count at the last-5 success, or 0 after a stop, inside the window as in the AUC.
    expect(meanSuccessFrom([0.1, 1, 1], [1000, 2000, 3000], 9000, false, 0.5)).toBeCloseTo(0.7, 12);
    expect(meanSuccessFrom([0.1, 1, 1], [1000, 2000, 3000], 9000, true, 0.5)).toBe(0);
    expect(() => meanSuccessFrom([0.1], [1000], 5000, false, 1)).toThrow(/fromShare must be in \[0, 1\)/);
  });
});

describe('runBound', () => {
  it('puts a run under 5% over its budget at the floor, one over 95% from its first quarter on at the ceiling, others at neither', () => {
    expect(runBound(run([0, 0.02, 0.06, 0.04, 0.05]))).toBe('floor');
    expect(runBound(run([0, 0.1, 0.1, 0.1, 0.1]))).toBeNull();
    expect(runBound(run([0.5, 0.5, 0.97, 1, 1]))).toBe('ceiling');
    // The first quarter is free to climb; after it, a dip to 0.8 keeps the run off the ceiling.
    expect(runBound(run([0.5, 0.5, 0.97, 0.8, 1]))).toBeNull();
    expect(() => runBound(run([0, null as unknown as number]))).toThrow(/run test-run: curves.success\[1\] must be a finite number/);
  });
});

const cell = (env: string, horizon: string, variant: string, label: string) => ({ env, horizon, variant, label }) as CellSummary;
const claim = (env: string, comparisons: string[], horizon: string | null = null) =>
  ({ id: 'X1', env, horizon, tests: comparisons.map((comparison) => ({ comparison })) }) as unknown as ClaimRecord;

describe('claimArms', () => {
  const cells = [
    ...['long', 'short'].flatMap((h) => [
      cell('gridhouse', h, 'grpo', 'GRPO'),
      cell('gridhouse', h, 'beacon', 'BEACON'),
      cell('gridhouse', h, 'gigpo', 'GiGPO'),
    ]),
    cell('gridhouse', 'long', 'beaconLoose', 'BEACON, loose detector'),
    cell('gridhouse', 'long', 'beaconLooseNoTrajectory', 'BEACON, loose detector, no trajectory term'),
    cell('gridhouse', 'long', 'noTrajectoryTerm', 'no trajectory term'),
    cell('shop', 'long', 'beacon', 'BEACON'),
    cell('shop', 'long', 'noTrajectoryTerm', 'no trajectory term'),
  ];
  const arms = (c: ClaimRecord) => claimArms(c, cells).map((a) => `${a.env} ${a.horizon} ${a.variant}`);

  it('reads the longest label first, in the order the comparison names them', () => {
    expect(arms(claim('gridhouse', ['BEACON, loose detector − BEACON, loose detector, no trajectory term']))).toEqual([
      'gridhouse long beaconLoose',
      'gridhouse long beaconLooseNoTrajectory',
    ]);
    expect(arms(claim('gridhouse', ['(BEACON, loose detector − GRPO) − 0.5 × (BEACON − GRPO)']))).toEqual([
      'gridhouse long beaconLoose',
      'gridhouse long grpo',
      'gridhouse long beacon',
    ]);
  });

  it('adds the horizon and the environment a contrast names', () => {
    expect(arms(claim('gridhouse', ['[(BEACON − GRPO) − (GiGPO − GRPO)] long − short']))).toEqual([
      'gridhouse long beacon',
      'gridhouse long grpo',
      'gridhouse long gigpo',
      'gridhouse short beacon',
      'gridhouse short grpo',
      'gridhouse short gigpo',
    ]);
    expect(arms(claim('gridhouse', ['(BEACON − no trajectory term) gridhouse − (BEACON − no trajectory term) shop']))).toEqual([
      'gridhouse long beacon',
      'gridhouse long noTrajectoryTerm',
      'shop long beacon',
      'shop long noTrajectoryTerm',
    ]);
    expect(arms(claim('gridhouse', ['BEACON − GRPO'], 'short'))).toEqual(['gridhouse short beacon', 'gridhouse short grpo']);
  });
});

describe('on the committed study.json', () => {
  const study = JSON.parse(readFileSync(new URL('../../docs/results/study.json', import.meta.url), 'utf8')) as {
    runs: (BoundRun & { failedToStart: boolean })[];
    cells: CellSummary[];
    claims: ClaimRecord[];
  };
  const bounds = studyBounds(study);
  const count = (env: string, variant: string) => bounds.cells.find((c) => c.env === env && c.horizon === 'long' && c.variant === variant);
  const failedToStart = (env: string, variant: string) =>
    study.runs.filter((r) => r.env === env && r.horizon === 'long' && r.variant === variant && r.failedToStart).length;
  const note = (id: string, env: string) => bounds.claims.find((c) => c.id === id && c.env === env)?.note;

  it('counts the shop’s long seeds at the floor (the failure-to-start rule of docs/maths.md §11 counts 10, 6 and 15)', () => {
    expect([count('shop', 'grpo'), count('shop', 'beacon'), count('shop', 'beaconLooseNoTrajectory')].map((c) => [c?.floor, c?.seeds])).toEqual([
      [11, 15],
      [5, 15],
      [15, 15],
    ]);
    expect([failedToStart('shop', 'grpo'), failedToStart('shop', 'beacon'), failedToStart('shop', 'beaconLooseNoTrajectory')]).toEqual([10, 6, 15]);
    expect(count('gridhouse', 'sftDemo30')?.ceiling).toBe(6);
  });

  it('says beside D4 and D7 in the shop that they rest on runs at the floor, and nothing beside E12 there, whose arms learned', () => {
    expect(note('D7', 'shop')).toBe('rests on runs at the floor (under 5% success over the budget): BEACON, fine detector 7 of 15 seeds, BEACON 5 of 15');
    expect(note('D4', 'shop')).toMatch(
      /^rests on runs at the floor .*: BEACON, loose detector 12 of 15 seeds, BEACON, loose detector, no trajectory term 15 of 15$/,
    );
    expect(note('E12', 'shop')).toBeNull();
    expect(note('P1', 'texthouse')).toBeNull();
    expect(bounds.claims.find((c) => c.id === 'M8' && c.env === 'gridhouse' && c.horizon === 'medium')?.restsOn).toBe('ceiling');
  });
});
