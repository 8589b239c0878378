/**
 * Several seeds' advantages on the kernels, dual-scale (docs/maths.md §3–4) or GiGPO's (§7), in one
 * set of three dispatches and one submit: the seeds of one method, each with its own estimator, hand their batches to a meeting
 * (src/trainer/seed-meeting.ts), and `submitSeedAdvantages` runs the kernels once over the
 * seeds' batches laid side by side.
 *
 * Why this is each seed's own computation: every kernel is local to a run (segment-scan,
 * step-returns), a group (group-reduce), a step (combine-advantages) or a step group
 * (step-group-reduce, whose groups never reach across seeds: the CPU builds them per seed), and its
 * slots are indexed by the batch's own step and run offsets. Seed s's groups, runs and steps follow seed s − 1's, its offsets shifted by the
 * runs and steps before it (written from the host's copies, no dispatch; GiGPO's step groups and their
 * members likewise), so no group, run or slot
 * of one seed holds another's, and each group's sums run in the order they run alone: the seed's
 * values are bit for bit those it gets alone. Its flags and final rewards are copied in, its A,
 * A_traj, A_seg and r_t copied out into its own buffers, where its estimator reads them as before.
 */
import type { GigpoSettings, StepGroupIndex } from '../advantages/gigpo.ts';
import type { AdvantageSettings, EstimatorSwitches } from '../advantages/types.ts';
import { flushTfjsQueue } from '../backend/webgpu-interop.ts';
import {
  type DualScaleInputs,
  type DualScaleRunners,
  dualScaleDispatches,
  dualScaleScratch,
  gigpoDispatches,
  type GigpoRunners,
  gigpoScratch,
} from './advantage-dispatches.ts';
import type { GpuBufferPool } from './buffer-pool.ts';
import { submitDispatches } from './kernel.ts';
import { COPY_DST, COPY_SRC, STORAGE } from './buffer-usage.ts';

/** The host's copies of a batch's offsets (src/advantages/types.ts): the joined offsets are shifted from them. */
export interface HostOffsets {
  groupOffsets: ArrayLike<number>;
  runOffsets: ArrayLike<number>;
}

/** The four parts of a seed's result, each in a buffer of the seed's own (COPY_DST). */
export interface SeedAdvantageParts {
  advantages: GPUBuffer;
  trajectoryAdvantages: GPUBuffer;
  segmentAdvantages: GPUBuffer;
  shapedRewards: GPUBuffer;
}

/** What every seed's call holds: its batch's sizes and offsets, its final rewards, where its results go. */
interface SeedCallCommon {
  device: GPUDevice;
  workgroupSize: number;
  numGroups: number;
  numRuns: number;
  numSteps: number;
  host: HostOffsets;
  rewards: GPUBuffer;
  /** Its parts (GiGPO's A, A_E, A_S and R_t under BEACON's names, as its details hold them). */
  own: SeedAdvantageParts;
  /** Recorded after the copies out (a deferred read's copy). */
  after: (encoder: GPUCommandEncoder) => void;
}

/** A seed's dual-scale advantages (BEACON, GRPO and their variants). */
export interface DualScaleCall extends SeedCallCommon {
  kind: 'dualScale';
  runners: DualScaleRunners;
  /** Its flags: per step, or its GPU rollout's action record (`milestoneRecord`). */
  milestones: GPUBuffer;
  milestoneRecord: boolean;
  settings: AdvantageSettings;
  switches: EstimatorSwitches;
}

/** A seed's GiGPO advantages, over the step-group index its CPU built. */
export interface GigpoCall extends SeedCallCommon {
  kind: 'gigpo';
  runners: GigpoRunners;
  reduce: DualScaleRunners[1];
  index: StepGroupIndex;
  settings: GigpoSettings;
}

/** One seed's call: its batch, where its results go, and what its estimator adds to the submit. */
export type SeedAdvantageCall = DualScaleCall | GigpoCall;

/** Where a seed's estimator meets the others (the trainer's side makes it): armed only while its seeds step together. */
export interface AdvantageSeat {
  readonly armed: boolean;
  join(call: SeedAdvantageCall): Promise<void>;
  leave(): void;
}

/** The longest run of a seed, in steps: its action record holds that many rows of its runs. */
function longestRun(runOffsets: ArrayLike<number>, numRuns: number): number {
  let longest = 0;
  for (let i = 0; i < numRuns; i++) longest = Math.max(longest, runOffsets[i + 1] - runOffsets[i]);
  return longest;
}

