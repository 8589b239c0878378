/**
 * What a GPU rollout (gpu-rollout.ts) binds and reads back, in bytes, and whether it fits the device:
 * the records the whole-episode kernel writes, what comes back of them, the per-step buffers the kernel
 * shares, and the records kept on the GPU for the update only where they fit the binding limits.
 */
import type { VecEnv } from '../../envs/types.ts';
import { dictionaryBytes, dictionaryWithEmbeddingsBytes } from '../gpu/candidate-dictionary.ts';
import { MAX_CANDIDATES } from '../gpu/episode-rollout.ts';
import { FINAL_WORDS, SAMPLE_WORDS } from '../gpu/final-records.ts';
import { gpuEnvKernel } from '../gpu/gpu-envs.ts';
import { POLICY_LOGITS_MAX_HIDDEN, policyWeightCount } from '../gpu/policy-logits.ts';
import { CHECKED_RUNS } from './log-prob-check.ts';

/**
 * Bytes of the records one rollout of `env` writes: step-major actions, then the keys of the states
 * they were taken in (in one record: lib/rollout.wgsl), and log-probabilities; compact final records.
 */
export function recordSizes(env: VecEnv) {
  const steps = env.maxSteps * env.batchSize;
  return { actions: 2 * 4 * steps, logProbs: 4 * steps, finals: 4 * env.batchSize * FINAL_WORDS };
}

/**
 * Bytes of what one rollout of `env` brings back: the final records packed (a word a run, and the
 * graded outcome's where the environment grades one), the sampled runs' steps (SAMPLE_WORDS a step,
 * maxSteps slots a run), and, where the host replays every run, every step's action (not its state key).
 */
export function readBackSizes(env: VecEnv) {
  const graded = gpuEnvKernel(env)?.fields.outcome !== undefined;
  return { finals: 4 * env.batchSize * (graded ? 2 : 1), sample: 4 * SAMPLE_WORDS * CHECKED_RUNS * env.maxSteps, actions: 4 * env.maxSteps * env.batchSize };
}

export type ReadBackName = keyof ReturnType<typeof readBackSizes>;

/**
 * Bytes of the buffers the rollout kernel binds besides the records, for one rollout of `env` at width
 * `hiddenSize`, or of `seeds` seeds' rollouts side by side (gpu-rollout-batch.ts).
 */
export function stepBufferSizes(env: VecEnv, hiddenSize: number, recordWords: number, seeds = 1): Record<string, number> {
  const B = seeds * env.batchSize;
  const A = env.maxActions;
  return {
    weights: 4 * seeds * policyWeightCount(env.obsDim, env.actionDim, hiddenSize),
    // The live records, then each run's index into its reset records and those records (at most B;
    // resetRecords), then each seed's draw key (two words; lib/rollout.wgsl seedKey).
    episodes: 4 * (2 * B * recordWords + B + 2 * seeds),
    mask: 4 * B * A,
    obs: 4 * B * env.obsDim,
    actionFeatures: 4 * B * A * env.actionDim,
  };
}

export type RecordName = keyof ReturnType<typeof recordSizes>;

/**
 * `bytes`, or 4 where a buffer of `bytes` would be over the device's binding limits: a record the
 * rollout keeps on the GPU for the update (the step-major observations, ppo-gather.ts; the candidate
 * dictionary, candidate-dictionary.ts) is then not kept, the kernel writes none, and the host lays
 * that part of the batch out.
 */
export function keptBytes(bytes: number, device: GPUDevice): number {
  return bytes <= Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize) ? bytes : 4;
}

/**
 * Bytes of the rollout's candidate dictionary on `device`: with the published embeddings where they fit
 * the binding limits, else without (each run then computes its rows' embeddings itself), else 4 (none kept).
 */
export function dictionarySize(env: VecEnv, hiddenSize: number, device: GPUDevice): number {
  const pairs = env.maxSteps * env.batchSize * env.maxActions;
  const withEmbeddings = keptBytes(dictionaryWithEmbeddingsBytes(env.actionDim, pairs, hiddenSize), device);
  return withEmbeddings > 4 ? withEmbeddings : keptBytes(dictionaryBytes(env.actionDim, pairs), device);
}

/** Storage buffers the whole-episode kernel binds (episode-rollout.ts). */
const ROLLOUT_STORAGE_BUFFERS = 10;

/**
 * Why `env` cannot be rolled out on `device` by a GpuRolloutCollector, or null if it can: an environment
 * without a kernel, a width over the kernel's, or a buffer over the device's limits.
 */
export function gpuRolloutRefusal(env: VecEnv, hiddenSize: number, device: GPUDevice): string | null {
  const kernel = gpuEnvKernel(env);
  if (!kernel) return `the ${env.name} environment has no GPU kernel`;
  if (hiddenSize > POLICY_LOGITS_MAX_HIDDEN) return `hiddenSize ${hiddenSize} is over the GPU acting pass's ${POLICY_LOGITS_MAX_HIDDEN}`;
  if (env.maxActions > MAX_CANDIDATES) return `the ${env.name} environment's ${env.maxActions} candidates are over the GPU draw's ${MAX_CANDIDATES}`;
  if (device.limits.maxStorageBuffersPerShaderStage < ROLLOUT_STORAGE_BUFFERS)
    return `the GPU rollout binds ${ROLLOUT_STORAGE_BUFFERS} storage buffers, over the adapter's maxStorageBuffersPerShaderStage (${device.limits.maxStorageBuffersPerShaderStage})`;
  const binding = device.limits.maxStorageBufferBindingSize;
  const bound = { ...stepBufferSizes(env, hiddenSize, kernel.recordWords), ...recordSizes(env) };
  for (const [name, bytes] of Object.entries(bound))
    if (bytes > binding) return `the GPU rollout's ${name} buffer (${bytes} bytes) is over the adapter's maxStorageBufferBindingSize (${binding} bytes)`;
  const total = Object.values(recordSizes(env)).reduce((s, n) => s + n, 0);
  if (total > device.limits.maxBufferSize)
    return `the GPU rollout's records (${total} bytes) are over the adapter's maxBufferSize (${device.limits.maxBufferSize} bytes)`;
  return null;
}
