/**
 * The trainer's `AdvantageEngine` on the WGSL kernels (use it when tfjs runs on webgpu; on wasm/cpu
 * use `cpuAdvantageEngine`). It uploads the CPU batch as tensors, runs the kernels, and returns the
 * zero-copy advantages tensor for the loss plus CPU copies of A, A_traj, A_seg and r_t for the
 * metrics (one read-back per iteration).
 */
import * as tf from '@tensorflow/tfjs-core';
import { getWebGpuDevice } from '../backend/webgpu-interop.ts';
import type { AdvantageEngine } from '../trainer/advantage-engine.ts';
import { batchToTensors, GpuAdvantageEstimator } from './advantage-estimator.ts';
import type { ShaderSources } from './shader-source.ts';

/** `shaders`: `VITE_SHADERS` in the page, `readShaderSources()` in Node CLIs. */
export function createGpuAdvantageEngine(shaders: ShaderSources): AdvantageEngine {
  let estimator: GpuAdvantageEstimator | undefined;
  return {
    name: 'webgpu-kernels',
    async compute(batch, settings) {
      // Created on first use, on the device tfjs's webgpu backend holds then; recreated if the backend
      // has moved to a new device since (src/backend re-initialises after a device loss).
      if (estimator && estimator.device !== getWebGpuDevice()) {
        estimator.dispose();
        estimator = undefined;
      }
      estimator ??= new GpuAdvantageEstimator(shaders);
      const inputs = batchToTensors(batch);
      try {
        const { advantages, details } = await estimator.compute(inputs, settings, { details: true });
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
