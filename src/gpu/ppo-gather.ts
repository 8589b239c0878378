/**
 * Runner table of shaders/ppo-gather.wgsl: the fused update's per-step rows (observations, actions,
 * old log-probabilities) gathered on the GPU from the whole-episode rollout's step-major records, so
 * the host does not write them. One invocation per batch step.
 */
import type { GpuCandidates } from './candidate-dictionary.ts';
import { defineKernel, type KernelRunner } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const PPO_GATHER = defineKernel({
  name: 'ppo-gather',
  params: uniformFields([
    ['numSteps', 'u32'],
    ['numRuns', 'u32'],
    ['obsDim', 'u32'],
    ['offsetBase', 'u32'],
    ['slotBase', 'u32'],
    ['stepBase', 'u32'],
  ]),
  storage: [
    ['runOffsets', 'read'],
    ['obsRecord', 'read'],
    ['actionRecord', 'read'],
    ['logProbRecord', 'read'],
    ['obs', 'read_write'],
    ['actions', 'read_write'],
    ['oldLogProbs', 'read_write'],
  ],
  seeds: true,
});

/**
 * A GPU rollout's step-major records, where the update may read its batch's rows: run b's step t at
 * slot t · B + b (B = runOffsets.length − 1), the observations obsDim floats per slot. Valid until the
 * collector's next rollout.
 */
export interface RolloutRecords {
  obs: GPUBuffer;
  actions: GPUBuffer;
  logProbs: GPUBuffer;
  /** B + 1 step offsets of the run-major batch. */
  runOffsets: Int32Array;
  /** The same offsets on the GPU, written there by the rollout (final-records.ts): the kernels that read the records bind them. */
  offsets: GPUBuffer;
  /** The rollout's candidate dictionary, numbered, where the update reads its candidate rows (absent: the host writes them). */
  candidates?: GpuCandidates;
  /**
   * Whether each action record's milestone flag (src/trainer/rollout-records.ts MILESTONE_FLAG) is the batch's Φ,
   * before any detector setting rewrites it (true under the task's detector, which the WGSL
   * environments detect with).
   */
  milestones: boolean;
  /**
   * What the credit metrics on the GPU read besides the actions and offsets (credit-metrics.ts): each
   * run's final record (final-records.ts), and where in the action record the state keys start.
   */
  credit?: { finals: GPUBuffer; stateKeysAt: number };
}

/**
 * Records the dispatch that gathers `numSteps` rows of the run-major batch from `records` into
 * `into` (observations obsDim floats per step), on `runner` (made from PPO_GATHER with `workgroup`
 * invocations per workgroup).
 */
export function recordPpoGather(
  pass: GPUComputePassEncoder,
  runner: KernelRunner<string, string>,
  workgroup: number,
  records: RolloutRecords,
  numSteps: number,
  obsDim: number,
  into: { obs: GPUBuffer; actions: GPUBuffer; oldLogProbs: GPUBuffer },
): void {
  const bound = {
    runOffsets: records.offsets,
    obsRecord: records.obs,
    actionRecord: records.actions,
    logProbRecord: records.logProbs,
    obs: into.obs,
    actions: into.actions,
    oldLogProbs: into.oldLogProbs,
  };
  const seed = { numSteps, numRuns: records.runOffsets.length - 1, offsetBase: 0, slotBase: 0, stepBase: 0 };
  recordPpoGathers(pass, runner, workgroup, obsDim, bound, [seed]);
}

/** One seed's part of a joined gather: its steps and runs, where its offsets and record slots start, where its rows go. */
export type GatherPart = {
  numSteps: number;
  numRuns: number;
  offsetBase: number;
  slotBase: number;
  stepBase: number;
};

/** As `recordPpoGather`, every seed's rows in one dispatch (the kernel's seed axis) from joined records into joined rows. */
export function recordPpoGathers(
  pass: GPUComputePassEncoder,
  runner: KernelRunner<string, string>,
  workgroup: number,
  obsDim: number,
  bound: Record<(typeof PPO_GATHER.storage)[number][0], GPUBuffer>,
  parts: readonly GatherPart[],
): void {
  const workgroups = Math.max(...parts.map((p) => Math.ceil(p.numSteps / workgroup)));
  runner.record(
    pass,
    runner.prepareSeeds(
      bound,
      parts.map((p) => ({ ...p, obsDim })),
    ),
    workgroups,
    parts.length,
  );
}
