// The fused PPO update's batch rows, gathered on the GPU from the whole-episode rollout's step-major
// records (shaders/lib/rollout.wgsl) instead of written by the host: for batch step s (run-major: run
// b's steps are runOffsets[b] … runOffsets[b + 1] − 1) at step t = s − runOffsets[b] of its run, the
// record slot is t · numEpisodes + b. One invocation per step; run b by binary search.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};

struct Params {
  numSteps: u32,
  numRuns: u32,
  obsDim: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> runOffsets: array<i32>;
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
  // The last run whose first step is at most s.
  var low = 0u;
  var high = params.numRuns;
  while (high - low > 1u) {
    let mid = (low + high) / 2u;
    if (u32(runOffsets[mid]) <= s) {
      low = mid;
    } else {
      high = mid;
    }
  }
  let b = low;
  let slot = (s - u32(runOffsets[b])) * params.numRuns + b;
  let D = params.obsDim;
  for (var i = 0u; i < D; i++) {
    obs[s * D + i] = obsRecord[slot * D + i];
  }
  actions[s] = actionRecord[slot];
  oldLogProbs[s] = logProbRecord[slot];
}
