/**
 * Runner of shaders/combine-advantages.wgsl (kernel 3 of 3): A(i, t) = A_traj(i) + λ · A_seg(i, t),
 * docs/maths.md §4. One invocation per step; its `advantages` output is the loss's tensor.
 */
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const COMBINE_ADVANTAGES = defineKernel({
  name: 'combine-advantages',
  params: uniformFields([
    ['numSteps', 'u32'],
    ['segmentBaseline', 'u32'],
    ['lambda', 'f32'],
    ['segmentNormalize', 'u32'],
  ]),
  storage: [
    ['stepRun', 'read'],
    ['stepSlot', 'read'],
    ['shapedRewards', 'read'],
    ['trajectoryAdvantages', 'read'],
    ['baselines', 'read'],
    ['segmentAdvantages', 'read_write'],
    ['advantages', 'read_write'],
    ['segmentScales', 'read'],
  ],
});

/** Workgroups for one invocation per step. */
export const combineWorkgroups = (numSteps: number, workgroupSize: number): number => Math.ceil(numSteps / workgroupSize);
