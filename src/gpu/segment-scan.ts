/**
 * Runner of shaders/segment-scan.wgsl (kernel 1 of 3): per-run segmentation and reward shaping,
 * docs/maths.md §2–3. One invocation per run.
 */
import { defineKernel } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

export const SEGMENT_SCAN = defineKernel({
  name: 'segment-scan',
  params: uniformFields([
    ['numRuns', 'u32'],
    ['numGroups', 'u32'],
    ['shaping', 'u32'],
    ['rMs', 'f32'],
    ['gamma', 'f32'],
    /** 1: `milestones` is a GPU rollout's action record (advantage-tensors.ts `milestoneRecord`). */
    ['milestoneRecord', 'u32'],
    /** Runs of each seed batched side by side (src/gpu/seed-advantages.ts); numRuns for one seed. */
    ['runsPerSeed', 'u32'],
    /** Words from one seed's action record to the next's in `milestones`; 0 for one seed. */
    ['seedStride', 'u32'],
  ]),
  storage: [
    ['groupOffsets', 'read'],
    ['runOffsets', 'read'],
    ['milestones', 'read'],
    ['stepRun', 'read_write'],
    ['stepSlot', 'read_write'],
    ['shapedRewards', 'read_write'],
    ['runSegments', 'read_write'],
    ['segmentPartials', 'read_write'],
  ],
});

/**
 * Bytes per element of `segmentPartials`
 * (struct SegmentPartial { first: f32, shiftedSum: f32, count: u32, shiftedSquares: f32 }).
 */
export const SEGMENT_PARTIAL_BYTES = 16;

/** Workgroups for one invocation per run. */
export const segmentScanWorkgroups = (numRuns: number, workgroupSize: number): number => Math.ceil(numRuns / workgroupSize);
