/**
 * The one training configuration: every setting, its documentation, its bounds, its default.
 *
 * `CONFIG_FIELDS` is the single table that the CLI flags, the page's URL query and the page's controls
 * all read. `parseConfig` validates raw strings against it and names the field and the allowed range on
 * any error; nothing is coerced silently. `configToQuery` and `parseConfig` are inverse (round-trip tested).
 */
import { ENV_NAMES, HORIZONS, type EnvName, type Horizon } from '../envs/index.ts';
import { METHODS, NORMALIZATIONS, SEGMENT_BASELINES, type AdvantageSettings, type Method, type Normalize, type SegmentBaseline } from './advantages/types.ts';

export const BACKENDS = ['auto', 'webgpu', 'wasm', 'cpu'] as const;
export type BackendChoice = (typeof BACKENDS)[number];

export interface TrainConfig {
  /** Environment key (envs/index.ts). */
  env: EnvName;
  /** Task horizon: tiny, short, medium, long. */
  horizon: Horizon;
  /** Advantage estimator: grpo (trajectory term only) or beacon (trajectory + λ · segment term). */
  method: Method;
  /** Seed of the run's one PRNG: task stream, action sampling, weight init, ablation draws. */
  seed: number;
  /** N: task instances per iteration. */
  tasksPerIteration: number;
  /** G: rollouts per task instance (one GRPO group). */
  groupSize: number;
  /** γ: discount inside completed segments (docs/maths.md §3). */
  gamma: number;
  /** λ: weight of the segment term (docs/maths.md §4). */
  lambda: number;
  /** R_ms: reward of a milestone step. */
  rMs: number;
  /** Final reward of a successful run (R_i); failed runs get 0. */
  successReward: number;
  /** Trajectory-term normalisation: meanStd (GRPO) or mean (released code). */
  normalize: Normalize;
  /** Segment baseline: perStepReturn (paper) or stepMean (released code). */
  segmentBaseline: SegmentBaseline;
  /** Keep the trajectory term (off = the "no trajectory term" ablation). */
  trajectoryTerm: boolean;
  /** Random segmentation ablation: milestone boundaries at uniformly random steps. */
  randomSegments: boolean;
  /** Milestone dropout p: each detected milestone is dropped with this probability. */
  milestoneDropout: number;
  /** Adam learning rate. */
  learningRate: number;
  /** PPO clip range ε_clip. */
  clipRatio: number;
  /** PPO epochs over each batch. */
  epochs: number;
  /** Minibatches per epoch. */
  minibatches: number;
  /** Entropy bonus coefficient. */
  entropyCoef: number;
  /** KL penalty coefficient against the rollout policy (0 = off). */
  klCoef: number;
  /** Global-norm gradient clipping threshold. */
  maxGradNorm: number;
  /** Width of the policy's hidden layers and embedding. */
  hiddenSize: number;
  /** Number of training iterations (the page's budget). */
  iters: number;
  /** tfjs backend: auto (webgpu, else wasm, else cpu), webgpu, wasm or cpu. */
  backend: BackendChoice;
}

type Kind =
  | { type: 'int'; min: number; max: number }
  | { type: 'number'; min: number; max: number; minExclusive?: boolean }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'bool' };

export interface FieldSpec<K extends keyof TrainConfig = keyof TrainConfig> {
  key: K;
  kind: Kind;
  default: TrainConfig[K];
  /** One line for tooltips and --help. */
  doc: string;
  /** Changing it mid-run needs a restart (the policy or the task stream changes shape). */
  restart: boolean;
}

const f = <K extends keyof TrainConfig>(key: K, kind: Kind, def: TrainConfig[K], restart: boolean, doc: string): FieldSpec<K> => ({ key, kind, default: def, doc, restart });

export const CONFIG_FIELDS: readonly FieldSpec[] = [
  f('env', { type: 'enum', values: ENV_NAMES }, 'gridhouse', true, 'environment'),
  f('horizon', { type: 'enum', values: HORIZONS }, 'long', true, 'task horizon (more milestones as it grows)'),
  f('method', { type: 'enum', values: METHODS }, 'beacon', true, 'advantage estimator'),
  f('seed', { type: 'int', min: 0, max: 4294967295 }, 1, true, 'seed of the run’s PRNG'),
  f('tasksPerIteration', { type: 'int', min: 1, max: 256 }, 8, true, 'N: task instances per iteration'),
  f('groupSize', { type: 'int', min: 2, max: 64 }, 8, true, 'G: rollouts per task instance (one group)'),
  f('gamma', { type: 'number', min: 0, max: 1 }, 0.95, false, 'γ: discount inside completed segments'),
  f('lambda', { type: 'number', min: 0, max: 10 }, 1, false, 'λ: weight of the segment term'),
  f('rMs', { type: 'number', min: 0, max: 100, minExclusive: true }, 1, false, 'R_ms: milestone reward'),
  f('successReward', { type: 'number', min: 0, max: 100, minExclusive: true }, 1, false, 'final reward of a solved run'),
  f('normalize', { type: 'enum', values: NORMALIZATIONS }, 'meanStd', false, 'trajectory-term normalisation'),
  f('segmentBaseline', { type: 'enum', values: SEGMENT_BASELINES }, 'perStepReturn', false, 'segment baseline (paper or released code)'),
  f('trajectoryTerm', { type: 'bool' }, true, false, 'keep the trajectory term A_traj'),
  f('randomSegments', { type: 'bool' }, false, false, 'ablation: milestone boundaries at random steps'),
  f('milestoneDropout', { type: 'number', min: 0, max: 1 }, 0, true, 'ablation: drop each milestone with this probability'),
  f('learningRate', { type: 'number', min: 0, max: 1, minExclusive: true }, 0.003, false, 'Adam learning rate'),
  f('clipRatio', { type: 'number', min: 0, max: 1, minExclusive: true }, 0.2, false, 'PPO clip range'),
  f('epochs', { type: 'int', min: 1, max: 16 }, 2, false, 'PPO epochs per batch'),
  f('minibatches', { type: 'int', min: 1, max: 64 }, 2, false, 'minibatches per epoch'),
  f('entropyCoef', { type: 'number', min: 0, max: 1 }, 0.01, false, 'entropy bonus coefficient'),
  f('klCoef', { type: 'number', min: 0, max: 10 }, 0, false, 'KL penalty coefficient (0 = off)'),
  f('maxGradNorm', { type: 'number', min: 0, max: 100, minExclusive: true }, 1, false, 'global gradient-norm clip'),
  f('hiddenSize', { type: 'int', min: 8, max: 512 }, 64, true, 'policy width'),
  f('iters', { type: 'int', min: 1, max: 100000 }, 200, false, 'training iterations (budget)'),
  f('backend', { type: 'enum', values: BACKENDS }, 'auto', true, 'tfjs backend'),
];

