// The fused critic update (docs/maths.md §8), per minibatch row, after ppo-forward has left the
// observation tower's a1 and h for the row (the critic's tower has the policy's observation tower's
// shape, so the flat weights share its offsets; the linear head w_v [H] and bias c_v sit where the
// policy's V1 and c1 would, with actionDim 1: src/gpu/fused-critic.ts):
//
//   V = h · w_v + c_v,   valueLoss = valueCoef · mean((V − R̂)²)
//
// and its gradient back through the tower, as tfjs's autodiff forms it (src/trainer/critic-update.ts
// is the reference): g = ∂loss/∂V = (valueCoef / M) · 2 (V − R̂), dh = g · w_v, dz2 = dh · (1 − h²),
// dz1 = (dz2 · W2ᵀ) · (1 − a1²). One workgroup per row. The row's statistics: [−valueCoef (V − R̂)², g,
// 0, 0]; ppo-grad-norm reports the negated mean of the first column as the loss, and critic-head-grads
// sums g from the second.

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::tower_backward::{weights, work, dz, firstLayerDeltas};
import package::lib::ppo_batch::{seedParams, Params, weightOffsets, workOffsets};

@group(0) @binding(3) var<storage, read> returns: array<f32>;
@group(0) @binding(4) var<storage, read> perm: array<u32>;

var<workgroup> gradient: f32;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let params = seedParams[wg.z];
  let i = workgroupIndex(wg, grid);
  let M = params.batchSize;
  if (i >= M) {
    return;
  }
  let H = params.hiddenSize;
  let o = workOffsets(params);
  let w = weightOffsets(params);
  if (lid == 0u) {
    // The head as tfjs's fused matMul forms it: the products first, then the bias.
    var value = 0.0;
    for (var j = 0u; j < H; j++) {
      value += work[o.h + i * H + j] * weights[w.v1 + j];
    }
    value = value + weights[w.c1];
    let residual = value - returns[perm[params.permOffset + i]];
    let g = (params.valueCoef / f32(M)) * (2.0 * residual);
    gradient = g;
    let st = o.stats + i * 4u;
    work[st] = -(params.valueCoef * (residual * residual));
    work[st + 1u] = g;
    work[st + 2u] = 0.0;
    work[st + 3u] = 0.0;
  }
  workgroupBarrier();
  let g = gradient;
  for (var j = lid; j < H; j += WORKGROUP_SIZE) {
    let y = work[o.h + i * H + j];
    let d = (g * weights[w.v1 + j]) * (1.0 - y * y);
    dz[j] = d;
    work[o.dz2 + i * H + j] = d;
  }
  workgroupBarrier();
  // dz1 = (dz2 · W2ᵀ) · (1 − a1²), from dz (lib/tower_backward.wgsl).
  firstLayerDeltas(params, i, lid);
}
