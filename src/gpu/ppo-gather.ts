/**
 * Runner table of shaders/ppo-gather.wgsl: the fused update's per-step rows (observations, actions,
 * old log-probabilities) gathered on the GPU from the whole-episode rollout's step-major records, so
 * the host does not write them. One invocation per batch step.
 */
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const PPO_GATHER = defineKernel({
  name: 'ppo-gather',
  params: uniformFields([
    ['numSteps', 'u32'],
    ['numRuns', 'u32'],
    ['obsDim', 'u32'],
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
}
