/**
 * Runner table of shaders/final-records.wgsl: after a GPU rollout, each run's final record in
 * FINAL_WORDS words (length, success, milestones reached, the task's milestones, the graded outcome's
 * float32 bits), gathered from the episode records whose layout is the environment's, so that the
 * read-back carries what the host checks and uses, not every word of every record; and the run-major
 * batch's B + 1 step offsets, for the kernels that read the rollout's records into that batch.
 */
import type { EpisodeRecordFields } from './gpu-envs.ts';
import { defineKernel, type KernelRunner } from './kernel.ts';
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
  ]),
  storage: [
    ['episodes', 'read'],
    ['finals', 'read_write'],
    ['runOffsets', 'read_write'],
  ],
});

/**
 * Records the dispatch that writes B compact final records from `episodes` (W words per record,
 * `fields` where) into `finals`, and the B + 1 run offsets into `runOffsets`. `runner`: made from
 * FINAL_RECORDS with FINAL_SCAN_WIDTH invocations per workgroup.
 */
export function recordFinalRecords(
  pass: GPUComputePassEncoder,
  runner: KernelRunner<string, string>,
  numEpisodes: number,
  recordWords: number,
  fields: EpisodeRecordFields,
  buffers: { episodes: GPUBuffer; finals: GPUBuffer; runOffsets: GPUBuffer },
): void {
  const { steps, success, milestonesReached, numMilestones, outcome } = fields;
  const params = { numEpisodes, recordWords, steps, success, milestonesReached, numMilestones, outcome: outcome ?? NO_OUTCOME };
  runner.record(pass, runner.prepare(buffers, params), 1);
}
