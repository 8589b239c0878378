/**
 * The trainer's `AdvantageEngine` on the WGSL kernels (use it when tfjs runs on webgpu; on wasm/cpu
 * use `cpuAdvantageEngine`). It uploads the CPU batch as tensors, runs the kernels, and returns the
 * zero-copy advantages tensor for the loss plus CPU copies of A, A_traj, A_seg and r_t for the
 * metrics: read back at once by `compute`, or kept on the GPU by `computeDeferred` for the iteration's
 * one read-back, which the trainer shares with the PPO statistics (src/trainer/iteration-read-back.ts).
 *
 * Which kernels run is the method's choice: its spec's `gpu` picks one of the paths offered here
 * (`GpuPaths`, src/methods/method.ts), the dual-scale kernels with its switches (docs/maths.md §4) or
 * GiGPO's anchor-state kernels (§7), where the CPU builds the step-group index from the state keys.
 */
import * as tf from '@tensorflow/tfjs-core';
import { getWebGpuDevice } from '../backend/webgpu-interop.ts';
import { anchorCoverage, buildStepGroupIndex, type GigpoResult, type GigpoSettings } from '../advantages/gigpo.ts';
import { numSteps, type AdvantageBatch, type AdvantageSettings, type EstimatorSwitches } from '../advantages/types.ts';
import type { AdvantageEngine, ComputedAdvantages, DeferredAdvantages } from './engine.ts';
import { gigpoAsAdvantages, gigpoSettingsOf, requireStateKeys } from '../methods/gigpo.ts';
import type { GpuPaths, MethodSpec } from '../methods/method.ts';
import { GpuAdvantageEstimator } from '../gpu/advantage-estimator.ts';
import { batchToTensors } from '../gpu/advantage-tensors.ts';
import type { RolloutRecords } from '../gpu/ppo-gather.ts';
import { mapRead } from '../gpu/pending-read.ts';
import type { AdvantageSeat } from '../gpu/seed-advantages.ts';
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

/** Details read back now (`compute`) or kept on the GPU for the iteration's read-back (`computeDeferred`). */
type DetailsMode = true | 'deferred';

/** What a path returns: `result` when the details were read now, `pending` when they were kept. */
interface PathOutput {
  tensor: tf.Tensor1D;
  result?: ComputedAdvantages['result'];
  pending?: DeferredAdvantages['details'];
  anchorCoverage?: number;
}

/** The batch's inputs the GPU rollout's records already hold on the GPU (each undefined: upload it from the batch). */
interface FromRecords {
  /** The action record, whose flags the segment scan reads in place (advantage-tensors.ts `milestoneRecord`). */
  milestoneRecord?: tf.Tensor1D;
  /** The run offsets the rollout wrote. */
  runOffsets?: tf.Tensor1D;
}

/**
 * A GPU path: how one iteration's advantages are computed on the kernels. `fromRecords`: the batch's
 * inputs read where the rollout left them on the GPU (a path that reads the flags calls it).
 */
type GpuPath = (
  estimator: () => GpuAdvantageEstimator,
  batch: AdvantageBatch,
  settings: AdvantageSettings,
  mode: DetailsMode,
  fromRecords: () => FromRecords,
) => Promise<PathOutput>;

/** The kernel paths a method's `gpu` picks from. */
const PATHS: GpuPaths<GpuPath> = {
  dualScale: (switches: EstimatorSwitches) => async (estimator, batch, settings, mode, fromRecords) => {
    const e = estimator();
    const { milestoneRecord, runOffsets } = fromRecords();
    let inputs: ReturnType<typeof batchToTensors>;
    try {
      inputs = batchToTensors(batch, milestoneRecord, runOffsets);
    } catch (e) {
      tf.dispose([milestoneRecord, runOffsets].filter((t) => t !== undefined));
      throw e;
    }
    try {
      const { advantages, details, pendingDetails } = await e.compute(inputs, settings, switches, { details: mode, host: batch });
      return { tensor: advantages, result: details, pending: pendingDetails };
    } finally {
      tf.dispose(Object.values(inputs));
    }
  },
  // GiGPO reads no milestone flags (docs/maths.md §7).
  anchorStates: () => async (estimator, batch, settings, mode) => {
    const { advantages, details, pendingDetails, coverage } = await gigpo(estimator, batch, requireStateKeys(batch), gigpoSettingsOf(settings), mode);
    return {
      anchorCoverage: coverage,
      tensor: advantages,
      result: details && gigpoAsAdvantages(details),
      pending: pendingDetails && mapRead(pendingDetails, gigpoAsAdvantages),
    };
  },
};

/** GiGPO on the kernels, the step-group index built on the CPU from the state keys. */
async function gigpo(estimator: () => GpuAdvantageEstimator, batch: AdvantageBatch, stateKeys: ArrayLike<number>, settings: GigpoSettings, mode: DetailsMode) {
  const index = buildStepGroupIndex(batch, stateKeys); // checks the keys before anything is uploaded
  const e = estimator();
  const inputs = batchToTensors(batch);
  try {
    return { ...(await e.computeGigpo(inputs, index, settings, { details: mode, host: batch })), coverage: anchorCoverage(index) };
  } finally {
    tf.dispose(Object.values(inputs));
  }
}

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
  /** Where a seed batched with others computes its advantages with theirs (seatAdvantages). */
  let seat: AdvantageSeat | null = null;
  // Created on first use, on the device tfjs's webgpu backend holds then; recreated if the backend
  // has moved to a new device since (src/backend re-initialises after a device loss).
  const current = () => {
    if (estimator && estimator.device !== getWebGpuDevice()) {
      estimator.dispose();
      estimator = undefined;
    }
    estimator ??= new GpuAdvantageEstimator(shaders);
    estimator.seat = seat;
    return estimator;
  };
  /**
   * What `records` hold of the batch on the GPU, as zero-copy tensors (disposing them leaves the
   * rollout's buffers): its run offsets, and its action record where its flags are Φ's, which the
   * segment scan reads in place (numSteps elements of a record of maxSteps · B slots and more).
   */
  const fromRecords = (batch: AdvantageBatch, records: RolloutRecords | undefined): FromRecords => {
    if (!records) return {};
    const zeroCopy = (buffer: GPUBuffer, size: number) => tf.tensor({ buffer, zeroCopy: true }, [size], 'int32') as tf.Tensor1D;
    const runOffsets = zeroCopy(records.offsets, records.runOffsets.length);
    if (!records.milestones) return { runOffsets };
    return { runOffsets, milestoneRecord: zeroCopy(records.actions, numSteps(batch)) };
  };
  const engine: GpuAdvantageEngine = {
    name: 'webgpu-kernels',
    shaders,
    async compute(batch, settings, records) {
      const { tensor, result } = await path(current, batch, settings, true, () => fromRecords(batch, records));
      return { tensor, result: result! }; // details: true reads them
    },
    async computeDeferred(batch, settings, records) {
      const { tensor, pending, anchorCoverage } = await path(current, batch, settings, 'deferred', () => fromRecords(batch, records));
      return { tensor, details: pending!, ...(anchorCoverage === undefined ? {} : { anchorCoverage }) }; // details: 'deferred' keeps them
    },
    async computeGigpo(batch, stateKeys, settings) {
      const { advantages, details } = await gigpo(current, batch, stateKeys, settings, true);
      return { tensor: advantages, result: details! };
    },
    seatAdvantages(next) {
      seat = next;
      if (estimator) estimator.seat = next;
    },
    trim() {
      estimator?.trim();
    },
    dispose() {
      estimator?.dispose();
      estimator = undefined;
    },
  };
  return engine;
}
