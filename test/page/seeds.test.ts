/**
 * Seeds per method (page setting `seeds`): the band maths (mean, sample sd, no band with one seed), the
 * per-seed histories and their mean, and the seeds a race trains.
 */
import { describe, expect, it } from 'vitest';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { MetricHistory } from '../../src/page/metric-history.ts';
import { meanSd, seedLines, successBand } from '../../src/page/seed-bands.ts';
import { meanRecord, SeedHistories, seedConfigs, seedList } from '../../src/page/seeds.ts';
import { debiasedEma } from '../../src/page/smoothing.ts';
import { readPageState, writePageState } from '../../src/page/url-state.ts';
import { DEFAULT_PAGE_SETTINGS } from '../../src/page/page-settings.ts';
import type { IterationRecord } from '../../src/trainer/iteration-record.ts';
import { sampleRecord } from './sample-record.ts';

function record(iteration: number, success: number, over: Partial<IterationRecord> = {}): IterationRecord {
  return sampleRecord({ iteration, success, failure: 0.5 - success / 2, meanEpisodeLength: 12, ...over });
}

function history(successes: number[]): MetricHistory {
  const h = new MetricHistory();
  successes.forEach((s, i) => h.push(record(i + 1, s), i));
  return h;
}

describe('band maths', () => {
  it('mean and sample standard deviation (n − 1); no sd for one value', () => {
    expect(meanSd([0.2, 0.4])).toEqual({ mean: expect.closeTo(0.3, 12), sd: expect.closeTo(Math.SQRT2 * 0.1, 12) });
    const { mean, sd } = meanSd([1, 2, 3, 4]);
    expect(mean).toBe(2.5);
    expect(sd).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(meanSd([0.7])).toEqual({ mean: 0.7, sd: null });
    expect(meanSd([0.5, 0.5, 0.5]).sd).toBe(0);
    expect(meanSd([])).toEqual({ mean: NaN, sd: null });
  });

  it('with one seed there is no band', () => {
    expect(successBand([history([0.1, 0.2])], 0.9, 2)).toBeNull();
    expect(successBand([], 0.9, 2)).toBeNull();
  });

  it('spans mean ∓ sd of the seeds’ smoothed curves, centred on the smoothed mean', () => {
    const a = [0.1, 0.3, 0.6];
    const b = [0.3, 0.5, 0.6];
    const band = successBand([history(a), history(b)], 0, 4)!;
    // β = 0: the raw values. |a − b| / √2 is the sample sd of two values.
    expect(band.lower.slice(0, 3).map((v) => +v!.toFixed(12))).toEqual([0.2 - 0.1 * Math.SQRT2, 0.4 - 0.1 * Math.SQRT2, 0.6].map((v) => +v.toFixed(12)));
    expect(band.upper.slice(0, 3).map((v) => +v!.toFixed(12))).toEqual([0.2 + 0.1 * Math.SQRT2, 0.4 + 0.1 * Math.SQRT2, 0.6].map((v) => +v.toFixed(12)));
    expect(band.lower[3]).toBeNull(); // past the data: a gap
    const smooth = successBand([history(a), history(b)], 0.9, 3)!;
    const centre = debiasedEma([0.2, 0.4, 0.6], 0.9);
    for (let i = 0; i < 3; i++) expect((smooth.lower[i]! + smooth.upper[i]!) / 2).toBeCloseTo(centre[i]!, 12);
  });

  it('draws each seed’s own smoothed line, as far as that seed has trained', () => {
    const lines = seedLines([history([0.1, 0.2, 0.3]), history([0.5])], 0.9, 4);
    expect(lines).toHaveLength(2);
    expect(lines[0].slice(0, 3)).toEqual(debiasedEma([0.1, 0.2, 0.3], 0.9));
    expect(lines[0][3]).toBeNull();
    expect(lines[1]).toEqual([0.5, null, null, null]); // the debiased EMA starts at the first value
    expect(seedLines([history([0.1, 0.3])], 0, 2)).toEqual([[0.1, 0.3]]);
  });

  it('covers only the iterations every seed has completed', () => {
    const band = successBand([history([0.1, 0.2, 0.3]), history([0.3])], 0, 3)!;
    expect(band.upper[0]).not.toBeNull();
    expect(band.upper.slice(1)).toEqual([null, null]);
  });
});