/** Where each seed's runs and steps start in the joined batch, and its offsets shifted there. */
function joinOffsets(calls: readonly SeedAdvantageCall[]) {
  const runBase: number[] = [];
  const stepBase: number[] = [];
  let numGroups = 0;
  let numRuns = 0;
  let numSteps = 0;
  for (const c of calls) {
    runBase.push(numRuns);
    stepBase.push(numSteps);
    numGroups += c.numGroups;
    numRuns += c.numRuns;
    numSteps += c.numSteps;
  }
  const groupOffsets = new Int32Array(numGroups + 1);
  const runOffsets = new Int32Array(numRuns + 1);
  let g = 0;
  calls.forEach((c, s) => {
    for (let i = 0; i < c.numGroups; i++) groupOffsets[g++] = c.host.groupOffsets[i] + runBase[s];
    for (let i = 0; i < c.numRuns; i++) runOffsets[runBase[s] + i] = c.host.runOffsets[i] + stepBase[s];
  });
  groupOffsets[numGroups] = numRuns;
  runOffsets[numRuns] = numSteps;
  return { runBase, stepBase, numGroups, numRuns, numSteps, groupOffsets, runOffsets };
}

/** Every seed's parts copied out of the joined buffers into its own, then its own copies recorded. */
function copyOut(encoder: GPUCommandEncoder, calls: readonly SeedAdvantageCall[], joined: SeedAdvantageParts, runBase: number[], stepBase: number[]): void {
  calls.forEach((c, s) => {
    const out: [keyof SeedAdvantageParts, number, number][] = [
      ['advantages', stepBase[s], c.numSteps],
      ['segmentAdvantages', stepBase[s], c.numSteps],
      ['shapedRewards', stepBase[s], c.numSteps],
      ['trajectoryAdvantages', runBase[s], c.numRuns],
    ];
    for (const [part, at, count] of out) encoder.copyBufferToBuffer(joined[part], 4 * at, c.own[part], 0, 4 * count);
    c.after(encoder);
  });
}

/**
 * The calls' advantages, one seed after another in joined buffers from `pool`: three dispatches, the
 * copies in before them and out after them, one submit. The seeds must share their method, settings
 * and the flags' source (one method's seeds do); the promise rejects as `submitDispatches`'s does.
 */
export function submitSeedAdvantages(calls: readonly SeedAdvantageCall[], pool: GpuBufferPool): Promise<void> {
  const [first] = calls;
  const key = (c: SeedAdvantageCall) => JSON.stringify([c.kind, c.settings, c.kind === 'dualScale' ? [c.switches, c.milestoneRecord] : null, c.workgroupSize]);
  const odd = calls.find((c) => key(c) !== key(first));
  if (odd) throw new Error(`seed advantages: seeds batched together must share settings and flag source; got ${key(first)} and ${key(odd)}`);
  return first.kind === 'gigpo' ? submitGigpo(calls as readonly GigpoCall[], pool) : submitDualScale(calls as readonly DualScaleCall[], pool);
}

/** GiGPO's: each seed's step groups after the seed's before, their members shifted to its steps. */
function submitGigpo(calls: readonly GigpoCall[], pool: GpuBufferPool): Promise<void> {
  const [first] = calls;
  const { device } = first;
  const { runBase, stepBase, numGroups, numRuns, numSteps, groupOffsets, runOffsets } = joinOffsets(calls);
  const numStepGroups = calls.reduce((n, c) => n + c.index.numStepGroups, 0);
  const stepGroupOffsets = new Int32Array(numStepGroups + 1);
  const stepGroupMembers = new Int32Array(numSteps);
  let sg = 0;
  calls.forEach((c, s) => {
    for (let i = 0; i < c.index.numStepGroups; i++) stepGroupOffsets[sg++] = c.index.offsets[i] + stepBase[s];
    for (let m = 0; m < c.numSteps; m++) stepGroupMembers[stepBase[s] + m] = c.index.members[m] + stepBase[s];
  });
  stepGroupOffsets[numStepGroups] = numSteps;
  const input = STORAGE | COPY_DST;
  const upload = (name: string, data: Int32Array) => {
    const buffer = pool.scratchBuffer(name, data.byteLength, input);
    device.queue.writeBuffer(buffer, 0, data);
    return buffer;
  };
  const inputs = {
    groupOffsets: upload('groupOffsets', groupOffsets),
    runOffsets: upload('runOffsets', runOffsets),
    rewards: pool.scratchBuffer('rewards', 4 * numRuns, input),
    stepGroupOffsets: upload('stepGroupOffsets', stepGroupOffsets),
    stepGroupMembers: upload('stepGroupMembers', stepGroupMembers),
  };
  const scratch = (name: string, elements: number, bytes = 4) => pool.scratchBuffer(name, Math.max(4, elements * bytes), STORAGE | COPY_SRC);
  const buffers = { ...gigpoScratch(scratch, numRuns, numSteps), advantages: scratch('advantages', numSteps) };
  const dispatches = gigpoDispatches(first.runners, first.reduce, inputs, buffers, { numGroups, numRuns, numStepGroups }, first.settings, first.workgroupSize);
  const joined = {
    advantages: buffers.advantages,
    trajectoryAdvantages: buffers.episodeAdvantages,
    segmentAdvantages: buffers.stepAdvantages,
    shapedRewards: buffers.stepReturns,
  };
  flushTfjsQueue(); // what tfjs queued that writes a seed's inputs runs first
  return submitDispatches(
    device,
    'seed GiGPO advantages',
    dispatches,
    (encoder) => copyOut(encoder, calls, joined, runBase, stepBase),
    (encoder) => calls.forEach((c, s) => encoder.copyBufferToBuffer(c.rewards, 0, inputs.rewards, 4 * runBase[s], 4 * c.numRuns)),
  );
}

