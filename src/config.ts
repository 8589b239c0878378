/**
 * The one training configuration: every setting, its documentation, its bounds, its default.
 *
 * `CONFIG_FIELDS` is the single table that the CLI flags, the page's URL query and the page's controls
 * all read. `parseConfig` validates raw strings against it and names the field and the allowed range on
 * any error; nothing is coerced silently. `configToQuery` and `parseConfig` are inverse (round-trip tested).
 */
import { ENV_NAMES, HORIZONS, type EnvName, type Horizon } from '../envs/index.ts';
import type { Detector } from '../envs/types.ts';
import type { GigpoSettings } from './advantages/gigpo.ts';
import { NORMALIZATIONS, SEGMENT_BASELINES, VARIANTS, type AdvantageSettings, type Normalize, type SegmentBaseline, type Variant } from './advantages/types.ts';
import { BACKEND_CHOICES, type BackendChoice } from './backend/names.ts';
import { ALL_METHOD_NAMES, type Method } from './methods/registry.ts';
import { combinedLimitIssues } from './setting-limits.ts';

export type { BackendChoice };

export interface TrainConfig {
  /** Environment key (envs/index.ts). */
  env: EnvName;
  /** Task horizon: tiny, short, medium, long. */
  horizon: Horizon;
  /** Training method: a key of the method registry (src/methods/registry.ts). */
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
  /** paper: the paper's formulas; released: the released code's computation (docs/maths.md §4, §7). */
  variant: Variant;
  /** ω: weight of GiGPO's step term A_S (docs/maths.md §7). */
  omega: number;
  /** Critic PPO: GAE's discount γ (docs/maths.md §8). */
  gaeGamma: number;
  /** Critic PPO: GAE's λ. */
  gaeLambda: number;
  /** Critic PPO: weight of the value loss. */
  valueCoef: number;
  /** Critic PPO ablation: add R_ms to the critic's rewards at milestone steps (shaped-reward PPO). */
  shapedRewards: boolean;
  /** Keep the trajectory term (off = the "no trajectory term" ablation). */
  trajectoryTerm: boolean;
  /** Random segmentation ablation: milestone boundaries at uniformly random steps. */
  randomSegments: boolean;
  /** Milestone dropout p: each detected milestone is dropped with this probability. */
  milestoneDropout: number;
  /** Detector: probability per step that Φ fires where no milestone completed (docs/maths.md §6). */
  milestoneFalseAlarms: number;
  /** Detector: the gameable one, reading the right kind of side effect but not its target (envs/<env>/milestones.ts). */
  looseMilestones: boolean;
  /** Detector: Φ fires this many steps late (at the run's last step if it ends first). */
  milestoneDelay: number;
  /** Detector: only every k-th milestone of a run counts (coarser segments). */
  milestoneStride: number;
  /** Detector: the environment's finer detector, with intermediate transitions between task milestones. */
  fineMilestones: boolean;
  /** Teacher: probability that the oracle behind every demonstration takes a random admissible action. */
  demoNoise: number;
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
  /**
   * SFT prior: oracle episodes of behaviour cloning before RL, shared by every method (0 = random init;
   * auto = the count calibrated for the environment, src/trainer/sft-prior.ts).
   */
  sftEpisodes: number | 'auto';
  /** SFT prior: passes over its demonstrations. */
  sftEpochs: number;
  /** SFT prior: Adam learning rate of the behaviour cloning. */
  sftLearningRate: number;
  /** Number of training iterations (the page's budget). */
  iters: number;
  /** tfjs backend: auto (webgpu, else wasm, else cpu), webgpu, wasm or cpu. */
  backend: BackendChoice;
}

/** The kinds of value a setting takes, with their bounds. */
export type SettingKind =
  /** `auto`: the word "auto" is also a value, resolved where the setting is used (a calibrated default). */
  | { type: 'int'; min: number; max: number; auto?: boolean }
  | { type: 'number'; min: number; max: number; minExclusive?: boolean }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'bool' };

/** A setting's kinds, plus lists for commands' own flags (comma-separated integers in [min, max]). */
export type ValueKind = SettingKind | { type: 'list'; min: number; max: number };

export interface FieldSpec<K extends keyof TrainConfig = keyof TrainConfig> {
  key: K;
  kind: SettingKind;
  default: TrainConfig[K];
  /** One line for tooltips and --help. */
  doc: string;
  /** Changing it mid-run needs a restart (the policy or the task stream changes shape). */
  restart: boolean;
}

const f = <K extends keyof TrainConfig>(key: K, kind: SettingKind, def: TrainConfig[K], restart: boolean, doc: string): FieldSpec<K> => ({
  key,
  kind,
  default: def,
  doc,
  restart,
});

