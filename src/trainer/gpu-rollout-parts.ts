/**
 * What a GPU rollout (gpu-rollout.ts) hands between its phases, and the small pieces of recording it
 * shares with a seed batch (gpu-rollout-batch.ts): the host's start of a rollout (its reset records and
 * draw key, drawn before the dispatch), where its read-back lies in the staging buffer, the uniforms of
 * the whole-episode kernel, the starting records' upload and one checked submit.
 */
import type { VecEnv } from '../../envs/types.ts';
import type { GpuEnvKernel } from '../gpu/gpu-envs.ts';
import { GpuKernelError, type KernelRunner } from '../gpu/kernel.ts';
import { injectKernelFault } from '../gpu/fault-injection.ts';
import { policyLogitsParams } from '../gpu/policy-logits.ts';
import { recordFinalRecords, type RunSample } from '../gpu/final-records.ts';
import type { Policy } from '../policy/policy.ts';
import type { RecordName, ReadBackName } from './gpu-rollout-sizes.ts';

/** A rollout's host side, drawn before its dispatch and used after it. */
export interface RolloutStart {
  taskSeeds: Uint32Array;
  groupSize: number;
  /** The collector's rollout count at this one: its records are the rollout's while it is the latest. */
  generation: number;
  /** The host replays only the checked sample's runs (sample-replay.ts). */
  sampleOnly: boolean;
  /** The environment's milestone flags are the batch's (the task's detector). */
  flagsAreTheBatch: boolean;
  episodeSeeds: Uint32Array;
  /** Each run's index into its reset records, then those records (rollout-records.ts `resetRecords`). */
  starts: Uint32Array;
  /** The environment's read-only table (gpu-envs.ts `upload`). */
  table: { name: string; data: Uint32Array };
  /** The draw's key (src/gpu/counter-rng.ts): the stream's seed and the rollout's word. */
  key: { seed: number; iteration: number };
  sample: RunSample;
}

/** Where a rollout's read-back lies, in bytes from its first. */
export interface ReadLayout {
  at: Record<ReadBackName, number>;
  weightsAt: number;
  headerAt: number;
  bytes: number;
}

/** A collector's buffers and kernel, for a seed batch that plays its rollout beside others. */
export interface CollectorParts {
  env: VecEnv;
  policy: Policy;
  kernel: GpuEnvKernel;
  device: GPUDevice;
  runner: KernelRunner<string, string>;
  ranks: KernelRunner<string, string>;
  finals: KernelRunner<string, string>;
  numbered: NumberingBuffers;
  buffers: Record<string, GPUBuffer>;
  records: Record<RecordName, GPUBuffer>;
  obsRecord: GPUBuffer;
  dictionary: { table: GPUBuffer; features: GPUBuffer };
}

/** What the dictionary's numbering and the final records' pass read and write: one seed's buffers, or every seed's joined. */
export interface NumberingBuffers {
  episodes: GPUBuffer;
  table: GPUBuffer;
  features: GPUBuffer;
  finals: GPUBuffer;
  runOffsets: GPUBuffer;
  logProbs: GPUBuffer;
  actions: GPUBuffer;
  sample: GPUBuffer;
  hostFinals: GPUBuffer;
}

/**
 * Records what follows the episodes of `seeds` seeds' rollouts (a workgroup per seed in each pass):
 * the dictionary numbered in order of first use, for the update to read (where one is kept), and the
 * final records' pass (final-records.ts), which also copies out the checked sample's steps.
 */
export function recordNumbering(
  encoder: GPUCommandEncoder,
  runners: { ranks: KernelRunner<string, string>; finals: KernelRunner<string, string> },
  env: VecEnv,
  kernel: GpuEnvKernel,
  sample: RunSample,
  b: NumberingBuffers,
  seeds: number,
): void {
  const { ranks, finals } = runners;
  if (b.table.size > 4)
    computePass(encoder, (p) => ranks.record(p, ranks.prepare({ candidateTable: b.table, features: b.features }, { actionDim: env.actionDim }), seeds));
  computePass(encoder, (p) =>
    recordFinalRecords(
      p,
      finals,
      env.batchSize,
      kernel.recordWords,
      kernel.fields,
      sample,
      {
        episodes: b.episodes,
        finals: b.finals,
        runOffsets: b.runOffsets,
        logProbRecord: b.logProbs,
        actionRecord: b.actions,
        sampleSteps: b.sample,
        hostFinals: b.hostFinals,
      },
      seeds,
    ),
  );
}

/** The whole-episode kernel's uniforms for `seeds` seeds' rollouts of `env` side by side (episode-rollout.ts). */
export function episodeUniforms(env: VecEnv, kernel: GpuEnvKernel, hiddenSize: number, seeds: number): Record<string, number> {
  const B = env.batchSize;
  const { scale } = policyLogitsParams(B, env.obsDim, env.actionDim, env.maxActions, hiddenSize);
  return {
    numEpisodes: seeds * B,
    seedRuns: B,
    hiddenSize,
    scale,
    ...kernel.episodeKernel.params(env),
    obsDim: env.obsDim,
    actionDim: env.actionDim,
    numCandidates: env.maxActions,
  };
}

/**
 * Uploads the starting records of `runs` runs (after their live records: each run's index into its
 * reset records, then those records) and each seed's draw key, two words after the most reset
 * records the buffer holds (shaders/lib/rollout.wgsl `seedKey`).
 */
export function writeStarts(
  device: GPUDevice,
  episodes: GPUBuffer,
  runs: number,
  recordWords: number,
  starts: Uint32Array,
  keys: readonly RolloutStart['key'][],
): void {
  device.queue.writeBuffer(episodes, 4 * runs * recordWords, starts);
  const words = Uint32Array.from(keys.flatMap((k) => [k.seed, k.iteration]));
  device.queue.writeBuffer(episodes, 4 * (2 * runs * recordWords + runs), words);
}

/** Records one compute pass into `encoder`. */
export function computePass(encoder: GPUCommandEncoder, record: (p: GPUComputePassEncoder) => void): void {
  const p = encoder.beginComputePass({ label: 'gpu rollout' });
  record(p);
  p.end();
}

/** One command buffer recorded by `record` and submitted, its validation, internal and memory errors thrown as a GpuKernelError. */
export async function submitChecked(device: GPUDevice, label: string, record: (encoder: GPUCommandEncoder) => void): Promise<void> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('internal');
  device.pushErrorScope('validation');
  let errors: Promise<(GPUError | null)[]>;
  try {
    injectKernelFault(device);
    const encoder = device.createCommandEncoder({ label });
    record(encoder);
    device.queue.submit([encoder.finish()]);
  } finally {
    errors = Promise.all([device.popErrorScope(), device.popErrorScope(), device.popErrorScope()]);
  }
  const error = (await errors).find((e) => e !== null);
  if (error) throw new GpuKernelError(label, error.message);
}
