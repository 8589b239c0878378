// Each run's final record as the host reads it after a GPU rollout, gathered from its episode record
// (whose layout is the environment's, src/gpu/gpu-envs.ts): FINAL_WORDS words per run, the length,
// success, milestones reached, the task's milestones and the graded outcome's float32 bits (0 where the
// environment grades none), instead of every word of every record. The same pass writes the run-major
// batch's step offsets from the lengths (an exclusive prefix sum, runOffsets[B] the batch's steps), for
// the kernels that read the rollout's records into that batch: the host writes none. The same records
// packed for the host, one word a run (HOST_FINAL_BITS in src/gpu/final-records.ts), then the graded
// outcomes' bits where the environment grades them: what the host reads of every run. And the sampled
// runs' steps (src/trainer/log-prob-check.ts: the first `sampleRuns` of the keyed permutation of the
// runs), maxSteps slots each, run after run: their recorded log-probabilities, then their action words
// (action and milestone flag), then the keys of the states they were taken in. The host replays and
// checks those runs instead of reading every step.
//
// One workgroup of FINAL_SCAN_WIDTH invocations, each over a contiguous chunk of runs; its chunk's
// steps are summed, the sums scanned by one invocation, then each chunk's offsets written. A seed batch
// (src/trainer/gpu-rollout-batch.ts) gathers every seed's in the same dispatch, a workgroup each: seed
// s's runs are records s · B … of `episodes`, and every other binding holds the seeds' blocks in turn,
// each laid out as one seed's alone. The sample's key is the rollout's draw key, which the rollout's
// host uploads after the reset records (lib/rollout.wgsl seedKey).

import package::lib::dispatch::WORKGROUP_SIZE;
import package::lib::permutation::permutedIndex;

struct Params {
  numEpisodes: u32,
  recordWords: u32,
  steps: u32,
  success: u32,
  milestonesReached: u32,
  numMilestones: u32,
  // The outcome's word in the record, or NO_OUTCOME.
  outcome: u32,
  maxSteps: u32,
  sampleRuns: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> episodes: array<u32>;
@group(0) @binding(2) var<storage, read_write> finals: array<u32>;
@group(0) @binding(3) var<storage, read_write> runOffsets: array<u32>;
// Step-major: run b's step t at t · numEpisodes + b (per seed).
@group(0) @binding(4) var<storage, read> logProbRecord: array<u32>;
// Step-major action words, then each step's state key maxSteps · numEpisodes words on (lib/rollout.wgsl).
@group(0) @binding(5) var<storage, read> actionRecord: array<u32>;
// 3 · sampleRuns · maxSteps words: the log-probabilities, the action words, the state keys.
@group(0) @binding(6) var<storage, read_write> sampleSteps: array<u32>;
// numEpisodes packed words, then numEpisodes outcomes' bits.
@group(0) @binding(7) var<storage, read_write> hostFinals: array<u32>;

const FINAL_WORDS = 5u; // src/gpu/final-records.ts FINAL_WORDS
const NO_OUTCOME = 0xffffffffu;
// The workgroup's width: src/gpu/final-records.ts FINAL_SCAN_WIDTH, which the runner is made with.
const FINAL_SCAN_WIDTH = 64u;

var<workgroup> chunkSteps: array<u32, FINAL_SCAN_WIDTH>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) workgroupId: vec3<u32>, @builtin(num_workgroups) numWorkgroups: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let B = params.numEpisodes;
  let seed = workgroupId.x;
  let seeds = numWorkgroups.x;
  let T = params.maxSteps;
  // The seed's first run, its first run offset, and its first step slot in the records.
  let r0 = seed * B;
  let o0 = seed * (B + 1u);
  let s0 = seed * T * B;
  let sample0 = seed * (arrayLength(&sampleSteps) / seeds);
  let keyAt = 2u * seeds * B * params.recordWords + seeds * B + 2u * seed;
  let chunk = (B + FINAL_SCAN_WIDTH - 1u) / FINAL_SCAN_WIDTH;
  let first = min(local * chunk, B);
  let end = min(first + chunk, B);
  var steps = 0u;
  for (var b = first; b < end; b++) {
    let e = (r0 + b) * params.recordWords;
    let f = (r0 + b) * FINAL_WORDS;
    finals[f] = episodes[e + params.steps];
    finals[f + 1u] = episodes[e + params.success];
    finals[f + 2u] = episodes[e + params.milestonesReached];
    finals[f + 3u] = episodes[e + params.numMilestones];
    finals[f + 4u] = select(episodes[e + params.outcome], 0u, params.outcome == NO_OUTCOME);
    // Bits as HOST_FINAL_BITS: length 0–15, success 16, milestones reached 17–23, the task's 24–31.
    hostFinals[2u * r0 + b] = finals[f] | (finals[f + 1u] << 16u) | (finals[f + 2u] << 17u) | (finals[f + 3u] << 24u);
    hostFinals[2u * r0 + B + b] = finals[f + 4u];
    steps += episodes[e + params.steps];
  }
  chunkSteps[local] = steps;
  workgroupBarrier();
  if (local == 0u) {
    var total = 0u;
    for (var i = 0u; i < FINAL_SCAN_WIDTH; i++) {
      let n = chunkSteps[i];
      chunkSteps[i] = total;
      total += n;
    }
    runOffsets[o0 + B] = total;
  }
  workgroupBarrier();
  var offset = chunkSteps[local];
  for (var b = first; b < end; b++) {
    runOffsets[o0 + b] = offset;
    offset += episodes[(r0 + b) * params.recordWords + params.steps];
  }
  let runsSlots = params.sampleRuns * T;
  for (var i = 0u; i < params.sampleRuns; i++) {
    let b = permutedIndex(i, B, vec2<u32>(episodes[keyAt], episodes[keyAt + 1u]), 0u);
    let steps = episodes[(r0 + b) * params.recordWords + params.steps];
    for (var t = local; t < steps; t += FINAL_SCAN_WIDTH) {
      sampleSteps[sample0 + i * T + t] = logProbRecord[s0 + t * B + b];
      sampleSteps[sample0 + runsSlots + i * T + t] = actionRecord[2u * s0 + t * B + b];
      sampleSteps[sample0 + 2u * runsSlots + i * T + t] = actionRecord[2u * s0 + (T + t) * B + b];
    }
  }
}
