/**
 * What a training method is, as the registry (registry.ts) holds it: everything the trainer, the page,
 * the command line and the study need to know about a method, so that adding one is one file plus one
 * registry line.
 */
import type { AdvantageBatch, AdvantageResult, AdvantageSettings } from '../advantages/types.ts';

/**
 * The settings a method's `configFor` rewrites: a structural view of the training config, so the
 * registry needs nothing from src/config.ts (which reads the registry for its list of methods).
 */
export interface MethodSettings {
  method: string;
  trajectoryTerm: boolean;
  randomSegments: boolean;
  milestoneDropout: number;
}

/** What a method reads from a rollout besides actions, log-probabilities and outcomes. */
export interface RolloutNeeds {
  /** Per-step milestone flags from the environment's detector Φ (docs/maths.md §2). */
  milestones: boolean;
  /** Per-step environment state keys (anchor states, docs/maths.md §7). */
  stateKeys: boolean;
  /** Per-step value estimates from a learned critic (docs/maths.md §8). */
  values: boolean;
}

/** A colour for light and for dark pages: `line` for plots, `ink` for text on the page background. */
export interface MethodColor {
  light: { line: string; ink: string };
  dark: { line: string; ink: string };
}

export interface MethodSpec {
  /** Registry key: CLI `--method`, URL values, JSON `method` fields. */
  readonly name: string;
  /** Display name ("GRPO"). */
  readonly label: string;
  /** One line: what the method does with credit. */
  readonly description: string;
  /** The advantage in symbols, for the panel header ("A = A_traj + λ · A_seg"). */
  readonly formula: string;
  /** Page colour (Okabe–Ito palette, chosen for colour-blind readers). */
  readonly color: MethodColor;
  readonly needs: RolloutNeeds;
  /**
   * Names of the advantage's parts as the credit view and the calculator show them (AdvantageResult):
   * `run` the per-run term, `step` the per-step term, `reward` the per-step reward or return; null
   * where the method has no such part.
   */
  readonly parts: { run: string | null; step: string | null; reward: string | null };
  /** The same parts' field names in the advantage calculator's JSON output (null: not written). */
  readonly outputNames: { run: string | null; step: string | null; reward: string | null };
  /** The CPU reference estimator. */
  readonly estimate: (batch: AdvantageBatch, settings: AdvantageSettings) => AdvantageResult;
  /**
   * How the policy learns from an iteration: `ppo`, the clipped surrogate on the method's advantages;
   * `actorCritic`, PPO plus the regression of a learned critic whose values the advantages need;
   * `behaviourCloning`, cross-entropy on oracle steps (its advantages are only reported, never used).
   */
  readonly learner: 'ppo' | 'actorCritic' | 'behaviourCloning';
  /** The WGSL path that computes the same advantages on webgpu (src/gpu/), or null for the CPU only. */
  readonly gpuKernels: 'dualScale' | 'gigpo' | null;
  /**
   * The method runs code the visitor supplies (src/estimator/): it trains only with that code, so the
   * lists of built-in methods (METHOD_NAMES: races, studies, tests) leave it out.
   */
  readonly visitorCode?: true;
  /**
   * The method's own config in a comparison, from the shared one: every method of a race shares seed,
   * task stream and shared settings; a method resets the switches that do not apply to it.
   */
  readonly configFor: <C extends MethodSettings>(shared: C) => C;
}
