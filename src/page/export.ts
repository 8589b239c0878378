/**
 * Export of the raced entries' iteration records: CSV (one row per entry, seed and iteration) and JSON
 * (the settings plus the records, both keyed by entry). Undefined values (NaN) are empty CSV cells and
 * JSON nulls. Every record carries the config seed of its run (the page may train several seeds per
 * entry: page setting `seeds`).
 *
 * A record's `method` is the method whose maths ran; a method and its named variant (src/race/entries.ts)
 * share it, so each CSV row also names its entry in a last `variant` column, as the study's `variant` field does.
 */
import type { TrainConfig } from '../config.ts';
import type { IterationRecord } from '../trainer/iteration-record.ts';

/** A record with the config seed of the run it is of. */
export type SeededRecord = IterationRecord & { seed: number };

/** CSV columns in order: name and how to read it from a record. */
export const CSV_COLUMNS: readonly [string, (r: SeededRecord) => number | string][] = [
  ['method', (r) => r.method],
  ['seed', (r) => r.seed],
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

/** `runs` is keyed by race entry: a registry method's name, or a named variant's. */
export function recordsToCsv(runs: Record<string, readonly SeededRecord[]>): string {
  const lines = [[...CSV_COLUMNS.map(([name]) => name), 'variant'].join(',')];
  for (const [entry, records] of Object.entries(runs)) {
    for (const r of records) lines.push([...CSV_COLUMNS.map(([, read]) => cell(read(r))), cell(entry)].join(','));
  }
  return `${lines.join('\n')}\n`;
}

export interface ExportMeta {
  /** The config each entry's trainer ran with, keyed by entry (its `method` is the method whose maths ran). */
  configs: Record<string, TrainConfig>;
  backend: string;
  /** The shareable URL of the run. */
  url: string;
  exportedAt: string;
}

export function recordsToJson(meta: ExportMeta, runs: Record<string, readonly SeededRecord[]>): string {
  return `${JSON.stringify({ ...meta, records: runs }, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`;
}
