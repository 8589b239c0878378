/**
 * Metric export (CSV, JSON), the per-method history and the comparison columns built from it.
 */
import { describe, expect, it } from 'vitest';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { comparisonColumns, successColumns } from '../../src/page/chart-data.ts';
import { CSV_COLUMNS, recordsToCsv, recordsToJson, type SeededRecord } from '../../src/page/export.ts';
import { MetricHistory } from '../../src/page/metric-history.ts';
import { sampleRecord } from './sample-record.ts';

function record(method: 'grpo' | 'beacon', iteration: number, over: Partial<SeededRecord> = {}): SeededRecord {
  return { seed: 1, ...sampleRecord({ iteration, method }), ...over };
}

describe('CSV export', () => {
  it('writes a header and one row per method, seed and iteration, NaN as an empty cell', () => {
    const csv = recordsToCsv({ grpo: [record('grpo', 1), record('grpo', 2)], beacon: [record('beacon', 1, { success: 0.5 })] });
    const lines = csv.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe([...CSV_COLUMNS.map(([n]) => n), 'variant'].join(','));
    expect(lines[0]).toBe(
      'method,seed,iteration,success,partial,failure,sampleUtilization,zeroAdvantageRatio,contradictoryRatio,signalRetention,ccr,policyLoss,entropy,approxKl,clipFraction,gradNorm,meanEpisodeLength,envSteps,envStepsPerSecond,msRollout,msAdvantage,msUpdate,variant',
    );
    expect(lines[1]).toBe('grpo,1,1,0.25,0.5,0.25,0.75,0.1,,0.4,1.5,-0.01,1.2,0.001,0.05,0.3,12.5,200,1000,100,2,50,grpo');
    expect(lines[3].startsWith('beacon,1,1,0.5,')).toBe(true);
    for (const line of lines) expect(line.split(',')).toHaveLength(CSV_COLUMNS.length + 1);
  });

  it('names the race entry of each row, so a method and its variant (both running beacon) stay apart', () => {
    const lines = recordsToCsv({ beacon: [record('beacon', 1)], beaconReleased: [record('beacon', 1)] })
      .trimEnd()
      .split('\n');
    expect(lines.slice(1).map((l) => [l.split(',')[0], l.split(',').at(-1)])).toEqual([
      ['beacon', 'beacon'],
      ['beacon', 'beaconReleased'],
    ]);
  });

  it('writes only the header when there is nothing yet', () => {
    expect(recordsToCsv({ grpo: [], beacon: [] }).trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('JSON export', () => {
  it('holds the settings and every record, NaN as null, and parses back', () => {
    const meta = {
      configs: { grpo: { ...PAGE_DEFAULT_CONFIG, method: 'grpo' as const }, beacon: { ...PAGE_DEFAULT_CONFIG, method: 'beacon' as const } },
      backend: 'webgpu (test)',
      url: 'http://x/?seed=2',
      exportedAt: '2026-01-01T00:00:00.000Z',
    };
    const text = recordsToJson(meta, { grpo: [record('grpo', 1)], beacon: [record('beacon', 1, { ccr: Number.POSITIVE_INFINITY })] });
    const back = JSON.parse(text);
    expect(back.configs.grpo.method).toBe('grpo');
    expect(back.configs.beacon).toEqual({ ...PAGE_DEFAULT_CONFIG, method: 'beacon' });
    expect(back.backend).toBe('webgpu (test)');
    expect(back.url).toBe('http://x/?seed=2');
    expect(back.records.grpo[0].contradictoryRatio).toBeNull();
    expect(back.records.beacon[0].ccr).toBeNull();
    expect(back.records.grpo[0].ms).toEqual({ rollout: 100, advantage: 2, update: 50 });
  });
});

describe('metric history and chart columns', () => {
  it('keeps records and null-for-NaN columns', () => {
    const h = new MetricHistory();
    h.push(record('beacon', 1), 0);
    h.push(record('beacon', 2, { success: 0.75 }), 500);
    expect(h.length).toBe(2);
    expect(h.iterations).toEqual([1, 2]);
    expect(h.columns.success).toEqual([0.25, 0.75]);
    expect(h.columns.contradictoryRatio).toEqual([null, null]);
    expect(h.iterationsPerSecond()).toBeCloseTo(2, 12);
    expect(h.recentMean((r) => r.success)).toBeCloseTo(0.5, 12);
  });

  it('aligns the methods on one x axis and marks iterations to the target (mean of the last 5)', () => {
    const grpo = new MetricHistory();
    const beacon = new MetricHistory();
    [0.2, 0.4, 0.7].forEach((s, i) => grpo.push(record('grpo', i + 1, { success: s }), i));
    [0.5, 0.9].forEach((s, i) => beacon.push(record('beacon', i + 1, { success: s }), i));
    const { columns, crossing } = comparisonColumns({ grpo, beacon }, ['grpo', 'beacon'], 0, 0.6);
    expect(columns[0]).toEqual([1, 2, 3]);
    expect(columns[1]).toEqual([0.2, 0.4, 0.7]);
    expect(columns[3]).toEqual([0.5, 0.9, null]);
    // Fewer than 5 iterations: no full window yet, whatever the raw values.
    expect(crossing).toEqual({ grpo: null, beacon: null });
    // BEACON: 0.5, 0.9, 0.3, 0.9, 0.4 → mean 0.6 at iteration 5; GRPO: 0.2, 0.4, 0.7, 0.8, 0.8 → 0.58, then
    // 0.4, 0.7, 0.8, 0.8, 0.5 → 0.64 at iteration 6.
    [0.3, 0.9, 0.4].forEach((s, i) => beacon.push(record('beacon', i + 3, { success: s }), i + 2));
    [0.8, 0.8, 0.5].forEach((s, i) => grpo.push(record('grpo', i + 4, { success: s }), i + 3));
    expect(comparisonColumns({ grpo, beacon }, ['grpo', 'beacon'], 0, 0.6).crossing).toEqual({ grpo: 6, beacon: 5 });
    // Only the methods asked for, in the order asked.
    expect(comparisonColumns({ grpo, beacon }, ['beacon'], 0, 0.6).columns).toHaveLength(3);
    // Smoothing changes the drawn curve, never the iterations to the target.
    const smooth = comparisonColumns({ grpo, beacon }, ['grpo', 'beacon'], 0.9, 0.6);
    expect(smooth.crossing).toEqual({ grpo: 6, beacon: 5 });
    expect(smooth.columns[2][2]).toBeCloseTo(0.1222 / (1 - 0.9 ** 3), 6);
    expect(smooth.columns[4][1]).toBeCloseTo((0.9 * 0.05 + 0.1 * 0.9) / (1 - 0.81), 6);
    expect(successColumns(grpo, 0)[2]).toEqual([0.2, 0.4, 0.7, 0.8, 0.8, 0.5]);
  });
});
