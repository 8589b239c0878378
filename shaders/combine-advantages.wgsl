// Kernel 3 of 3 of the advantage estimators: the per-step combination, docs/maths.md §4.
//
//   A_seg(i, t) = r_t − b_k         (perStepReturn: completed segments only, the tail gets 0;
//                                    stepMean: every step, tail included)
//   A(i, t)     = A_traj(i) + λ · A_seg(i, t)
//
// Released variant under meanStd (docs/maths.md §4, reference-code variant item 3): A_seg is also
// divided by its key's std + ε from `segmentScales`.
//
// One invocation per step. `advantages` is the buffer that becomes the loss's tfjs tensor.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};

struct Params {
  numSteps: u32,
  // 0: none (GRPO, A_seg = 0), 1: perStepReturn, 2: stepMean.
  segmentBaseline: u32,
  lambda: f32,
  // 1: divide A_seg by segmentScales[slot] (released variant, meanStd).
  segmentNormalize: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> stepRun: array<u32>;
@group(0) @binding(2) var<storage, read> stepSlot: array<u32>;
@group(0) @binding(3) var<storage, read> shapedRewards: array<f32>;
@group(0) @binding(4) var<storage, read> trajectoryAdvantages: array<f32>;
@group(0) @binding(5) var<storage, read> baselines: array<f32>;
@group(0) @binding(6) var<storage, read_write> segmentAdvantages: array<f32>;
@group(0) @binding(7) var<storage, read_write> advantages: array<f32>;
@group(0) @binding(8) var<storage, read> segmentScales: array<f32>;

const PER_STEP_RETURN: u32 = 1u;
const STEP_MEAN: u32 = 2u;
const COMPLETED: u32 = 0x80000000u;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let t = invocationIndex(id);
  if (t >= params.numSteps) {
    return;
  }
  let slot = stepSlot[t];
  let completed = (slot & COMPLETED) != 0u;
  var aSeg = 0.0;
  if (params.segmentBaseline == STEP_MEAN || (params.segmentBaseline == PER_STEP_RETURN && completed)) {
    aSeg = shapedRewards[t] - baselines[slot & ~COMPLETED];
    if (params.segmentNormalize != 0u) {
      aSeg = aSeg / segmentScales[slot & ~COMPLETED];
    }
  }
  segmentAdvantages[t] = aSeg;
  advantages[t] = trajectoryAdvantages[stepRun[t]] + params.lambda * aSeg;
}
