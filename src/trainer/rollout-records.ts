/**
 * What a GPU rollout (gpu-rollout.ts) uploads and reads back of its runs, beside the kernels: the
 * batch's reset and the records the whole-episode kernel starts from (each distinct one once), the
 * milestone flag each step's action record carries (taken out, and checked against the replay), the
 * final records checked against the replay's, and the sampled runs' log-probabilities laid out as the
 * replay reads them.
 */
import { createEnv } from '../../envs/index.ts';
import type { VecEnv } from '../../envs/types.ts';
import type { RunSample } from '../gpu/final-records.ts';
import type { GpuEnvKernel } from '../gpu/gpu-envs.ts';
import { Rng } from '../prng.ts';
import { GpuKernelError } from '../gpu/kernel.ts';
import { permutedIndex } from '../gpu/minibatch-permutation.ts';
import { resetEpisodes, type Rollout } from './rollout.ts';

/** The action record's bit for the step's milestone flag (MILESTONE_FLAG in shaders/lib/rollout.wgsl); the action is below it. */
export const MILESTONE_FLAG = 0x10000;

/** Each step slot's milestone flag (0 or 1), taken out of the action record, which keeps the actions alone. */
export function splitMilestoneFlags(actions: Int32Array): Uint8Array {
  const flags = new Uint8Array(actions.length);
  for (let i = 0; i < actions.length; i++) {
    flags[i] = actions[i] & MILESTONE_FLAG ? 1 : 0;
    actions[i] &= MILESTONE_FLAG - 1;
  }
  return flags;
}

/** A run's final record as the GPU wrote it (final-records.ts `unpackHostFinal`, and its graded outcome where there is one). */
export interface GpuFinal {
  steps: number;
  success: number;
  milestonesReached: number;
  numMilestones: number;
  outcome?: number;
}

/** Throws unless batch run `b`'s final record on the GPU is that of run `i` of `replay`. */
export function checkFinalRecord(b: number, gpu: GpuFinal, replay: Rollout, i: number): void {
  const checks: [string, number, number][] = [
    ['length', gpu.steps, replay.runOffsets[i + 1] - replay.runOffsets[i]],
    ['success', gpu.success, replay.success[i]],
    ['milestones reached', gpu.milestonesReached, replay.milestonesReached[i]],
    ['milestones', gpu.numMilestones, replay.numMilestones[i]],
    ...(replay.outcome && gpu.outcome !== undefined ? [['graded outcome', gpu.outcome, replay.outcome[i]] as [string, number, number]] : []),
  ];
  for (const [what, onGpu, replayed] of checks)
    if (onGpu !== replayed)
      throw new GpuKernelError(
        'gpu rollout',
        `the GPU environment left the TypeScript one: run ${b}'s ${what} is ${onGpu} on the GPU, ${replayed} in the replay`,
      );
}

/** Throws unless every step's milestone flag on the GPU (step-major) is the replay's. */
export function checkMilestoneFlags(rollout: Rollout, flags: Uint8Array): void {
  const B = rollout.numRuns;
  for (let b = 0; b < B; b++)
    for (let s = rollout.runOffsets[b]; s < rollout.runOffsets[b + 1]; s++) {
      const t = s - rollout.runOffsets[b];
      const onGpu = flags[t * B + b];
      if (onGpu !== rollout.milestones[s])
        throw new GpuKernelError(
          'gpu rollout',
          `the GPU environment left the TypeScript one: run ${b}, step ${t}: the milestone flag is ${onGpu} on the GPU, ${rollout.milestones[s]} in the replay`,
        );
    }
}

/**
 * What the whole-episode kernel starts its runs from (lib/rollout.wgsl `startRun`): each run's index
 * into the distinct reset records, then those records, from B freshly reset records of W words. A run
 * whose record equals the one before it shares it: a group's runs play one task and are reset alike
 * (they differ only where milestone dropout drew differently).
 */
