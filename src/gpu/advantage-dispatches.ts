/**
 * The three dispatches of the dual-scale advantages (docs/maths.md §3–4) and GiGPO's three (§7)
 * (advantage-estimator.ts says what each kernel does), recorded for one batch's buffers: a seed's alone, or several seeds' joined
 * side by side (seed-advantages.ts). The same records either way, so a seed's numbers do not depend on
 * whether it ran alone.
 */
import type { GigpoSettings } from '../advantages/gigpo.ts';
import { STD_EPSILON, type AdvantageSettings, type EstimatorSwitches } from '../advantages/types.ts';
import { COMBINE_ADVANTAGES, combineWorkgroups } from './combine-advantages.ts';
import { GROUP_REDUCE, normalizeCode, rowWeightedCode, segmentBaselineCode, segmentNormalizeCode } from './group-reduce.ts';
import { KernelRunner, type RecordedDispatch } from './kernel.ts';
import { SEGMENT_PARTIAL_BYTES, SEGMENT_SCAN, segmentScanWorkgroups } from './segment-scan.ts';
import type { ShaderSources } from './shader-source.ts';
import { STEP_GROUP_REDUCE, stepGroupWorkgroups } from './step-group-reduce.ts';
import { STEP_RETURNS, stepReturnsWorkgroups } from './step-returns.ts';

export function createDualScaleRunners(device: GPUDevice, shaders: ShaderSources, workgroupSize: number) {
  return Promise.all([
    KernelRunner.create(device, SEGMENT_SCAN, shaders['segment-scan'], workgroupSize),
    KernelRunner.create(device, GROUP_REDUCE, shaders['group-reduce'], workgroupSize),
    KernelRunner.create(device, COMBINE_ADVANTAGES, shaders['combine-advantages'], workgroupSize),
  ]);
}
export type DualScaleRunners = Awaited<ReturnType<typeof createDualScaleRunners>>;

/** The batch's inputs on the GPU (advantage-tensors.ts). */
export interface DualScaleInputs {
  groupOffsets: GPUBuffer;
  runOffsets: GPUBuffer;
  milestones: GPUBuffer;
  rewards: GPUBuffer;
}

/** The kernels' intermediates and output, in slots indexed by steps and runs (advantage-estimator.ts). */
export interface DualScaleScratch {
  stepRun: GPUBuffer;
  stepSlot: GPUBuffer;
  shapedRewards: GPUBuffer;
  runSegments: GPUBuffer;
  segmentPartials: GPUBuffer;
  trajectoryAdvantages: GPUBuffer;
  baselines: GPUBuffer;
  segmentScales: GPUBuffer;
  segmentAdvantages: GPUBuffer;
  advantages: GPUBuffer;
}

/** The batch's sizes and where its milestone flags lie. */
export interface DualScaleShape {
  numGroups: number;
  numRuns: number;
  numSteps: number;
  /** The flags read from GPU rollouts' action records (advantage-tensors.ts `milestoneRecord`). */
  milestoneRecord: boolean;
  /** Runs of each seed, whose action record starts `seedStride` words after the seed's before it; one seed: numRuns and 0. */
  runsPerSeed: number;
  seedStride: number;
}

/** The intermediates (`advantages` aside) from `scratch(name, elements, bytes per element)`. */
export function dualScaleScratch(
  scratch: (name: string, elements: number, bytes?: number) => GPUBuffer,
  numRuns: number,
  numSteps: number,
): Omit<DualScaleScratch, 'advantages'> {
  return {
    stepRun: scratch('stepRun', numSteps),
    stepSlot: scratch('stepSlot', numSteps),
    shapedRewards: scratch('shapedRewards', numSteps),
    runSegments: scratch('runSegments', numRuns),
    segmentPartials: scratch('segmentPartials', numSteps, SEGMENT_PARTIAL_BYTES),
    trajectoryAdvantages: scratch('trajectoryAdvantages', numRuns),
    baselines: scratch('baselines', numSteps),
    segmentScales: scratch('segmentScales', numSteps),
    segmentAdvantages: scratch('segmentAdvantages', numSteps),
  };
}

/** segment-scan, group-reduce, combine-advantages over the batch `shape` in `inputs` and `s`. */
export function dualScaleDispatches(
  [scan, reduce, combine]: DualScaleRunners,
  inputs: DualScaleInputs,
  s: DualScaleScratch,
  shape: DualScaleShape,
  settings: AdvantageSettings,
  switches: EstimatorSwitches,
  workgroupSize: number,
): RecordedDispatch[] {
  const { groupOffsets, runOffsets, milestones, rewards } = inputs;
  const { numGroups, numRuns, numSteps } = shape;
  const baseline = segmentBaselineCode(settings, switches);
  return [
    {
      runner: scan,
      buffers: {
        groupOffsets,
        runOffsets,
        milestones,
        stepRun: s.stepRun,
        stepSlot: s.stepSlot,
        shapedRewards: s.shapedRewards,
        runSegments: s.runSegments,
        segmentPartials: s.segmentPartials,
      },
      params: {
        numRuns,
        numGroups,
        shaping: baseline === 0 ? 0 : 1,
        rMs: settings.rMs,
        gamma: settings.gamma,
        milestoneRecord: shape.milestoneRecord ? 1 : 0,
        runsPerSeed: shape.runsPerSeed,
        seedStride: shape.seedStride,
      },
      workgroups: segmentScanWorkgroups(numRuns, workgroupSize),
    },
    {
      runner: reduce,
      buffers: {
        groupOffsets,
        runOffsets,
        rewards,
        runSegments: s.runSegments,
        segmentPartials: s.segmentPartials,
        trajectoryAdvantages: s.trajectoryAdvantages,
        baselines: s.baselines,
        segmentScales: s.segmentScales,
      },
      params: {
        numGroups,
        normalize: normalizeCode(settings),
        trajectoryTerm: settings.trajectoryTerm ? 1 : 0,
        segmentBaseline: baseline,
        epsilon: STD_EPSILON,
        rowWeighted: rowWeightedCode(settings),
        segmentNormalize: segmentNormalizeCode(settings, switches),
      },
      workgroups: numGroups,
    },
    {
      runner: combine,
      buffers: {
        stepRun: s.stepRun,
        stepSlot: s.stepSlot,
        shapedRewards: s.shapedRewards,
        trajectoryAdvantages: s.trajectoryAdvantages,
        baselines: s.baselines,
        segmentAdvantages: s.segmentAdvantages,
        advantages: s.advantages,
        segmentScales: s.segmentScales,
      },
      params: { numSteps, segmentBaseline: baseline, lambda: settings.lambda, segmentNormalize: segmentNormalizeCode(settings, switches) },
      workgroups: combineWorkgroups(numSteps, workgroupSize),
    },
  ];
}

