/**
 * Runner of shaders/step-returns.wgsl (GiGPO kernel 1 of 3): discounted step returns R_t and the run
 * of every step, docs/maths.md §7. One invocation per run.
 */
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const STEP_RETURNS = defineKernel({
  name: 'step-returns',
  params: uniformFields([
    ['numRuns', 'u32'],
    ['gamma', 'f32'],
  ]),
  storage: [
    ['runOffsets', 'read'],
    ['rewards', 'read'],
    ['stepRun', 'read_write'],
    ['stepReturns', 'read_write'],
  ],
});

/** Workgroups for one invocation per run. */
export const stepReturnsWorkgroups = (numRuns: number, workgroupSize: number): number => Math.ceil(numRuns / workgroupSize);