export function resetRecords(episodes: Uint32Array, B: number, W: number): Uint32Array {
  const out = new Uint32Array(B + B * W);
  let distinct = 0;
  for (let b = 0; b < B; b++) {
    const record = episodes.subarray(b * W, (b + 1) * W);
    const last = out.subarray(B + (distinct - 1) * W, B + distinct * W);
    if (distinct === 0 || !record.every((word, i) => word === last[i])) out.set(record, B + distinct++ * W);
    out[b] = distinct - 1;
  }
  return out.subarray(0, B + distinct * W);
}

/** `env`'s environment, horizon and detector at another batch size, without milestone dropout (its reset draws nothing: envs/episode-book.ts). */
export function twinEnv(env: VecEnv, batchSize: number): VecEnv {
  return createEnv(env.name, { horizon: env.horizon, batchSize, milestoneDropout: 0, detector: env.detector });
}

/** A batch's reset in the TypeScript environment, and what the whole-episode kernel starts its runs from (`starts`, with the kernel's `table`). */
export class RunStarts {
  /** An environment of one run per group, where a batch is reset one run per group. */
  private groups: VecEnv | null = null;

  constructor(
    private readonly env: VecEnv,
    private readonly kernel: GpuEnvKernel,
  ) {}

  /** Every run reset (drawing its dropout decisions from `dropoutRng`), each distinct record uploaded once. */
  everyRun(taskSeeds: Uint32Array, groupSize: number, dropoutRng: Rng) {
    const { env, kernel } = this;
    const episodeSeeds = resetEpisodes(env, taskSeeds, groupSize, dropoutRng);
    const { episodes, table } = kernel.upload(env);
    return { episodeSeeds, starts: resetRecords(episodes, env.batchSize, kernel.recordWords), table };
  }

  /**
   * One run per group reset (a group's runs are reset alike without milestone dropout), in an
   * environment of one run per group, so the host's reset does not grow with the group size; `env`
   * itself is left as it was. Throws for a batch with dropout (its runs draw their own decisions).
   */
  perGroup(taskSeeds: Uint32Array, groupSize: number) {
    const { env, kernel } = this;
    if (env.milestoneDropout > 0) throw new RangeError('GpuRolloutCollector: a rollout that replays only its sample cannot have milestone dropout');
    if (this.groups?.batchSize !== taskSeeds.length) this.groups = twinEnv(env, taskSeeds.length);
    this.groups.reset(taskSeeds, new Rng(0)); // draws nothing (no dropout)
    const { episodes, table } = kernel.upload(this.groups);
    const episodeSeeds = Uint32Array.from({ length: env.batchSize }, (_, b) => taskSeeds[Math.floor(b / groupSize)]);
    return { episodeSeeds, starts: groupResetRecords(episodes, env.batchSize, groupSize), table };
  }
}

/**
 * What the whole-episode kernel starts its runs from where every group's runs are reset alike (no
 * milestone dropout): run b's index is its group's, then the groups' records (`episodes`, one a
 * group, from an environment reset with one run per group). The same words as `resetRecords` of
 * the whole batch's records, but for a group that shares its record with the group before it.
 */
export function groupResetRecords(episodes: Uint32Array, B: number, groupSize: number): Uint32Array {
  const out = new Uint32Array(B + episodes.length);
  for (let b = 0; b < B; b++) out[b] = Math.floor(b / groupSize);
  out.set(episodes, B);
  return out;
}

/**
 * The step-major log-probabilities as the replay reads them: the sampled runs' (the final records'
 * pass copies them, run after run, maxSteps slots each), NaN elsewhere until the rollout's
 * `completeLogProbs`.
 */
export function sampledLogProbs(sampled: Float32Array, sample: RunSample, B: number): Float32Array {
  const T = sample.maxSteps;
  const out = new Float32Array(T * B).fill(Number.NaN);
  for (let i = 0; i < sample.runs; i++) {
    const b = permutedIndex(i, B, sample.key, 0);
    for (let t = 0; t < T; t++) out[t * B + b] = sampled[i * T + t];
  }
  return out;
}
