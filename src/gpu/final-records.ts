/**
 * Runner table of shaders/final-records.wgsl: after a GPU rollout, each run's final record in
 * FINAL_WORDS words (length, success, milestones reached, the task's milestones, the graded outcome's
 * float32 bits), gathered from the episode records whose layout is the environment's, so that the
 * read-back carries what the host checks and uses, not every word of every record; the run-major
 * batch's B + 1 step offsets, for the kernels that read the rollout's records into that batch; the
 * final records packed in one word a run (HOST_FINAL_BITS) for the host, with the graded outcomes
 * after them; and the recorded steps of the runs the host's check samples (src/trainer/log-prob-check.ts):
 * their log-probabilities, action words and state keys, so that only those come back.
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
/**
 * Where each final field lies in a run's packed word for the host: [lowest bit, width]. The widths
 * hold every environment's values: at most 1,024 steps (the longest horizon) and 8 milestones
 * (envs/episode-book.ts), so nothing is cut.
 */
export const HOST_FINAL_BITS = { steps: [0, 16], success: [16, 1], milestonesReached: [17, 7], numMilestones: [24, 8] } as const;
/** Words of the sample's record per sampled run and step: log-probability, action word, state key. */
export const SAMPLE_WORDS = 3;
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
  ]),
  storage: [
    ['episodes', 'read'],
    ['finals', 'read_write'],
    ['runOffsets', 'read_write'],
    ['logProbRecord', 'read'],
    ['actionRecord', 'read'],
    ['sampleSteps', 'read_write'],
    ['hostFinals', 'read_write'],
  ],
});

/** The sample whose steps the pass copies: the first `runs` of the permutation of the runs keyed by `key`, `maxSteps` slots each. */
export interface RunSample {
  runs: number;
  maxSteps: number;
  key: PermutationKey;
}

/**
 * Records the dispatch that writes B compact final records from `episodes` (W words per record,
 * `fields` where) into `finals` and packed into `hostFinals` (B words, then B outcomes' bits), the B + 1
 * run offsets into `runOffsets`, and the sampled runs' steps from the step-major `logProbRecord` and
 * `actionRecord` into `sampleSteps` (SAMPLE_WORDS blocks of sample.runs × sample.maxSteps words: the
 * log-probabilities, the action words, the state keys, run after run; slots past a run's end left as
 * they were). `runner`: made from FINAL_RECORDS with FINAL_SCAN_WIDTH invocations per workgroup.
 * The sample's key is read from `episodes`, after the reset records, where the rollout's host put its
 * draw key (shaders/lib/rollout.wgsl `seedKey`). With `seeds` > 1, every seed's in one dispatch: seed
 * s's records are runs s · B … of `episodes`, every other buffer holds the seeds' blocks in turn
 * (src/trainer/gpu-rollout-batch.ts).
 */
export function recordFinalRecords(
  pass: GPUComputePassEncoder,
  runner: KernelRunner<string, string>,
  numEpisodes: number,
  recordWords: number,
  fields: EpisodeRecordFields,
  sample: RunSample,
  buffers: {
    episodes: GPUBuffer;
    finals: GPUBuffer;
    runOffsets: GPUBuffer;
    logProbRecord: GPUBuffer;
    actionRecord: GPUBuffer;
    sampleSteps: GPUBuffer;
    hostFinals: GPUBuffer;
  },
  seeds = 1,
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
  };
  runner.record(pass, runner.prepare(buffers, params), seeds);
}

/** A run's final record, as the host uses it. */
export interface HostFinal {
  steps: number;
  success: number;
  milestonesReached: number;
  numMilestones: number;
}

/** One field of a run's packed word (HOST_FINAL_BITS); called per run of the batch, so it makes nothing. */
export function hostFinalField(word: number, field: keyof typeof HOST_FINAL_BITS): number {
  const [at, width] = HOST_FINAL_BITS[field];
  return (word >>> at) & ((1 << width) - 1);
}

/** Run b's fields from the packed words `hostFinals` reads back (HOST_FINAL_BITS). */
export function unpackHostFinal(word: number): HostFinal {
  return {
    steps: hostFinalField(word, 'steps'),
    success: hostFinalField(word, 'success'),
    milestonesReached: hostFinalField(word, 'milestonesReached'),
    numMilestones: hostFinalField(word, 'numMilestones'),
  };
}