export const CONFIG_FIELDS: readonly FieldSpec[] = [
  f('env', { type: 'enum', values: ENV_NAMES }, 'gridhouse', true, 'environment'),
  f('horizon', { type: 'enum', values: HORIZONS }, 'long', true, 'task horizon (more milestones as it grows)'),
  f('method', { type: 'enum', values: ALL_METHOD_NAMES }, 'beacon', true, 'advantage estimator'),
  f('seed', { type: 'int', min: 0, max: 4294967295 }, 1, true, 'seed of the run’s PRNG'),
  f('tasksPerIteration', { type: 'int', min: 1, max: 256 }, 8, true, 'N: task instances per iteration'),
  f('groupSize', { type: 'int', min: 2, max: 64 }, 8, true, 'G: rollouts per task instance (one group)'),
  f('gamma', { type: 'number', min: 0, max: 1 }, 0.95, false, 'γ: discount inside completed segments'),
  f('lambda', { type: 'number', min: 0, max: 10 }, 1, false, 'λ: weight of the segment term'),
  f('rMs', { type: 'number', min: 0, max: 100, minExclusive: true }, 1, false, 'R_ms: milestone reward'),
  f('successReward', { type: 'number', min: 0, max: 100, minExclusive: true }, 1, false, 'final reward of a solved run'),
  f('normalize', { type: 'enum', values: NORMALIZATIONS }, 'meanStd', false, 'trajectory-term normalisation'),
  f('segmentBaseline', { type: 'enum', values: SEGMENT_BASELINES }, 'perStepReturn', false, 'segment baseline (paper or released code)'),
  f('variant', { type: 'enum', values: VARIANTS }, 'paper', false, 'paper formulas or the released code’s computation'),
  f('omega', { type: 'number', min: 0, max: 10 }, 1, false, 'ω: weight of GiGPO’s step term'),
  f('gaeGamma', { type: 'number', min: 0, max: 1 }, 0.99, false, 'critic PPO: GAE discount γ'),
  f('gaeLambda', { type: 'number', min: 0, max: 1 }, 0.95, false, 'critic PPO: GAE λ'),
  f('valueCoef', { type: 'number', min: 0, max: 10 }, 0.5, false, 'critic PPO: value loss weight'),
  f('shapedRewards', { type: 'bool' }, false, false, 'critic PPO ablation: milestone rewards R_ms added to the critic’s rewards'),
  f('trajectoryTerm', { type: 'bool' }, true, false, 'keep the trajectory term A_traj'),
  f('randomSegments', { type: 'bool' }, false, false, 'ablation: milestone boundaries at random steps'),
  f('milestoneDropout', { type: 'number', min: 0, max: 1 }, 0, true, 'ablation: drop each milestone with this probability'),
  f('milestoneFalseAlarms', { type: 'number', min: 0, max: 1 }, 0, true, 'detector: probability per step that Φ fires where no milestone completed'),
  f('looseMilestones', { type: 'bool' }, false, true, 'detector: a gameable Φ that reads the kind of side effect, not its target'),
  f('milestoneDelay', { type: 'int', min: 0, max: 64 }, 0, true, 'detector: Φ fires this many steps late (at the run’s end if it ends first)'),
  f('milestoneStride', { type: 'int', min: 1, max: 8 }, 1, true, 'detector: only every k-th milestone counts (coarser segments)'),
  f('fineMilestones', { type: 'bool' }, false, true, 'detector: the finer Φ, with intermediate transitions between task milestones'),
  f('demoNoise', { type: 'number', min: 0, max: 1 }, 0, true, 'teacher: the demonstrating oracle takes a random admissible action with this probability'),
  f('learningRate', { type: 'number', min: 0, max: 1, minExclusive: true }, 0.003, false, 'Adam learning rate'),
  f('clipRatio', { type: 'number', min: 0, max: 1, minExclusive: true }, 0.2, false, 'PPO clip range'),
  f('epochs', { type: 'int', min: 1, max: 16 }, 2, false, 'PPO epochs per batch'),
  f('minibatches', { type: 'int', min: 1, max: 64 }, 2, false, 'minibatches per epoch'),
  f('entropyCoef', { type: 'number', min: 0, max: 1 }, 0.01, false, 'entropy bonus coefficient'),
  f('klCoef', { type: 'number', min: 0, max: 10 }, 0, false, 'KL penalty coefficient (0 = off)'),
  f('maxGradNorm', { type: 'number', min: 0, max: 100, minExclusive: true }, 1, false, 'global gradient-norm clip'),
  f('hiddenSize', { type: 'int', min: 8, max: 512 }, 64, true, 'policy width'),
  f(
    'sftEpisodes',
    { type: 'int', min: 0, max: 4096, auto: true },
    'auto',
    true,
    'SFT prior: oracle episodes cloned before RL (0 = random init; auto = calibrated per environment)',
  ),
  f('sftEpochs', { type: 'int', min: 1, max: 100 }, 4, true, 'SFT prior: passes over its demonstrations'),
  f('sftLearningRate', { type: 'number', min: 0, max: 1, minExclusive: true }, 0.003, true, 'SFT prior: behaviour-cloning learning rate'),
  f('iters', { type: 'int', min: 1, max: 100000 }, 200, false, 'training iterations (budget)'),
  f('backend', { type: 'enum', values: BACKEND_CHOICES }, 'auto', true, 'tfjs backend'),
];

