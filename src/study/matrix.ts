/**
 * The run matrix: which (env, horizon, method, ablation, seed) runs a study makes, each run's key and
 * its full training config, and which runs a resumed study still has to make.
 *
 * An ablation is BEACON plus the overrides of `ABLATIONS` (src/config.ts), never a code path of its own.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import { ABLATIONS, CONFIG_FIELDS, DEFAULT_CONFIG, type AblationName, type TrainConfig } from '../config.ts';
import type { Method } from '../methods/registry.ts';
import type { StudyBudget, StudyProfile } from './profile.ts';

export interface RunSpec {
  env: EnvName;
  horizon: Horizon;
  method: Method;
  /** null for a method's plain runs. */
  ablation: AblationName | null;
  seed: number;
}

/** What a run is called in tables and charts: the ablation's name, else the method. */
export type Variant = Method | AblationName;

export function variantOf(spec: Pick<RunSpec, 'method' | 'ablation'>): Variant {
  return spec.ablation ?? spec.method;
}

/** A file-name-safe key, unique within a study: `gridhouse-long-gamma1-s3`. */
export function runKey(spec: RunSpec): string {
  return `${spec.env}-${spec.horizon}-${variantOf(spec)}-s${spec.seed}`;
}

const HORIZON_ORDER: Record<Horizon, number> = { tiny: 0, short: 1, medium: 2, long: 3 };

/**
 * All runs of a profile with `seeds` seeds (1…seeds), longest horizons first: the longest runs start
 * first so that the workers finish close together.
 */
export function buildMatrix(profile: Pick<StudyProfile, 'envs' | 'methods' | 'horizons' | 'ablationHorizon' | 'ablations'>, seeds: number): RunSpec[] {
  const specs: RunSpec[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    for (const env of profile.envs) {
      for (const horizon of profile.horizons) {
        for (const method of profile.methods) specs.push({ env, horizon, method, ablation: null, seed });
      }
      for (const ablation of profile.ablations) specs.push({ env, horizon: profile.ablationHorizon, method: 'beacon', ablation, seed });
    }
  }
  // Stable sort: within a horizon, seed-major order keeps early results spread over every cell.
  return specs.sort((a, b) => HORIZON_ORDER[b.horizon] - HORIZON_ORDER[a.horizon]);
}

/** The full training config of one run: defaults, then the study budget, then the run's own fields. */
export function runConfig(spec: RunSpec, budget: StudyBudget): TrainConfig {
  return {
    ...DEFAULT_CONFIG,
    ...budget,
    env: spec.env,
    horizon: spec.horizon,
    method: spec.method,
    seed: spec.seed,
    backend: 'wasm',
    ...(spec.ablation ? ABLATIONS[spec.ablation] : {}),
  };
}

/** True when two configs agree on every field of the config table. */
function sameConfig(a: TrainConfig, b: TrainConfig): boolean {
  return CONFIG_FIELDS.every((s) => a[s.key] === b[s.key]);
}

/** A finished run as the store keeps it: the config it trained with, and its result. */
export interface StoredRun<R = unknown> {
  key: string;
  config: TrainConfig;
  result: R;
  /** The commit the run was trained at (with "+dirty" if the tree had changes). */
  commit?: string;
}

/**
 * Resume: a run is skipped when a stored run has its key and trained with exactly the config the
 * matrix gives it now; a stored run from another budget or default is trained again.
 */
export function planRuns<R>(specs: readonly RunSpec[], stored: ReadonlyMap<string, StoredRun<R>>, budget: StudyBudget): { todo: RunSpec[]; done: StoredRun<R>[] } {
  const todo: RunSpec[] = [];
  const done: StoredRun<R>[] = [];
  for (const spec of specs) {
    const found = stored.get(runKey(spec));
    if (found && sameConfig(found.config, runConfig(spec, budget))) done.push(found);
    else todo.push(spec);
  }
  return { todo, done };
}
