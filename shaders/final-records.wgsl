// Each run's final record as the host reads it after a GPU rollout, gathered from its episode record
// (whose layout is the environment's, src/gpu/gpu-envs.ts): FINAL_WORDS words per run, the length,
// success, milestones reached, the task's milestones and the graded outcome's float32 bits (0 where the
// environment grades none), instead of every word of every record. One invocation per run.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};

struct Params {
  numEpisodes: u32,
  recordWords: u32,
  steps: u32,
  success: u32,
  milestonesReached: u32,
  numMilestones: u32,
  // The outcome's word in the record, or NO_OUTCOME.
  outcome: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> episodes: array<u32>;
@group(0) @binding(2) var<storage, read_write> finals: array<u32>;

const FINAL_WORDS = 5u; // src/gpu/final-records.ts FINAL_WORDS
const NO_OUTCOME = 0xffffffffu;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let b = invocationIndex(id);
  if (b >= params.numEpisodes) {
    return;
  }
  let e = b * params.recordWords;
  let f = b * FINAL_WORDS;
  finals[f] = episodes[e + params.steps];
  finals[f + 1u] = episodes[e + params.success];
  finals[f + 2u] = episodes[e + params.milestonesReached];
  finals[f + 3u] = episodes[e + params.numMilestones];
  finals[f + 4u] = select(episodes[e + params.outcome], 0u, params.outcome == NO_OUTCOME);
}
