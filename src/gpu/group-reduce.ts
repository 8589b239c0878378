/**
 * Runner of shaders/group-reduce.wgsl (kernel 2 of 3): per-group trajectory statistics with the
 * exact-zero tie rule, and the per-(group, k) segment baselines, docs/maths.md §4. One workgroup per group.
 */
import type { AdvantageSettings, EstimatorSwitches } from '../advantages/types.ts';
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const GROUP_REDUCE = defineKernel({
  name: 'group-reduce',
  params: uniformFields([
    ['numGroups', 'u32'],
    ['normalize', 'u32'],
    ['trajectoryTerm', 'u32'],
    ['segmentBaseline', 'u32'],
    ['epsilon', 'f32'],
    ['rowWeighted', 'u32'],
    ['segmentNormalize', 'u32'],
  ]),
  storage: [
    ['groupOffsets', 'read'],
    ['runOffsets', 'read'],
    ['rewards', 'read'],
    ['runSegments', 'read'],
    ['segmentPartials', 'read'],
    ['trajectoryAdvantages', 'read_write'],
    ['baselines', 'read_write'],
    ['segmentScales', 'read_write'],
  ],
});

/**
 * The shaders' `segmentBaseline` code: 0 none (no segment term: GRPO), 1 perStepReturn, 2 stepMean. The
 * released variant's segment term is the stepMean baseline (docs/maths.md §4, reference-code variant item 2).
 */
export function segmentBaselineCode(settings: AdvantageSettings, switches: EstimatorSwitches): number {
  if (!switches.segmentTerm) return 0;
  if (settings.variant === 'released') return 2;
  return settings.segmentBaseline === 'perStepReturn' ? 1 : 2;
}

/** 1 when the trajectory statistics are taken over step rows (released variant), else 0. */
export const rowWeightedCode = (settings: { variant?: string }): number => (settings.variant === 'released' ? 1 : 0);

/** 1 when the segment term is divided by its key's std + ε (released variant under meanStd), else 0. */
export const segmentNormalizeCode = (settings: AdvantageSettings, switches: EstimatorSwitches): number =>
  settings.variant === 'released' && switches.segmentTerm && settings.normalize === 'meanStd' ? 1 : 0;

/** The shaders' `normalize` code: 0 meanStd, 1 mean. */
export const normalizeCode = (settings: { normalize: string }): number => (settings.normalize === 'meanStd' ? 0 : 1);
