// GiGPO kernel 1 of 3: discounted step returns, docs/maths.md §7. One invocation per run scans that
// run's steps backwards.
//
//   r_t = R_i at the run's last step, 0 elsewhere;   R_t = r_t + γ R_{t+1}   (= R_i γ^(T_i − 1 − t))
//
// One multiplication per step, as the CPU reference (src/advantages/gigpo.ts) does, so steps at the
// same distance from the end of runs with equal rewards get bit-identical returns (exact ties).
// Also writes the run of every step, which the step-group kernel needs to add A_E(i).

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};

struct Params {
  numRuns: u32,
  gamma: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> runOffsets: array<i32>;
@group(0) @binding(2) var<storage, read> rewards: array<f32>;
@group(0) @binding(3) var<storage, read_write> stepRun: array<u32>;
@group(0) @binding(4) var<storage, read_write> stepReturns: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let run = invocationIndex(id);
  if (run >= params.numRuns) {
    return;
  }
  let start = u32(runOffsets[run]);
  let end = u32(runOffsets[run + 1u]);
  var ret = rewards[run];
  var t = end;
  loop {
    t -= 1u;
    stepRun[t] = run;
    stepReturns[t] = ret;
    ret *= params.gamma;
    if (t == start) {
      break;
    }
  }
}
