// GiGPO kernel 3 of 3: the step term over step groups (anchor states) and the combination,
// docs/maths.md §7. One invocation per step group.
//
//   A_S(i, t) = (R_t − mean_sg R) / F_norm     over the step group sg of (i, t)
//   A(i, t)   = A_E(i) + ω · A_S(i, t)
//
// The CPU builds the step-group index once per batch (src/advantages/gigpo.ts, buildStepGroupIndex):
// step group s's steps are stepGroupMembers[stepGroupOffsets[s] … stepGroupOffsets[s + 1] − 1]. Every
// step belongs to exactly one step group, so this kernel writes every step's A_S and A. F_norm is
// std + ε (sample std, n − 1) for meanStd, 1 for mean. A step group of one step, and one whose returns
// are all equal, gets exactly 0 (explicit tie test; the mean is shifted by the first return).

import package::lib::compensated_sum::{CompensatedSum, compensatedAdd};
import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};

struct Params {
  numStepGroups: u32,
  // 0: meanStd, 1: mean.
  normalize: u32,
  omega: f32,
  epsilon: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> stepGroupOffsets: array<i32>;
@group(0) @binding(2) var<storage, read> stepGroupMembers: array<i32>;
@group(0) @binding(3) var<storage, read> stepRun: array<u32>;
@group(0) @binding(4) var<storage, read> stepReturns: array<f32>;
@group(0) @binding(5) var<storage, read> episodeAdvantages: array<f32>;
@group(0) @binding(6) var<storage, read_write> stepAdvantages: array<f32>;
@group(0) @binding(7) var<storage, read_write> advantages: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let sg = invocationIndex(id);
  if (sg >= params.numStepGroups) {
    return;
  }
  let memberStart = u32(stepGroupOffsets[sg]);
  let memberEnd = u32(stepGroupOffsets[sg + 1u]);
  let n = memberEnd - memberStart;

  // Shifted mean with Kahan compensation, in member order (the CPU's order).
  let r0 = stepReturns[stepGroupMembers[memberStart]];
  var sum = CompensatedSum(0.0, 0.0);
  var differs = false;
  for (var m = memberStart; m < memberEnd; m++) {
    let x = stepReturns[stepGroupMembers[m]];
    sum = compensatedAdd(sum, x - r0);
    differs = differs || x != r0;
  }
  let mean = r0 + sum.sum / f32(n);
  var scale = 1.0;
  if (params.normalize == 0u && differs) {
    // Step groups can hold thousands of steps: compensated here too, or f32 rounding of the sum
    // alone reaches ~1e-5 of the std.
    var squares = CompensatedSum(0.0, 0.0);
    for (var m = memberStart; m < memberEnd; m++) {
      let d = stepReturns[stepGroupMembers[m]] - mean;
      squares = compensatedAdd(squares, d * d);
    }
    scale = sqrt(squares.sum / f32(n - 1u)) + params.epsilon;
  }

  // A one-step group never differs from itself: A_S = 0, as are tied groups.
  for (var m = memberStart; m < memberEnd; m++) {
    let t = u32(stepGroupMembers[m]);
    let aS = select(0.0, (stepReturns[t] - mean) / scale, differs);
    stepAdvantages[t] = aS;
    advantages[t] = episodeAdvantages[stepRun[t]] + params.omega * aS;
  }
}