/**
 * The settings every entry of a race shares: a training config without its method. Each race entry
 * makes it a TrainConfig of its own method and overrides (src/race/entries.ts `entryConfig`).
 */
export type RaceConfig = Omit<TrainConfig, 'method'>;

/** The shared part of `config`: every setting but its method. */
export function raceConfigOf(config: TrainConfig): RaceConfig {
  const { method: _method, ...shared } = config;
  return shared;
}

export const DEFAULT_CONFIG: TrainConfig = Object.fromEntries(CONFIG_FIELDS.map((s) => [s.key, s.default])) as unknown as TrainConfig;

export function fieldSpec(key: string): FieldSpec | undefined {
  return CONFIG_FIELDS.find((s) => s.key === key);
}

/** Allowed range or values of a kind, as shown in error messages and --help. */
export function describeKind(k: ValueKind): string {
  switch (k.type) {
    case 'int':
      return `an integer in [${k.min}, ${k.max}]${k.auto ? ' or auto' : ''}`;
    case 'number':
      return `a number in ${k.minExclusive ? '(' : '['}${k.min}, ${k.max}]`;
    case 'enum':
      return `one of ${k.values.join(', ')}`;
    case 'bool':
      return 'true or false';
    case 'list':
      return `comma-separated integers in [${k.min}, ${k.max}]`;
  }
}

const NUMBER_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Checks one value of `kind` named `name`; returns the value or an error message naming the field and
 * its range. `raw` is text (URL, flag) or, with `json`, a JSON value (imported files). Nothing is
 * coerced: JSON must carry a number where a number is due, and text must spell one exactly.
 */
export function parseValue(name: string, k: ValueKind, raw: unknown, json = false): { value: never } | { error: string } {
  const bad = { error: `${name} must be ${describeKind(k)}; got ${JSON.stringify(raw) ?? String(raw)}` };
  const text = typeof raw === 'string' && !json;
  const number = (v: unknown): number => (json ? (typeof v === 'number' ? v : NaN) : typeof v === 'string' && NUMBER_TEXT.test(v.trim()) ? Number(v) : NaN);
  const inRange = (x: number, min: number, max: number, integer: boolean, minExclusive = false) =>
    Number.isFinite(x) && (!integer || Number.isInteger(x)) && (minExclusive ? x > min : x >= min) && x <= max;
  switch (k.type) {
    case 'enum':
      return typeof raw === 'string' && k.values.includes(raw) ? { value: raw as never } : bad;
    case 'bool':
      if (json) return typeof raw === 'boolean' ? { value: raw as never } : bad;
      return raw === 'true' || raw === '1' ? { value: true as never } : raw === 'false' || raw === '0' ? { value: false as never } : bad;
    case 'int':
    case 'number': {
      if (k.type === 'int' && k.auto && raw === 'auto') return { value: 'auto' as never };
      const x = number(raw);
      return inRange(x, k.min, k.max, k.type === 'int', k.type === 'number' && k.minExclusive) ? { value: x as never } : bad;
    }
    case 'list': {
      if (!text || (raw as string).trim() === '') return bad;
      const xs = (raw as string).split(',').map(number);
      return xs.every((x) => inRange(x, k.min, k.max, true)) ? { value: xs as never } : bad;
    }
  }
}

/** Allowed range or values of a setting. */
export function describeRange(spec: FieldSpec): string {
  return describeKind(spec.kind);
}

/** Parses one setting's raw text; returns the value or an error message naming the field and its range. */
export function parseField(spec: FieldSpec, raw: string): { value: TrainConfig[keyof TrainConfig] } | { error: string } {
  return parseValue(spec.key, spec.kind, raw);
}

export interface ConfigIssue {
  field: string;
  message: string;
}

/**
 * Builds a config from raw key/value strings over `base`. Unknown keys and invalid values are reported
 * (never coerced); invalid fields keep the base value so a caller may continue with defaults.
 */
