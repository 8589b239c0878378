/**
 * What one panel of a race runs: its trainer's config (the entry's method and overrides applied to the
 * page's settings: environment, horizon, batch, width, epochs, minibatches) and the tfjs flags it runs
 * under. Built here once, for the training worker (src/worker/training-loop.ts) and for the backend
 * probe (src/worker/backend-probe.ts), so the probe times the visitor's race and not another workload.
 */
import type { RaceConfig, TrainConfig } from '../config.ts';
import type { BackendName } from '../backend/select.ts';
import { trainingFlags } from '../backend/training-flags.ts';
import { configOfEntry, type RaceEntry } from './entries.ts';

export interface RaceWorkload {
  /** The trainer's config: what sets the cost of an iteration. */
  config: TrainConfig;
  /** The tfjs flags training sets on the backend. */
  flags: Readonly<Record<string, boolean>>;
}

/** The workload of `entry`'s panel at the page's `shared` settings, on `backend`. */
export function raceWorkload(shared: RaceConfig, entry: RaceEntry, backend: BackendName): RaceWorkload {
  return { config: trainerConfig(shared, entry), flags: trainingFlags(backend) };
}

/** The trainer's config of `entry`'s panel at `shared` (one seed's: `shared.seed`). */
export function trainerConfig(shared: RaceConfig, entry: RaceEntry): TrainConfig {
  return configOfEntry(entry, shared);
}
