// The advantages' milestone flags (Φ, docs/maths.md §2), gathered on the GPU from the whole-episode
// rollout's step-major action records (their MILESTONE_FLAG bit, lib/rollout.wgsl) into the run-major
// batch, instead of written by the host. One invocation per batch step.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::run_offsets::recordSlot;

struct Params {
  numSteps: u32,
  numRuns: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(2) var<storage, read> actionRecord: array<i32>;
@group(0) @binding(3) var<storage, read_write> milestones: array<i32>;

// The action record's milestone bit (lib/rollout.wgsl MILESTONE_FLAG).
const MILESTONE_BIT = 16u;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let s = invocationIndex(id);
  if (s >= params.numSteps) {
    return;
  }
  milestones[s] = (actionRecord[recordSlot(s, params.numRuns)] >> MILESTONE_BIT) & 1;
}
