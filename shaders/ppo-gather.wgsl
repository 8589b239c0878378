// The fused PPO update's batch rows, gathered on the GPU from the whole-episode rollout's step-major
// records (shaders/lib/rollout.wgsl) instead of written by the host: for batch step s (run-major: run
// b's steps are runOffsets[b] … runOffsets[b + 1] − 1) at step t = s − runOffsets[b] of its run, the
// record slot is t · numEpisodes + b. One invocation per step; run b by binary search.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex, KERNEL_SEEDS};
import package::lib::run_offsets::recordSlot;

// One per seed (lib/dispatch.wgsl KERNEL_SEEDS; one seed alone: every base 0): the seed's offsets
// start at offsetBase in runOffsets, its record slots at slotBase, its rows at stepBase.
struct Params {
  numSteps: u32,
  numRuns: u32,
  obsDim: u32,
  offsetBase: u32,
  slotBase: u32,
  @size(12) stepBase: u32,
}

@group(0) @binding(0) var<uniform> seedParams: array<Params, KERNEL_SEEDS>;

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
  let params = seedParams[id.workgroupId.z];
  let s = invocationIndex(id);
  if (s >= params.numSteps) {
    return;
  }
  let slot = params.slotBase + recordSlot(s, params.numRuns, params.offsetBase);
  let D = params.obsDim;
  let row = params.stepBase + s;
  for (var i = 0u; i < D; i++) {
    obs[row * D + i] = obsRecord[slot * D + i];
  }
  actions[row] = actionRecord[slot] & ACTION_BITS;
  oldLogProbs[row] = logProbRecord[slot];
}