/** The dual-scale kernels' (BEACON, GRPO): the flags copied in per step, or each seed's action record in a block of its own. */
function submitDualScale(calls: readonly DualScaleCall[], pool: GpuBufferPool): Promise<void> {
  const [first] = calls;
  if (first.milestoneRecord && calls.some((c) => c.numRuns !== first.numRuns))
    throw new Error(`seed advantages: seeds reading their action records must have as many runs each (${calls.map((c) => c.numRuns).join(', ')})`);
  const { device } = first;
  const { runBase, stepBase, numGroups, numRuns, numSteps, groupOffsets, runOffsets } = joinOffsets(calls);
  // The action record's rows each seed's runs read: longest run × runs per seed words, laid seed after seed.
  const recordWords = first.milestoneRecord ? Math.max(...calls.map((c) => longestRun(c.host.runOffsets, c.numRuns) * c.numRuns)) : 0;

  const input = STORAGE | COPY_DST;
  const scratch = (name: string, elements: number, bytes = 4) => pool.scratchBuffer(name, Math.max(4, elements * bytes), STORAGE | COPY_SRC);
  const inputs: DualScaleInputs = {
    groupOffsets: pool.scratchBuffer('groupOffsets', groupOffsets.byteLength, input),
    runOffsets: pool.scratchBuffer('runOffsets', runOffsets.byteLength, input),
    milestones: pool.scratchBuffer('milestones', 4 * Math.max(1, first.milestoneRecord ? recordWords * calls.length : numSteps), input),
    rewards: pool.scratchBuffer('rewards', 4 * numRuns, input),
  };
  const buffers = { ...dualScaleScratch(scratch, numRuns, numSteps), advantages: scratch('advantages', numSteps) };
  device.queue.writeBuffer(inputs.groupOffsets, 0, groupOffsets);
  device.queue.writeBuffer(inputs.runOffsets, 0, runOffsets);
  const shape = {
    numGroups,
    numRuns,
    numSteps,
    milestoneRecord: first.milestoneRecord,
    runsPerSeed: first.milestoneRecord ? first.numRuns : numRuns,
    seedStride: recordWords,
  };
  const dispatches = dualScaleDispatches(first.runners, inputs, buffers, shape, first.settings, first.switches, first.workgroupSize);
  flushTfjsQueue(); // what tfjs queued that writes a seed's inputs runs first
  return submitDispatches(
    device,
    'seed advantages',
    dispatches,
    (encoder) => copyOut(encoder, calls, buffers, runBase, stepBase),
    (encoder) => {
      calls.forEach((c, s) => {
        const milestoneAt = c.milestoneRecord ? s * recordWords : stepBase[s];
        const milestoneWords = c.milestoneRecord ? longestRun(c.host.runOffsets, c.numRuns) * c.numRuns : c.numSteps;
        encoder.copyBufferToBuffer(c.milestones, 0, inputs.milestones, 4 * milestoneAt, 4 * milestoneWords);
        encoder.copyBufferToBuffer(c.rewards, 0, inputs.rewards, 4 * runBase[s], 4 * c.numRuns);
      });
    },
  );
}
