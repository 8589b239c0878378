// The critic's V(s) for every step of a batch (docs/maths.md §8; src/policy/critic.ts is the
// reference), the values GAE starts from:
//
//   V = tanh(tanh(obs · W1 + b1) · W2 + b2) · w_v + c_v
//
// on the flat weights of src/gpu/fused-critic.ts (the head where the policy's V1 and c1 would be,
// actionDim 1). One workgroup per step; each sum as tfjs's fused matMul forms it, the products first,
// then the bias, and tanh as ppo-forward computes it.

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::ppo_batch::{seedParams, Params, weightOffsets, MAX_HIDDEN};
import package::lib::acting::safeTanh;

@group(0) @binding(1) var<storage, read> weights: array<f32>;
@group(0) @binding(2) var<storage, read> obs: array<f32>;
@group(0) @binding(3) var<storage, read_write> values: array<f32>;

var<workgroup> first: array<f32, MAX_HIDDEN>;
var<workgroup> second: array<f32, MAX_HIDDEN>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let params = seedParams[wg.z];
  let s = workgroupIndex(wg, grid);
  if (s >= params.numSteps) {
    return;
  }
  let H = params.hiddenSize;
  let D = params.obsDim;
  let w = weightOffsets(params);
  for (var j = lid; j < H; j += WORKGROUP_SIZE) {
    var z = 0.0;
    for (var i = 0u; i < D; i++) {
      z += obs[s * D + i] * weights[w.w1 + i * H + j];
    }
    first[j] = safeTanh(z + weights[w.b1 + j]);
  }
  workgroupBarrier();
  for (var j = lid; j < H; j += WORKGROUP_SIZE) {
    var z = 0.0;
    for (var k = 0u; k < H; k++) {
      z += first[k] * weights[w.w2 + k * H + j];
    }
    second[j] = safeTanh(z + weights[w.b2 + j]);
  }
  workgroupBarrier();
  if (lid == 0u) {
    var value = 0.0;
    for (var j = 0u; j < H; j++) {
      value += second[j] * weights[w.v1 + j];
    }
    values[s] = value + weights[w.c1];
  }
}
