/**
 * Runner of shaders/step-group-reduce.wgsl (GiGPO kernel 3 of 3): the step term A_S over step groups
 * and A = A_E + ω · A_S, docs/maths.md §7. One invocation per step group; the step-group index comes
 * from the CPU (src/advantages/gigpo.ts, buildStepGroupIndex). Kernel 2 of 3 is group-reduce.wgsl,
 * run for the episode term A_E alone (no segment baseline).
 */
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const STEP_GROUP_REDUCE = defineKernel({
  name: 'step-group-reduce',
  params: uniformFields([
    ['numStepGroups', 'u32'],
    ['normalize', 'u32'],
    ['omega', 'f32'],
    ['epsilon', 'f32'],
  ]),
  storage: [
    ['stepGroupOffsets', 'read'],
    ['stepGroupMembers', 'read'],
    ['stepRun', 'read'],
    ['stepReturns', 'read'],
    ['episodeAdvantages', 'read'],
    ['stepAdvantages', 'read_write'],
    ['advantages', 'read_write'],
  ],
});

/** Workgroups for one invocation per step group. */
export const stepGroupWorkgroups = (numStepGroups: number, workgroupSize: number): number => Math.ceil(numStepGroups / workgroupSize);