describe('seed histories', () => {
  it('with one seed, the mean is that seed’s own history (a single-seed page is unchanged)', () => {
    const runs = new SeedHistories([7]);
    runs.push(7, record(1, 0.5), 0);
    expect(runs.mean).toBe(runs.perSeed[0]);
    expect(runs.seededRecords()).toEqual([{ ...record(1, 0.5), seed: 7 }]);
  });

  it('grows the mean once every seed has delivered an iteration, field by field, NaN left out', () => {
    const runs = new SeedHistories([1, 2]);
    runs.push(1, record(0, 0.2, { ccr: NaN }), 0);
    expect(runs.mean.length).toBe(0);
    runs.push(2, record(0, 0.4, { ccr: 3 }), 10);
    runs.push(1, record(1, 0.6), 20);
    expect(runs.mean.length).toBe(1);
    const m = runs.mean.latest!;
    expect(m.iteration).toBe(0);
    expect(m.method).toBe('beacon');
    expect(m.success).toBeCloseTo(0.3, 12);
    expect(m.ccr).toBe(3);
    expect(m.contradictoryRatio).toBeNaN();
    expect(m.ms).toEqual({ rollout: 100, advantage: 2, update: 50 });
    runs.push(2, record(1, 0.8), 30);
    expect(runs.mean.iterations).toEqual([0, 1]);
    expect(runs.mean.columns.success[1]).toBeCloseTo(0.7, 12);
    expect(runs.seededRecords().map((r) => `${r.seed}:${r.iteration}`)).toEqual(['1:0', '1:1', '2:0', '2:1']);
    expect(() => runs.push(3, record(2, 0), 40)).toThrow(/seed 3 is not one of this method's seeds \(1, 2\)/);
  });

  it('means optional fields only where present', () => {
    const m = meanRecord([record(1, 0, { valueLoss: 1 }), record(1, 0, { valueLoss: 3 })]);
    expect(m.valueLoss).toBe(2);
    expect(meanRecord([record(1, 0), record(1, 0)]).valueLoss).toBeUndefined();
  });
});

describe('seeds setting', () => {
  it('trains seed, seed + 1, … with every other setting the same', () => {
    expect(seedList(4, 3)).toEqual([4, 5, 6]);
    const configs = seedConfigs({ ...PAGE_DEFAULT_CONFIG, seed: 9 }, 2);
    expect(configs.map((c) => c.seed)).toEqual([9, 10]);
    expect({ ...configs[1], seed: 9 }).toEqual({ ...PAGE_DEFAULT_CONFIG, seed: 9 });
  });

  it('defaults to 1, is read from and written to the URL', () => {
    expect(DEFAULT_PAGE_SETTINGS.seeds).toBe(1);
    const { page, issues } = readPageState('seeds=3');
    expect(issues).toEqual([]);
    expect(page.seeds).toBe(3);
    expect(writePageState({ config: PAGE_DEFAULT_CONFIG, page })).toBe('seeds=3');
    expect(writePageState({ config: PAGE_DEFAULT_CONFIG, page: { ...page, seeds: 1 } })).toBe('');
  });

  it('names seeds that would run past the largest seed, and keeps one seed', () => {
    const { config, page, issues } = readPageState('seed=4294967294&seeds=3');
    expect(config.seed).toBe(4294967294);
    expect(page.seeds).toBe(1);
    expect(issues).toEqual([{ field: 'seeds', message: 'seeds 3 from seed 4294967294 would go past the largest seed 4294967295; using 1' }]);
    expect(readPageState('seed=4294967294&seeds=2').issues).toEqual([]);
  });
});
