/**
 * The run matrix: which (env, horizon, variant, seed) runs a study makes, each run's key, its full
 * training config and env-step budget, which runs a resumed study still has to make, and how the
 * matrix splits into shards.
 *
 * A variant is a registry method plus overrides (variants.ts); an ablation is BEACON plus the overrides
 * of `ABLATIONS` (src/config.ts), never a code path of its own.
 */
import { createEnv, type EnvName, type Horizon } from '../../envs/index.ts';
import { CONFIG_FIELDS, DEFAULT_CONFIG, withLaterDefaults, type AblationName, type TrainConfig } from '../config.ts';
import { methodSpec, type Method } from '../methods/registry.ts';
import type { StudyBudget, StudyProfile } from './profile.ts';
import { releasedArmOnShop } from './detector-variants.ts';
import { releasedVariantFor, variantSpec, type VariantName } from './variants.ts';

export interface RunSpec {
  env: EnvName;
  horizon: Horizon;
  /** The variant's registry method. */
  method: Method;
  /** The variant (variants.ts): a method's name for its plain runs. */
  variant: VariantName;
  /** The ablation's name for an ablation variant, else null. */
  ablation: AblationName | null;
  seed: number;
}

/** A file-name-safe key, unique within a study: `gridhouse-long-gamma1-s3`. */
/** Where the study trains: wasm (the pre-registered study, one worker thread per run) or webgpu (a cell's seeds as one batch). */
export const STUDY_BACKENDS = ['wasm', 'webgpu'] as const;
export type StudyBackend = (typeof STUDY_BACKENDS)[number];

export function runKey(spec: Pick<RunSpec, 'env' | 'horizon' | 'variant' | 'seed'>): string {
  return `${spec.env}-${spec.horizon}-${spec.variant}-s${spec.seed}`;
}

export function runSpec(env: EnvName, horizon: Horizon, variant: VariantName, seed: number): RunSpec {
  const v = variantSpec(variant);
  return { env, horizon, method: v.method, variant, ablation: v.ablation, seed };
}

export const HORIZON_ORDER: Record<Horizon, number> = { tiny: 0, short: 1, medium: 2, long: 3 };

export type MatrixDefinition = Pick<StudyProfile, 'envs' | 'horizons' | 'variants' | 'ablationHorizon' | 'ablations' | 'detector'>;

/** The seeds of a profile's cells: `count` seeds from its first (study v3: 101…115). */
export function seedList(profile: Pick<StudyProfile, 'firstSeed'>, count: number): number[] {
  return Array.from({ length: count }, (_, i) => profile.firstSeed + i);
}

/**
 * The variant a profile's variant name stands for in an environment: `beaconReleased` is the released
 * code's config for that environment (the WebShop config on the shop, the ALFWorld config elsewhere), so
 * that no run is labelled with an environment it is not in; so do the released BEACON's detector arms
 * (detector-variants.ts); every other name is itself.
 */
export function variantInEnv(variant: VariantName, env: EnvName): VariantName {
  if (variant === 'beaconReleased') return releasedVariantFor(env);
  if (env === 'shop') return releasedArmOnShop(variant) ?? variant;
  return variant;
}

/**
 * All runs of a profile over `seeds`: every variant on every horizon, the ablations and the detector
 * study's arms (pre-registration amendment 2) on the ablation horizon. Longest horizons first, seed-major within a horizon: the longest runs start first so that
 * the workers finish close together, and early results spread over every cell.
 */
export function buildMatrix(profile: MatrixDefinition, seeds: readonly number[]): RunSpec[] {
  const specs: RunSpec[] = [];
  for (const seed of seeds) {
    for (const env of profile.envs) {
      for (const horizon of profile.horizons) {
        for (const variant of profile.variants) specs.push(runSpec(env, horizon, variantInEnv(variant, env), seed));
      }
      for (const variant of profile.ablations) specs.push(runSpec(env, profile.ablationHorizon, variant, seed));
      for (const variant of profile.detector) specs.push(runSpec(env, profile.ablationHorizon, variantInEnv(variant, env), seed));
    }
  }
  return specs.sort((a, b) => HORIZON_ORDER[b.horizon] - HORIZON_ORDER[a.horizon]);
}

/** The full training config of one run: defaults, the budget, the run's fields, the method's own
 *  config (registry `configFor`), then the variant's overrides. */
/**
 * A run's config. `backend`: wasm for the pre-registered study; a GPU study (`--backend webgpu`) trains
 * the same settings on webgpu, so its stored runs never pass for the wasm study's.
 */
export function runConfig(spec: Pick<RunSpec, 'env' | 'horizon' | 'variant' | 'seed'>, budget: StudyBudget, backend: StudyBackend = 'wasm'): TrainConfig {
  const v = variantSpec(spec.variant);
  const shared: TrainConfig = {
    ...DEFAULT_CONFIG,
    tasksPerIteration: budget.tasksPerIteration,
    groupSize: budget.groupSize,
    hiddenSize: budget.hiddenSize,
    iters: budget.maxIters,
    env: spec.env,
    horizon: spec.horizon,
    seed: spec.seed,
    backend,
  };
  return { ...methodSpec(v.method).configFor(shared), ...v.overrides };
}

