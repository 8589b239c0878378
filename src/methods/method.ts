/**
 * What a training method is, as the registry (registry.ts) holds it: everything the trainer, the page,
 * the command line and the study need to know about a method, so that adding one is one file plus one
 * registry line.
 */
import type { AdvantageBatch, AdvantageResult, AdvantageSettings, EstimatorSwitches } from '../advantages/types.ts';
import type { Learner } from './learners.ts';

export type { Learner } from './learners.ts';

/**
 * The WGSL paths a method's advantages can take on webgpu (src/gpu/), as the GPU engine
 * (src/engine/gpu-engine.ts) offers them; a method's `gpu` picks one, so the engine never asks which
 * method it runs.
 */
export interface GpuPaths<P> {
  /** The dual-scale kernels of docs/maths.md §4, with the method's switches. */
  dualScale(switches: EstimatorSwitches): P;
  /** GiGPO's anchor-state kernels (docs/maths.md §7): the step-group index from the batch's state keys. */
  anchorStates(): P;
}

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
  /** The dual-scale estimator's switches (docs/maths.md §4), for a method built on it; else null. */
  readonly switches: EstimatorSwitches | null;
  /**
   * The GPU engine factory: picks the WGSL path that computes the same advantages as `estimate` on
   * webgpu, or null where the method runs on the CPU reference only.
   */
  readonly gpu: (<P>(paths: GpuPaths<P>) => P) | null;
  /** How the policy learns from an iteration (learners.ts): PPO, actor-critic or behaviour cloning. */
  readonly learner: Learner;
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
