/**
 * The trainer's `AdvantageEngine` on the WGSL kernels (use it when tfjs runs on webgpu; on wasm/cpu
 * use `cpuAdvantageEngine`). It uploads the CPU batch as tensors, runs the kernels, and returns the
 * zero-copy advantages tensor for the loss plus CPU copies of A, A_traj, A_seg and r_t for the
 * metrics (one read-back per iteration).
 *
 * `computeGigpo` is GiGPO's counterpart (docs/maths.md §7): the CPU builds the step-group index from
 * the state keys, the kernels do the rest, and the result has the CPU reference's `GigpoResult` shape.
 */
import * as tf from '@tensorflow/tfjs-core';
import { getWebGpuDevice } from '../backend/webgpu-interop.ts';
import { buildStepGroupIndex, type GigpoResult, type GigpoSettings } from '../advantages/gigpo.ts';
import type { AdvantageBatch } from '../advantages/types.ts';
import type { AdvantageEngine } from '../trainer/engine.ts';
import { gigpoAsAdvantages, gigpoSettingsOf, requireStateKeys } from '../methods/gigpo.ts';
import { methodSpec } from '../methods/registry.ts';
import { batchToTensors, GpuAdvantageEstimator } from './advantage-estimator.ts';
import type { ShaderSources } from './shader-source.ts';

/** GiGPO's advantages: the loss's tensor (the caller disposes it) and the CPU copies for metrics. */
export interface ComputedGigpo {
  tensor: tf.Tensor1D;
  result: GigpoResult;
}

export interface GpuAdvantageEngine extends AdvantageEngine {
  /** GiGPO on the kernels for `batch` with one environment state key per step. */
  computeGigpo(batch: AdvantageBatch, stateKeys: ArrayLike<number>, settings: GigpoSettings): Promise<ComputedGigpo>;
}

/** `shaders`: `VITE_SHADERS` in the page, `readShaderSources()` in Node CLIs. */
export function createGpuAdvantageEngine(shaders: ShaderSources): GpuAdvantageEngine {
  let estimator: GpuAdvantageEstimator | undefined;
  // Created on first use, on the device tfjs's webgpu backend holds then; recreated if the backend
  // has moved to a new device since (src/backend re-initialises after a device loss).
  const current = () => {
    if (estimator && estimator.device !== getWebGpuDevice()) {
      estimator.dispose();
      estimator = undefined;
    }
    return (estimator ??= new GpuAdvantageEstimator(shaders));
  };
  return {
    name: 'webgpu-kernels',
    shaders,
    async compute(batch, settings) {
      if (methodSpec(settings.method).gpuKernels === 'gigpo') {
        const { tensor, result } = await this.computeGigpo(batch, requireStateKeys(batch), gigpoSettingsOf(settings));
        return { tensor, result: gigpoAsAdvantages(result) };
      }
      const e = current();
      const inputs = batchToTensors(batch);
      try {
        const { advantages, details } = await e.compute(inputs, settings, { details: true });
        return { tensor: advantages, result: details! };
      } finally {
        tf.dispose(Object.values(inputs));
      }
    },
    async computeGigpo(batch, stateKeys, settings) {
      const index = buildStepGroupIndex(batch, stateKeys); // checks the keys before anything is uploaded
      const e = current();
      const inputs = batchToTensors(batch);
      try {
        const { advantages, details } = await e.computeGigpo(inputs, index, settings, { details: true });
        return { tensor: advantages, result: details! };
      } finally {
        tf.dispose(Object.values(inputs));
      }
    },
    dispose() {
      estimator?.dispose();
      estimator = undefined;
    },
  };
}
