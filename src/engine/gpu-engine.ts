/**
 * The trainer's `AdvantageEngine` on the WGSL kernels (use it when tfjs runs on webgpu; on wasm/cpu
 * use `cpuAdvantageEngine`). It uploads the CPU batch as tensors, runs the kernels, and returns the
 * zero-copy advantages tensor for the loss plus CPU copies of A, A_traj, A_seg and r_t for the
 * metrics (one read-back per iteration).
 *
 * Which kernels run is the method's choice: its spec's `gpu` picks one of the paths offered here
 * (`GpuPaths`, src/methods/method.ts), the dual-scale kernels with its switches (docs/maths.md §4) or
 * GiGPO's anchor-state kernels (§7), where the CPU builds the step-group index from the state keys.
 */
import * as tf from '@tensorflow/tfjs-core';
import { getWebGpuDevice } from '../backend/webgpu-interop.ts';
import { buildStepGroupIndex, type GigpoResult, type GigpoSettings } from '../advantages/gigpo.ts';
import type { AdvantageBatch, AdvantageSettings, EstimatorSwitches } from '../advantages/types.ts';
import type { AdvantageEngine, ComputedAdvantages } from './engine.ts';
import { gigpoAsAdvantages, gigpoSettingsOf, requireStateKeys } from '../methods/gigpo.ts';
import type { GpuPaths, MethodSpec } from '../methods/method.ts';
import { batchToTensors, GpuAdvantageEstimator } from '../gpu/advantage-estimator.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';

/** GiGPO's advantages: the loss's tensor (the caller disposes it) and the CPU copies for metrics. */
export interface ComputedGigpo {
  tensor: tf.Tensor1D;
  result: GigpoResult;
}

export interface GpuAdvantageEngine extends AdvantageEngine {
  /** GiGPO on the kernels for `batch` with one environment state key per step. */
  computeGigpo(batch: AdvantageBatch, stateKeys: ArrayLike<number>, settings: GigpoSettings): Promise<ComputedGigpo>;
}

/** A GPU path: how one iteration's advantages are computed on the kernels. */
type GpuPath = (
  engine: GpuAdvantageEngine,
  estimator: () => GpuAdvantageEstimator,
  batch: AdvantageBatch,
  settings: AdvantageSettings,
) => Promise<ComputedAdvantages>;

/** The kernel paths a method's `gpu` picks from. */
const PATHS: GpuPaths<GpuPath> = {
  dualScale: (switches: EstimatorSwitches) => async (_engine, estimator, batch, settings) => {
    const e = estimator();
    const inputs = batchToTensors(batch);
    try {
      const { advantages, details } = await e.compute(inputs, settings, switches, { details: true });
      return { tensor: advantages, result: details! };
    } finally {
      tf.dispose(Object.values(inputs));
    }
  },
  anchorStates: () => async (engine, _estimator, batch, settings) => {
    const { tensor, result } = await engine.computeGigpo(batch, requireStateKeys(batch), gigpoSettingsOf(settings));
    return { tensor, result: gigpoAsAdvantages(result) };
  },
};

/** Whether `method` has a GPU path at all (else it runs on the CPU reference everywhere). */
export const hasGpuPath = (method: MethodSpec): boolean => method.gpu !== null;

/**
 * `shaders`: `VITE_SHADERS` in the page, `readShaderSources()` in Node CLIs. `method`: whose GPU path
 * `compute` takes (its spec's `gpu`); `computeGigpo` is there for every method.
 */
export function createGpuAdvantageEngine(shaders: ShaderSources, method: MethodSpec): GpuAdvantageEngine {
  if (!method.gpu) throw new RangeError(`method ${method.name} has no GPU path; use the CPU engine`);
  const path = method.gpu(PATHS);
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
  const engine: GpuAdvantageEngine = {
    name: 'webgpu-kernels',
    shaders,
    compute: (batch, settings) => path(engine, current, batch, settings),
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
  return engine;
}
