// The fused PPO update's batch rows, gathered on the GPU from the whole-episode rollout's step-major
// records (shaders/lib/rollout.wgsl) instead of written by the host: for batch step s (run-major: run
// b's steps are runOffsets[b] … runOffsets[b + 1] − 1) at step t = s − runOffsets[b] of its run, the
// record slot is t · numEpisodes + b. One invocation per step; run b by binary search.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::run_offsets::recordSlot;

struct Params {
  numSteps: u32,
  numRuns: u32,
  obsDim: u32,
}

@group(0) @binding(0) var<uniform> params: Params;

// The action record's bits below its milestone flag (lib/rollout.wgsl MILESTONE_FLAG).
const ACTION_BITS = 0xffff;
@group(0) @binding(2) var<storage, read> obsRecord: array<f32>;
@group(0) @binding(3) var<storage, read> actionRecord: array<i32>;
@group(0) @binding(4) var<storage, read> logProbRecord: array<f32>;
@group(0) @binding(5) var<storage, read_write> obs: array<f32>;
@group(0) @binding(6) var<storage, read_write> actions: array<i32>;
@group(0) @binding(7) var<storage, read_write> oldLogProbs: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let s = invocationIndex(id);
  if (s >= params.numSteps) {
    return;
  }
  let slot = recordSlot(s, params.numRuns);
  let D = params.obsDim;
  for (var i = 0u; i < D; i++) {
    obs[s * D + i] = obsRecord[slot * D + i];
  }
  actions[s] = actionRecord[slot] & ACTION_BITS;
  oldLogProbs[s] = logProbRecord[slot];
}