export const DEFAULT_CONFIG: TrainConfig = Object.fromEntries(CONFIG_FIELDS.map((s) => [s.key, s.default])) as unknown as TrainConfig;

export function fieldSpec(key: string): FieldSpec | undefined {
  return CONFIG_FIELDS.find((s) => s.key === key);
}

/** Allowed range or values of a field, as shown in error messages and --help. */
export function describeRange(spec: FieldSpec): string {
  const k = spec.kind;
  switch (k.type) {
    case 'int': return `an integer in [${k.min}, ${k.max}]`;
    case 'number': return `a number in ${k.minExclusive ? '(' : '['}${k.min}, ${k.max}]`;
    case 'enum': return `one of ${k.values.join(', ')}`;
    case 'bool': return 'true or false';
  }
}

/** Parses one raw value; returns the value or an error message naming the field and its range. */
export function parseField(spec: FieldSpec, raw: string): { value: TrainConfig[keyof TrainConfig] } | { error: string } {
  const k = spec.kind;
  const bad = { error: `${spec.key} must be ${describeRange(spec)}; got ${JSON.stringify(raw)}` };
  switch (k.type) {
    case 'enum':
      return k.values.includes(raw) ? { value: raw as never } : bad;
    case 'bool':
      return raw === 'true' || raw === '1' ? { value: true } : raw === 'false' || raw === '0' ? { value: false } : bad;
    case 'int':
    case 'number': {
      if (raw.trim() === '' || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw.trim())) return bad;
      const x = Number(raw);
      if (!Number.isFinite(x) || (k.type === 'int' && !Number.isInteger(x))) return bad;
      const low = k.type === 'number' && k.minExclusive ? x <= k.min : x < k.min;
      if (low || x > k.max) return bad;
      return { value: x };
    }
  }
}

export interface ConfigIssue {
  field: string;
  message: string;
}

/**
 * Builds a config from raw key/value strings over `base`. Unknown keys and invalid values are reported
 * (never coerced); invalid fields keep the base value so a caller may continue with defaults.
 */
export function parseConfig(entries: Iterable<[string, string]>, base: TrainConfig = DEFAULT_CONFIG, ignore: readonly string[] = []): { config: TrainConfig; issues: ConfigIssue[] } {
  const config = { ...base } as Record<string, unknown>;
  const issues: ConfigIssue[] = [];
  for (const [key, raw] of entries) {
    if (ignore.includes(key)) continue;
    const spec = fieldSpec(key);
    if (!spec) {
      issues.push({ field: key, message: `unknown setting ${JSON.stringify(key)}; known settings: ${CONFIG_FIELDS.map((s) => s.key).join(', ')}` });
      continue;
    }
    const parsed = parseField(spec, raw);
    if ('error' in parsed) issues.push({ field: key, message: parsed.error });
    else config[key] = parsed.value;
  }
  return { config: config as unknown as TrainConfig, issues };
}

/** The settings that differ from the defaults, as URL query entries (stable field order). */
export function configToQuery(config: TrainConfig, defaults: TrainConfig = DEFAULT_CONFIG): URLSearchParams {
  const q = new URLSearchParams();
  for (const spec of CONFIG_FIELDS) {
    const v = config[spec.key];
    if (v !== defaults[spec.key]) q.set(spec.key, String(v));
  }
  return q;
}

/** The advantage estimator's view of a config. */
export function advantageSettings(config: TrainConfig): AdvantageSettings {
  const { method, gamma, lambda, rMs, normalize, segmentBaseline, trajectoryTerm } = config;
  return { method, gamma, lambda, rMs, normalize, segmentBaseline, trajectoryTerm };
}

/** Named ablations of docs/maths.md §6: each a set of overrides on a BEACON config, never a code fork. */
export const ABLATIONS = {
  gamma1: { gamma: 1 },
  gamma0: { gamma: 0 },
  randomSegments: { randomSegments: true },
  milestoneDropout: { milestoneDropout: 0.5 },
  noTrajectoryTerm: { trajectoryTerm: false },
  stepMean: { segmentBaseline: 'stepMean' },
} as const satisfies Record<string, Partial<TrainConfig>>;
export type AblationName = keyof typeof ABLATIONS;
