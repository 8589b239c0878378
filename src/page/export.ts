/**
 * Export of both methods' iteration records: CSV (one row per method and iteration) and JSON (the
 * settings plus the records). Undefined values (NaN) are empty CSV cells and JSON nulls.
 */
import type { TrainConfig } from '../config.ts';
import type { IterationRecord } from '../trainer/iteration-record.ts';

/** CSV columns in order: name and how to read it from a record. */
export const CSV_COLUMNS: readonly [string, (r: IterationRecord) => number | string][] = [
  ['method', (r) => r.method],
  ['iteration', (r) => r.iteration],
  ['success', (r) => r.success],
  ['partial', (r) => r.partial],
  ['failure', (r) => r.failure],
  ['sampleUtilization', (r) => r.sampleUtilization],
  ['zeroAdvantageRatio', (r) => r.zeroAdvantageRatio],
  ['contradictoryRatio', (r) => r.contradictoryRatio],
  ['signalRetention', (r) => r.signalRetention],
  ['ccr', (r) => r.ccr],
  ['policyLoss', (r) => r.policyLoss],
  ['entropy', (r) => r.entropy],
  ['approxKl', (r) => r.approxKl],
  ['clipFraction', (r) => r.clipFraction],
  ['gradNorm', (r) => r.gradNorm],
  ['meanEpisodeLength', (r) => r.meanEpisodeLength],
  ['envSteps', (r) => r.envSteps],
  ['envStepsPerSecond', (r) => r.envStepsPerSecond],
  ['msRollout', (r) => r.ms.rollout],
  ['msAdvantage', (r) => r.ms.advantage],
  ['msUpdate', (r) => r.ms.update],
];

function cell(v: number | string): string {
  if (typeof v === 'string') return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  return Number.isFinite(v) ? String(v) : '';
}

export function recordsToCsv(runs: Record<string, readonly IterationRecord[]>): string {
  const lines = [CSV_COLUMNS.map(([name]) => name).join(',')];
  for (const records of Object.values(runs)) {
    for (const r of records) lines.push(CSV_COLUMNS.map(([, read]) => cell(read(r))).join(','));
  }
  return `${lines.join('\n')}\n`;
}

export interface ExportMeta {
  /** The config each method's trainer ran with. */
  configs: Record<string, TrainConfig>;
  backend: string;
  /** The shareable URL of the run. */
  url: string;
  exportedAt: string;
}

export function recordsToJson(meta: ExportMeta, runs: Record<string, readonly IterationRecord[]>): string {
  return `${JSON.stringify({ ...meta, records: runs }, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;
}