const limits = new Map<string, number>();

/** The environment's step limit at a horizon (from the environment itself). */
export function stepLimit(env: EnvName, horizon: Horizon): number {
  const key = `${env}|${horizon}`;
  let limit = limits.get(key);
  if (limit === undefined) {
    limit = createEnv(env, { horizon, batchSize: 1 }).maxSteps;
    limits.set(key, limit);
  }
  return limit;
}

/** A cell's `limitIterations`: its own where the budget has a table per cell (study v3), else the shared one. */
export function limitIterationsOf(spec: Pick<RunSpec, 'env' | 'horizon'>, budget: StudyBudget): number {
  const l = budget.limitIterations;
  if (typeof l === 'number') return l;
  const n = l[spec.env]?.[spec.horizon];
  if (n === undefined) throw new RangeError(`the study budget has no limitIterations for ${spec.env} ${spec.horizon}`);
  return n;
}

/** A run's env-step budget: `limitIterations` iterations whose episodes all run to the step limit. */
export function stepBudget(spec: Pick<RunSpec, 'env' | 'horizon'>, budget: StudyBudget): number {
  return limitIterationsOf(spec, budget) * budget.tasksPerIteration * budget.groupSize * stepLimit(spec.env, spec.horizon);
}

/** True when two configs agree on every field of the config table (a stored run older than a later setting ran at its default). */
function sameConfig(a: TrainConfig, b: TrainConfig): boolean {
  const stored = withLaterDefaults(a);
  return CONFIG_FIELDS.every((s) => stored[s.key] === b[s.key]);
}

/** A finished run as the store keeps it: the config and step budget it trained with, and its result. */
export interface StoredRun<R = unknown> {
  key: string;
  config: TrainConfig;
  /** The env-step budget it trained to. */
  envStepBudget: number;
  result: R;
  /** The 40-hex commit the run was trained at (a clean tree). */
  commit: string;
}

/**
 * Resume: a run is skipped when a stored run has its key and trained with exactly the config and step
 * budget the matrix gives it now; a stored run from another budget or default is trained again.
 */
export function planRuns<R>(
  specs: readonly RunSpec[],
  stored: ReadonlyMap<string, StoredRun<R>>,
  budget: StudyBudget,
  backend: StudyBackend = 'wasm',
): { todo: RunSpec[]; done: StoredRun<R>[] } {
  const todo: RunSpec[] = [];
  const done: StoredRun<R>[] = [];
  for (const spec of specs) {
    const found = stored.get(runKey(spec));
    if (found && found.envStepBudget === stepBudget(spec, budget) && sameConfig(found.config, runConfig(spec, budget, backend))) done.push(found);
    else todo.push(spec);
  }
  return { todo, done };
}

/** `--shard i/n`. */
export interface Shard {
  index: number;
  count: number;
}

export function parseShard(text: string): Shard | null {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return null;
  const index = Number(m[1]);
  const count = Number(m[2]);
  return count >= 1 && count <= 1000 && index >= 1 && index <= count ? { index, count } : null;
}

/**
 * The runs of shard `index` of `count`: longest-processing-time-first over the estimated cost of each
 * run, so shards take about equally long. Deterministic (ties go to the lower shard, runs keep matrix
 * order within a shard), and every run of `specs` falls in exactly one shard.
 */
export function shardRuns(specs: readonly RunSpec[], shard: Shard, cost: (spec: RunSpec) => number): RunSpec[] {
  const order = specs.map((spec, i) => ({ spec, i, c: cost(spec) })).sort((a, b) => b.c - a.c || a.i - b.i);
  const load = new Array<number>(shard.count).fill(0);
  const mine = new Set<number>();
  for (const r of order) {
    let best = 0;
    for (let k = 1; k < shard.count; k++) if (load[k] < load[best]) best = k;
    load[best] += r.c;
    if (best === shard.index - 1) mine.add(r.i);
  }
  return specs.filter((_, i) => mine.has(i));
}

/**
 * Shard `shard` of a study whose committed study.json already holds `committedKeys`: balanced on the
 * runs still to train (a committed run costs nothing, so every shard gets its share of the new ones).
 * Every shard of one study must compute the same partition, so the balance reads the committed store
 * alone: runs a shard trained since (runs/) would move the others' boundaries if they counted, and a
 * later shard in the same folder would leave runs in no shard.
 */
export function shardOfStudy(specs: readonly RunSpec[], shard: Shard, committedKeys: ReadonlySet<string>, seconds: (spec: RunSpec) => number): RunSpec[] {
  return shardRuns(specs, shard, (s) => (committedKeys.has(runKey(s)) ? 0 : seconds(s)));
}
