/**
 * What of a batch the GPU reads where the rollout left it, without the host laying out its steps: Φ's
 * milestone flags for the advantages, and the credit metrics of docs/maths.md §5.
 */
import type * as tf from '@tensorflow/tfjs-core';
import { rewritesDetector } from '../advantages/detector-view.ts';
import { tensorGpuBuffer } from '../backend/webgpu-interop.ts';
import type { TrainConfig } from '../config.ts';
import { creditMetricsRefusal, type GpuCreditMetrics } from '../gpu/credit-metrics.ts';
import type { PendingRead } from '../gpu/pending-read.ts';
import type { RolloutRecords } from '../gpu/ppo-gather.ts';
import { methodSpec } from '../methods/registry.ts';
import type { CreditMetrics } from '../metrics/credit-metrics.ts';
import { isPendingDetails, type IterationDetails } from './iteration-read-back.ts';
import { rolloutSteps, type Rollout } from './rollout.ts';

/** Which of the iteration's kernels a trainer has on this backend (trainer.ts). */
export interface IterationKernels {
  /** The PPO update's (ppo-fused.ts). */
  update: boolean;
  /** The credit metrics' (src/gpu/credit-metrics.ts). */
  metrics: boolean;
  /** A critic, whose update reads the steps' observations on the host's side of the batch. */
  critic: boolean;
  /** The advantages' details left on the GPU for the iteration's one read-back (the engine's `computeDeferred`). */
  deferredAdvantages: boolean;
}

/**
 * Whether the next batch is read on the GPU alone, so that a GPU rollout may replay only its checked
 * sample on the host (rollout.ts `CollectOptions`): the advantages on the kernels with Φ's flags read
 * from the rollout's record (no detector setting, random segmentation or dropout changes them), the PPO
 * update and the credit metrics on the kernels, no critic, no state keys read on the host (GiGPO's step
 * groups). The page's views then draw the checked sample (sample-view.ts). Where a step turns out to be
 * needed after all (a batch over a kernel's limits), its reader asks for the whole replay first.
 */
export function readsStepsOnGpu(config: TrainConfig, kernels: IterationKernels): boolean {
  const spec = methodSpec(config.method);
  const ppo = spec.learner.policyUpdate({ clippedSurrogate: true, behaviourCloning: false });
  return (
    ppo &&
    kernels.update &&
    kernels.metrics &&
    !kernels.critic &&
    kernels.deferredAdvantages &&
    !spec.needs.stateKeys &&
    config.milestoneDropout === 0 &&
    !rewritesDetector(config) &&
    !config.randomSegments
  );
}

/**
 * The GPU rollout's records where their milestone flags are the batch's (advantage-batch.ts leaves Φ's
 * flags as they are: no detector setting rewrites them, no random segments), for the engine to read
 * there; else undefined.
 */
export function milestonesOnGpu(rollout: Rollout, config: TrainConfig): RolloutRecords | undefined {
  const records = rollout.gpuRecords;
  return records?.milestones && !rewritesDetector(config) && !config.randomSegments ? records : undefined;
}

/**
 * The credit metrics of the batch computed on the GPU (src/gpu/credit-metrics.ts), submitted before the
 * update takes `advantages` over, where the rollout's records hold everything they read: its flags
 * are the batch's (`records`: milestonesOnGpu), the details are on the GPU, and the method's record
 * needs nothing more of them (a method that reads the state keys, GiGPO, needs its anchor
 * coverage: known on the host, or among the details); else no `metrics`: the CPU computes them from
 * the details. `fallback`: why not, where the trainer has the kernels and the batch's own design would
 * have read them on the GPU (the records not left there, a batch over the kernels' limits); null where
 * the host is the design (no kernels, a critic's details, GiGPO's coverage among the details, flags
 * rewritten on the host).
 */
export async function creditMetricsOnGpu(
  gpu: GpuCreditMetrics | null,
  config: TrainConfig,
  rollout: Rollout,
  records: RolloutRecords | undefined,
  advantages: tf.Tensor1D,
  details: IterationDetails,
  anchorCoverage: number | undefined,
): Promise<{ metrics?: PendingRead<CreditMetrics>; fallback: string | null }> {
  const out = await metricsOnGpu(gpu, config, rollout, records, advantages, details, anchorCoverage);
  if (!out.metrics) gpu?.pass(); // the seeds batched with this one do not wait for its metrics
  return out;
}

async function metricsOnGpu(
  gpu: GpuCreditMetrics | null,
  config: TrainConfig,
  rollout: Rollout,
  records: RolloutRecords | undefined,
  advantages: tf.Tensor1D,
  details: IterationDetails,
  anchorCoverage: number | undefined,
): Promise<{ metrics?: PendingRead<CreditMetrics>; fallback: string | null }> {
  const S = rolloutSteps(rollout);
  if (!gpu || !isPendingDetails(details)) return { fallback: null };
  if (methodSpec(config.method).needs.stateKeys && anchorCoverage === undefined) return { fallback: null };
  if (!rollout.gpuRecords?.credit) return { fallback: 'the rollout left no records on the GPU for the metrics to read' };
  if (!records?.credit) return { fallback: null }; // the host rewrites the batch's flags (a detector setting, random segments)
  const refusal = creditMetricsRefusal(S, gpu.device);
  if (refusal !== null) return { fallback: refusal };
  const metrics = await gpu.compute(
    { actions: records.actions, offsets: records.offsets, ...records.credit },
    tensorGpuBuffer(advantages),
    S,
    rollout.numRuns,
    rollout.groupSize,
  );
  return { metrics, fallback: null };
}
