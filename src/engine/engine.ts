/**
 * What an advantage engine is: where a trainer's advantages are computed (the CPU reference or the WGSL
 * kernels, chosen by `createAdvantageEngine` in advantage-engine.ts). Types only: the trainer
 * holds an engine without loading the kernels of src/gpu/.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { AdvantageBatch, AdvantageResult, AdvantageSettings } from '../advantages/types.ts';
import type { PendingRead } from '../gpu/pending-read.ts';
import type { RolloutRecords } from '../gpu/ppo-gather.ts';
import type { AdvantageSeat } from '../gpu/seed-advantages.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import type { StatePart } from '../state/state-part.ts';

export interface ComputedAdvantages {
  /** Per-step A as a float32 tensor [S]; the caller disposes it. */
  tensor: tf.Tensor1D;
  result: AdvantageResult;
}

/** The advantages with their CPU copies still on the GPU, for the iteration's one read-back. */
export interface DeferredAdvantages {
  /** Per-step A as a float32 tensor [S]; the caller disposes it. */
  tensor: tf.Tensor1D;
  /** A, A_traj, A_seg and r_t (or GiGPO's parts), kept on the GPU; the caller reads (`readTogether`) or releases it. */
  details: PendingRead<AdvantageResult>;
  /**
   * GiGPO's anchor-state coverage (docs/maths.md §7), known on the host before the details are read
   * (the step groups are built there): the iteration's record then needs nothing of the details.
   */
  anchorCoverage?: number;
}

export type AdvantageEngineName = 'cpu' | 'webgpu-kernels';

export interface AdvantageEngine {
  readonly name: AdvantageEngineName;
  /**
   * `records`: a GPU rollout's records whose milestone flags are `batch.milestones` (no detector
   * setting rewrote them): an engine on the GPU reads the flags there instead of uploading them.
   */
  compute(batch: AdvantageBatch, settings: AdvantageSettings, records?: RolloutRecords): Promise<ComputedAdvantages>;
  /**
   * As `compute`, with the CPU copies left on the GPU, on an engine whose details live there (the WGSL
   * kernels): the trainer reads them with the PPO statistics, one read-back per iteration.
   */
  computeDeferred?(batch: AdvantageBatch, settings: AdvantageSettings, records?: RolloutRecords): Promise<DeferredAdvantages>;
  /** The WGSL sources, on an engine that runs on the webgpu backend: the trainer's GPU rollout uses them too (gpu-rollout.ts). */
  readonly shaders?: ShaderSources;
  /** State the engine adds to the trainer's checkpoints (the custom method's code), by part name. */
  readonly parts?: Record<string, StatePart>;
  /**
   * Where the engine's advantages meet those of the other seeds of its method (src/gpu/seed-advantages.ts),
   * or null: alone. Only on an engine whose kernels can join other seeds'.
   */
  seatAdvantages?(seat: AdvantageSeat | null): void;
  /** Lets go of GPU buffers the next computation makes again (a race that ended); the engine stays usable. */
  trim?(): void;
  dispose(): void;
}
