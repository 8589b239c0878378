/**
 * Runner table of shaders/final-records.wgsl: after a GPU rollout, each run's final record in
 * FINAL_WORDS words (length, success, milestones reached, the task's milestones, the graded outcome's
 * float32 bits), gathered from the episode records whose layout is the environment's, so that the
 * read-back carries what the host checks and uses, not every word of every record.
 */
import type { EpisodeRecordFields } from './gpu-envs.ts';
import { defineKernel, type KernelRunner } from './kernel.ts';
import { uniformFields } from './uniforms.ts';

/** Words per run of the compact final records (FINAL_WORDS in the WGSL). */
export const FINAL_WORDS = 5;
/** Each word's meaning, in order. */
export const FINAL_FIELDS = ['steps', 'success', 'milestonesReached', 'numMilestones', 'outcome'] as const;
const NO_OUTCOME = 0xffffffff;

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
  ],
});

/** Records the dispatch that writes B compact final records from `episodes` (W words per record, `fields` where) into `finals`. */
export function recordFinalRecords(
  pass: GPUComputePassEncoder,
  runner: KernelRunner<string, string>,
  workgroup: number,
  numEpisodes: number,
  recordWords: number,
  fields: EpisodeRecordFields,
  buffers: { episodes: GPUBuffer; finals: GPUBuffer },
): void {
  const { steps, success, milestonesReached, numMilestones, outcome } = fields;
  const params = { numEpisodes, recordWords, steps, success, milestonesReached, numMilestones, outcome: outcome ?? NO_OUTCOME };
  runner.record(pass, runner.prepare(buffers, params), Math.ceil(numEpisodes / workgroup));
}
