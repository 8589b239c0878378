/**
 * Where the advantages are computed: the CPU reference (wasm/cpu backends) or the WGSL kernels
 * (webgpu backend). Either way the trainer gets a float32 tensor for the loss and CPU copies of
 * A, A_traj, A_seg and r_t for the metrics and the credit view.
 */
import * as tf from '@tensorflow/tfjs-core';
import { computeAdvantages } from '../advantages/estimators.ts';
import type { AdvantageBatch, AdvantageResult, AdvantageSettings } from '../advantages/types.ts';

export interface ComputedAdvantages {
  /** Per-step A as a float32 tensor [S]; the caller disposes it. */
  tensor: tf.Tensor1D;
  result: AdvantageResult;
}

export interface AdvantageEngine {
  readonly name: 'cpu' | 'webgpu-kernels';
  compute(batch: AdvantageBatch, settings: AdvantageSettings): Promise<ComputedAdvantages>;
  dispose(): void;
}

export const cpuAdvantageEngine: AdvantageEngine = {
  name: 'cpu',
  async compute(batch, settings) {
    const result = computeAdvantages(batch, settings);
    return { tensor: tf.tensor1d(Float32Array.from(result.advantages)), result };
  },
  dispose() {},
};
