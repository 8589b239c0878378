/**
 * What an advantage engine is: where a trainer's advantages are computed (the CPU reference or the WGSL
 * kernels, chosen by `createAdvantageEngine` in advantage-engine.ts). Types only: the trainer
 * holds an engine without loading the kernels of src/gpu/.
 */
import type * as tf from '@tensorflow/tfjs-core';
import type { AdvantageBatch, AdvantageResult, AdvantageSettings } from '../advantages/types.ts';

export interface ComputedAdvantages {
  /** Per-step A as a float32 tensor [S]; the caller disposes it. */
  tensor: tf.Tensor1D;
  result: AdvantageResult;
}

export type AdvantageEngineName = 'cpu' | 'webgpu-kernels';

export interface AdvantageEngine {
  readonly name: AdvantageEngineName;
  compute(batch: AdvantageBatch, settings: AdvantageSettings): Promise<ComputedAdvantages>;
  dispose(): void;
}
