/**
 * What a race starts from (the page's settings, entries, saved states, the visitor's code) and what the
 * page shows of all its workers together: the shapes the training controller (training-controller.ts)
 * takes and gives, and the small rules of how a start is sent to the workers.
 */
import type { RaceConfig } from '../../config.ts';
import type { Speed } from '../../page/page-settings.ts';
import type { PolicyWeights } from '../../policy/policy.ts';
import type { RaceEntryName } from '../../race/entries.ts';
import type { EstimatorCode } from '../../worker/protocol.ts';

export interface TrainingStart {
  config: RaceConfig;
  methods: readonly RaceEntryName[];
  running: boolean;
  speed: Speed;
  /** Seeds per method (page setting `seeds`). */
  seeds: number;
  /** Saved bytes to continue, per panel (a saved run); the others start from iteration 0. */
  checkpoints?: Checkpoints;
  /** The visitor's estimator, for entries that run visitor code (null: none consented to yet). */
  estimator?: EstimatorCode | null;
}

/** Saved bytes (src/trainer/seed-checkpoints.ts: a checkpoint per seed) per panel, for workers to continue. */
export type Checkpoints = Partial<Record<RaceEntryName, ArrayBuffer>>;

/** What the page shows of all the workers together. */
export interface RaceState {
  running: boolean;
  finished: boolean;
  iterations: Record<RaceEntryName, number>;
  halted: RaceEntryName[];
}

/** The seeds after the first, as `init` / `reset` carry them: absent with one seed (as before seeds). */
export function seedsField(extraSeeds: (PolicyWeights | null)[]): { extraSeeds?: (PolicyWeights | null)[] } {
  return extraSeeds.length ? { extraSeeds } : {};
}

/** Each method's worker gets its share of the cores for wasm threads (used only when cross-origin isolated). */
export function threadsPerWorker(workers: number): number {
  return Math.max(1, Math.floor((navigator.hardwareConcurrency || 1) / Math.max(1, workers)));
}
