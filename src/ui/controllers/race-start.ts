/**
 * What a race starts from (the page's settings, entries, saved states, the visitor's code) and what the
 * page shows of all its workers together: the shapes the training controller (training-controller.ts)
 * takes and gives, and the small rules of how a start is sent to the workers.
 */
import type { RaceConfig } from '../../config.ts';
import type { Speed } from '../../page/page-settings.ts';
import { raceEntry, type RaceEntryName } from '../../race/entries.ts';
import type { PolicyWeights } from '../../policy/policy.ts';
import type { BackendMessage, EstimatorCode, StateMessage } from '../../worker/protocol.ts';
import type { TrainingWorkerClient } from '../../worker/worker-client.ts';

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

/** One panel's worker, as the training controller keeps it: its latest generation, state and backend. */
export interface Slot {
  client: TrainingWorkerClient;
  generation: number;
  state: StateMessage | null;
  backend: BackendMessage | null;
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

/** All workers together (each worker's latest state, in panel order): null until every worker has built its trainer. */
export function raceState(states: readonly (StateMessage | null)[]): RaceState | null {
  if (states.length === 0 || states.some((s) => s === null)) return null;
  const all = states as StateMessage[];
  return {
    running: all.some((s) => s.running),
    finished: all.every((s) => s.finished),
    iterations: Object.fromEntries(all.map((s) => [s.method, s.iteration])) as Record<RaceEntryName, number>,
    halted: all.filter((s) => s.halted).map((s) => s.method),
  };
}

/** Per panel, why it left WebGPU and where it went on (from its worker's backend announcement); absent for the others. */
export function fallbacksOf(backends: readonly [RaceEntryName, BackendMessage | null][]): Partial<Record<RaceEntryName, string>> {
  return Object.fromEntries(backends.flatMap(([m, b]) => (b?.fallback ? [[m, b.fallback]] : [])));
}

/**
 * The badge's account of recoveries: a lost device recovered (`first`: the worker whose backend the
 * badge reports), and each panel that left WebGPU, by its label.
 */
export function recoveryNote(first: BackendMessage | null, fallbacks: Partial<Record<RaceEntryName, string>>): string {
  const left = Object.entries(fallbacks).map(([m, why]) => `${raceEntry(m).label}: ${why}`);
  const lost = first?.fallback ? '' : (first?.recovery ?? '');
  return [lost, ...left].filter(Boolean).join(' ');
}
