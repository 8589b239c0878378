// The fused PPO update, kernel 1 of 7: both towers' forward passes for one minibatch
// (docs/maths.md §4; the policy of src/policy/policy.ts):
//
//   a1 = tanh(obs · W1 + b1), h = tanh(a1 · W2 + b2)          per minibatch row (its step from perm)
//   g1 = tanh(feat · V1 + c1), e = g1 · V2 + c2                per distinct candidate row
//
// One workgroup per row (M observation rows, then K candidate rows); its invocations stride over the
// hidden units, the first layer's outputs shared in workgroup memory. Each sum is formed as tfjs's
// fused matMul forms it: the products first, then the bias.
//
// In the update's first minibatch (`groupRows`), countBlocks more workgroups count the batch's
// (step, candidate) pairs of each distinct row per block of pairs (lib/ppo_batch.wgsl groupOffsets):
// integer atomics, so the counts are exact whatever the order.

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::ppo_batch::{params, weightOffsets, workOffsets, groupOffsets, MAX_HIDDEN};
import package::lib::acting::safeTanh;

@group(0) @binding(1) var<storage, read> weights: array<f32>;
@group(0) @binding(2) var<storage, read> obs: array<f32>;
@group(0) @binding(3) var<storage, read> features: array<f32>;
@group(0) @binding(4) var<storage, read> perm: array<u32>;
@group(0) @binding(5) var<storage, read_write> work: array<f32>;
@group(0) @binding(6) var<storage, read> rows: array<i32>;
@group(0) @binding(7) var<storage, read_write> groups: array<atomic<u32>>;

var<workgroup> first: array<f32, MAX_HIDDEN>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let row = workgroupIndex(wg, grid);
  let M = params.batchSize;
  let K = params.numRows;
  if (row >= M + K) {
    if (params.groupRows == 1u && row < M + K + params.countBlocks) {
      countPairs(row - M - K, lid);
    }
    return;
  }
  let H = params.hiddenSize;
  let w = weightOffsets();
  let o = workOffsets();
  let isObservation = row < M;
  var inputDim = params.actionDim;
  var input = (row - M) * params.actionDim;
  var layer1 = w.v1;
  var bias1 = w.c1;
  var layer2 = w.v2;
  var bias2 = w.c2;
  var out1 = o.g1 + (row - M) * H;
  var out2 = o.e + (row - M) * H;
  if (isObservation) {
    inputDim = params.obsDim;
    input = perm[params.permOffset + row] * params.obsDim;
    layer1 = w.w1;
    bias1 = w.b1;
    layer2 = w.w2;
    bias2 = w.b2;
    out1 = o.a1 + row * H;
    out2 = o.h + row * H;
  }
  for (var j = lid; j < H; j += WORKGROUP_SIZE) {
    var z = 0.0;
    for (var i = 0u; i < inputDim; i++) {
      var x: f32;
      if (isObservation) {
        x = obs[input + i];
      } else {
        x = features[input + i];
      }
      z += x * weights[layer1 + i * H + j];
    }
    let y = safeTanh(z + weights[bias1 + j]);
    first[j] = y;
    work[out1 + j] = y;
  }
  workgroupBarrier();
  for (var j = lid; j < H; j += WORKGROUP_SIZE) {
    var z = 0.0;
    for (var k = 0u; k < H; k++) {
      z += first[k] * weights[layer2 + k * H + j];
    }
    z = z + weights[bias2 + j];
    if (isObservation) {
      z = safeTanh(z);
    }
    work[out2 + j] = z;
  }
}

// Block b's pairs counted at their rows: counts[r · countBlocks + b] (ppo-step-loss scans them).
fn countPairs(b: u32, lid: u32) {
  let g = groupOffsets();
  let start = b * params.blockPairs;
  let end = min(start + params.blockPairs, params.numSteps * params.numActions);
  for (var p = start + lid; p < end; p += WORKGROUP_SIZE) {
    let r = rows[p];
    if (r >= 0) {
      atomicAdd(&groups[g.counts + u32(r) * params.countBlocks + b], 1u);
    }
  }
}