export function parseConfig(
  entries: Iterable<[string, string]>,
  base: TrainConfig = DEFAULT_CONFIG,
  ignore: readonly string[] = [],
): { config: TrainConfig; issues: ConfigIssue[] } {
  const config = { ...base } as Record<string, unknown>;
  const issues: ConfigIssue[] = [];
  const given = new Set<string>();
  for (const [key, raw] of entries) {
    if (ignore.includes(key)) continue;
    given.add(key);
    const spec = fieldSpec(key);
    if (!spec) {
      issues.push({ field: key, message: `unknown setting ${JSON.stringify(key)}; known settings: ${CONFIG_FIELDS.map((s) => s.key).join(', ')}` });
      continue;
    }
    const parsed = parseField(spec, raw);
    if ('error' in parsed) issues.push({ field: key, message: parsed.error });
    else config[key] = parsed.value;
  }
  // Settings too big together (setting-limits.ts): the given field to blame keeps the base value.
  for (let issue = combinedLimitIssues(config as unknown as TrainConfig)[0]; issue; issue = combinedLimitIssues(config as unknown as TrainConfig)[0]) {
    const field = issue.fields.find((k) => given.has(k) && config[k] !== base[k]) ?? issue.fields[0];
    issues.push({ field, message: issue.message });
    if (config[field] === base[field]) break; // the base itself is over: nothing to fall back to
    config[field] = base[field];
  }
  return { config: config as unknown as TrainConfig, issues };
}

/** The settings that differ from the defaults, as URL query entries (stable field order), less `omit`. */
export function configToQuery(config: RaceConfig, defaults: RaceConfig = DEFAULT_CONFIG, omit: readonly string[] = []): URLSearchParams {
  const q = new URLSearchParams();
  for (const spec of CONFIG_FIELDS) {
    if (omit.includes(spec.key)) continue;
    const v = (config as Partial<TrainConfig>)[spec.key];
    if (v !== (defaults as Partial<TrainConfig>)[spec.key]) q.set(spec.key, String(v));
  }
  return q;
}

/** The settings an advantage estimator reads: the same names, bounds and defaults as the config fields. */
export const ADVANTAGE_KEYS = [
  'method',
  'gamma',
  'lambda',
  'rMs',
  'normalize',
  'segmentBaseline',
  'trajectoryTerm',
  'variant',
  'omega',
  'gaeGamma',
  'gaeLambda',
  'shapedRewards',
] as const satisfies readonly (keyof AdvantageSettings & keyof TrainConfig)[];
/** The settings GiGPO's estimator reads (docs/maths.md §7). */
export const GIGPO_KEYS = ['gamma', 'omega', 'normalize', 'variant'] as const satisfies readonly (keyof GigpoSettings & keyof TrainConfig)[];

/** The advantage estimator's view of a config. */
export function advantageSettings(config: TrainConfig): AdvantageSettings {
  return Object.fromEntries(ADVANTAGE_KEYS.map((k) => [k, config[k]])) as unknown as AdvantageSettings;
}

export const DEFAULT_ADVANTAGE_SETTINGS: AdvantageSettings = advantageSettings(DEFAULT_CONFIG);

/** GiGPO's view of a config. */
function gigpoSettings(config: TrainConfig): GigpoSettings {
  return Object.fromEntries(GIGPO_KEYS.map((k) => [k, config[k]])) as unknown as GigpoSettings;
}

export const DEFAULT_GIGPO_SETTINGS: GigpoSettings = gigpoSettings(DEFAULT_CONFIG);

/**
 * Checks settings that did not come through `parseConfig` (a caller's object, a kernel's input) against
 * the config table, for the given keys; throws a RangeError naming the first bad field and its range.
 * An absent key is left to the reader's default.
 */
export function checkSettings(settings: object, keys: readonly (keyof TrainConfig)[]): void {
  for (const key of keys) {
    const value = (settings as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const parsed = parseValue(key, fieldSpec(key)!.kind, value, true);
    if ('error' in parsed) throw new RangeError(parsed.error);
  }
}

/**
 * Settings added after runs and checkpoints were first stored (the detector settings, docs/maths.md §6).
 * A stored config without one ran before it existed, that is at its default (Φ and the teacher as they
 * were): readers of stored configs fill these in, and only these.
 */
export const LATER_KEYS = [
  'milestoneFalseAlarms',
  'looseMilestones',
  'milestoneDelay',
  'milestoneStride',
  'fineMilestones',
  'demoNoise',
] as const satisfies readonly (keyof TrainConfig)[];

/** `stored` with each absent `LATER_KEYS` setting at its default (other fields untouched). */
export function withLaterDefaults<T extends object>(stored: T): T {
  const out = { ...stored } as Record<string, unknown>;
  for (const key of LATER_KEYS) if (out[key] === undefined) out[key] = DEFAULT_CONFIG[key];
  return out as T;
}

/** The detector Φ a config asks the environment for (envs/types.ts `Detector`; docs/maths.md §6). */
export function detectorOf(config: Pick<TrainConfig, 'looseMilestones' | 'fineMilestones'>): Detector {
  return config.looseMilestones ? 'loose' : config.fineMilestones ? 'fine' : 'task';
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
