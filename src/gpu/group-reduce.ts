/**
 * Runner of shaders/group-reduce.wgsl (kernel 2 of 3): per-group trajectory statistics with the
 * exact-zero tie rule, and the per-(group, k) segment baselines, docs/maths.md §4. One workgroup per group.
 */
import type { AdvantageSettings } from '../advantages/types.ts';
import { defineKernel } from './kernel.ts';
import { uniformLayout } from './uniforms.ts';

export const GROUP_REDUCE = defineKernel({
  name: 'group-reduce',
  params: uniformLayout([
    ['numGroups', 'u32'],
    ['normalize', 'u32'],
    ['trajectoryTerm', 'u32'],
    ['segmentBaseline', 'u32'],
    ['epsilon', 'f32'],
  ]),
  storage: [
    ['groupOffsets', 'read'],
    ['runOffsets', 'read'],
    ['rewards', 'read'],
    ['runSegments', 'read'],
    ['segmentPartials', 'read'],
    ['trajectoryAdvantages', 'read_write'],
    ['baselines', 'read_write'],
  ],
});

/** The shaders' `segmentBaseline` code: 0 none (GRPO), 1 perStepReturn, 2 stepMean. */
export function segmentBaselineCode(settings: AdvantageSettings): number {
  if (settings.method === 'grpo') return 0;
  return settings.segmentBaseline === 'perStepReturn' ? 1 : 2;
}

/** The shaders' `normalize` code: 0 meanStd, 1 mean. */
export const normalizeCode = (settings: AdvantageSettings): number => (settings.normalize === 'meanStd' ? 0 : 1);