export function createGigpoRunners(device: GPUDevice, shaders: ShaderSources, workgroupSize: number) {
  return Promise.all([
    KernelRunner.create(device, STEP_RETURNS, shaders['step-returns'], workgroupSize),
    KernelRunner.create(device, STEP_GROUP_REDUCE, shaders['step-group-reduce'], workgroupSize),
  ]);
}
export type GigpoRunners = Awaited<ReturnType<typeof createGigpoRunners>>;

/** GiGPO's inputs on the GPU: the batch's, and the step-group index the CPU built (src/advantages/gigpo.ts). */
export interface GigpoInputs {
  groupOffsets: GPUBuffer;
  runOffsets: GPUBuffer;
  rewards: GPUBuffer;
  stepGroupOffsets: GPUBuffer;
  stepGroupMembers: GPUBuffer;
}

/** GiGPO's four parts (A, A_E, A_S, R_t), then group-reduce's bindings it does not use. */
export interface GigpoScratch {
  advantages: GPUBuffer;
  episodeAdvantages: GPUBuffer;
  stepAdvantages: GPUBuffer;
  stepReturns: GPUBuffer;
  stepRun: GPUBuffer;
  runSegments: GPUBuffer;
  segmentPartials: GPUBuffer;
  baselines: GPUBuffer;
  segmentScales: GPUBuffer;
}

/** GiGPO's intermediates (`advantages` aside) from `scratch(name, elements, bytes per element)`. */
export function gigpoScratch(
  scratch: (name: string, elements: number, bytes?: number) => GPUBuffer,
  numRuns: number,
  numSteps: number,
): Omit<GigpoScratch, 'advantages'> {
  return {
    stepRun: scratch('stepRun', numSteps),
    stepReturns: scratch('stepReturns', numSteps),
    episodeAdvantages: scratch('trajectoryAdvantages', numRuns),
    stepAdvantages: scratch('segmentAdvantages', numSteps),
    // Bound but unused by group-reduce without a segment baseline.
    runSegments: scratch('runSegments', numRuns),
    segmentPartials: scratch('segmentPartials', numSteps, SEGMENT_PARTIAL_BYTES),
    baselines: scratch('baselines', numSteps),
    segmentScales: scratch('segmentScales', numSteps),
  };
}

/** step-returns, group-reduce (the episode term alone), step-group-reduce: GiGPO's three dispatches (docs/maths.md §7). */
export function gigpoDispatches(
  [returnsKernel, stepGroups]: GigpoRunners,
  reduce: DualScaleRunners[1],
  inputs: GigpoInputs,
  s: GigpoScratch,
  shape: { numGroups: number; numRuns: number; numStepGroups: number },
  settings: GigpoSettings,
  workgroupSize: number,
): RecordedDispatch[] {
  const { groupOffsets, runOffsets, rewards } = inputs;
  return [
    {
      runner: returnsKernel,
      buffers: { runOffsets, rewards, stepRun: s.stepRun, stepReturns: s.stepReturns },
      params: { numRuns: shape.numRuns, gamma: settings.gamma },
      workgroups: stepReturnsWorkgroups(shape.numRuns, workgroupSize),
    },
    {
      runner: reduce,
      buffers: {
        groupOffsets,
        runOffsets,
        rewards,
        runSegments: s.runSegments,
        segmentPartials: s.segmentPartials,
        trajectoryAdvantages: s.episodeAdvantages,
        baselines: s.baselines,
        segmentScales: s.segmentScales,
      },
      params: {
        numGroups: shape.numGroups,
        normalize: normalizeCode(settings),
        trajectoryTerm: 1,
        segmentBaseline: 0,
        epsilon: STD_EPSILON,
        rowWeighted: rowWeightedCode(settings),
        segmentNormalize: 0,
      },
      workgroups: shape.numGroups,
    },
    {
      runner: stepGroups,
      buffers: {
        stepGroupOffsets: inputs.stepGroupOffsets,
        stepGroupMembers: inputs.stepGroupMembers,
        stepRun: s.stepRun,
        stepReturns: s.stepReturns,
        episodeAdvantages: s.episodeAdvantages,
        stepAdvantages: s.stepAdvantages,
        advantages: s.advantages,
      },
      params: { numStepGroups: shape.numStepGroups, normalize: normalizeCode(settings), omega: settings.omega, epsilon: STD_EPSILON },
      workgroups: stepGroupWorkgroups(shape.numStepGroups, workgroupSize),
    },
  ];
}
