/**
 * Runner table of shaders/final-records.wgsl: after a GPU rollout, each run's final record in
 * FINAL_WORDS words (length, success, milestones reached, the task's milestones, the graded outcome's
 * float32 bits), gathered from the episode records whose layout is the environment's, so that the
 * read-back carries what the host checks and uses, not every word of every record; the run-major
 * batch's B + 1 step offsets, for the kernels that read the rollout's records into that batch; and the
 * recorded log-probabilities of the runs the host's check samples (src/trainer/log-prob-check.ts), so
 * that only those come back.
 */
import type { EpisodeRecordFields } from './gpu-envs.ts';
import { defineKernel, type KernelRunner } from './kernel.ts';
import type { PermutationKey } from './minibatch-permutation.ts';
import { uniformFields } from './uniforms.ts';

/** Words per run of the compact final records (FINAL_WORDS in the WGSL). */
export const FINAL_WORDS = 5;
/** Each word's meaning, in order. */
export const FINAL_FIELDS = ['steps', 'success', 'milestonesReached', 'numMilestones', 'outcome'] as const;
const NO_OUTCOME = 0xffffffff;
/** Invocations of the kernel's one workgroup (FINAL_SCAN_WIDTH in the WGSL): make its runner with this width. */
export const FINAL_SCAN_WIDTH = 64;

export const FINAL_RECORDS = defineKernel({
  name: 'final-records',
  params: uniformFields([
    ['numEpisodes', 'u32'],
    ['recordWords', 'u32'],
    ['steps', 'u32'],
    ['success', 'u32'],
    ['milestonesReached', 'u32'],
    ['numMilestones', 'u32'],
    ['outcome', 'u32'],
    ['maxSteps', 'u32'],
    ['sampleRuns', 'u32'],
    ['key0', 'u32'],
    ['key1', 'u32'],
  ]),
  storage: [
    ['episodes', 'read'],
    ['finals', 'read_write'],
    ['runOffsets', 'read_write'],
    ['logProbRecord', 'read'],
    ['sampleLogProbs', 'read_write'],
  ],
});

/** The sample whose log-probabilities the pass copies: the first `runs` of the permutation of the runs keyed by `key`, `maxSteps` slots each. */
export interface LogProbSample {
  runs: number;
  maxSteps: number;
  key: PermutationKey;
}

/**
 * Records the dispatch that writes B compact final records from `episodes` (W words per record,
 * `fields` where) into `finals`, the B + 1 run offsets into `runOffsets`, and the sampled runs'
 * log-probabilities from the step-major `logProbRecord` into `sampleLogProbs` (sample.runs ×
 * sample.maxSteps floats, run after run; slots past a run's end left as they were). `runner`: made
 * from FINAL_RECORDS with FINAL_SCAN_WIDTH invocations per workgroup.
 */
export function recordFinalRecords(
  pass: GPUComputePassEncoder,
  runner: KernelRunner<string, string>,
  numEpisodes: number,
  recordWords: number,
  fields: EpisodeRecordFields,
  sample: LogProbSample,
  buffers: { episodes: GPUBuffer; finals: GPUBuffer; runOffsets: GPUBuffer; logProbRecord: GPUBuffer; sampleLogProbs: GPUBuffer },
): void {
  const { steps, success, milestonesReached, numMilestones, outcome } = fields;
  const params = {
    numEpisodes,
    recordWords,
    steps,
    success,
    milestonesReached,
    numMilestones,
    outcome: outcome ?? NO_OUTCOME,
    maxSteps: sample.maxSteps,
    sampleRuns: sample.runs,
    key0: sample.key.key0,
    key1: sample.key.key1,
  };
  runner.record(pass, runner.prepare(buffers, params), 1);
}
