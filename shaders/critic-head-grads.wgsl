// The fused critic update (docs/maths.md §8): the linear head's gradients, summed over the
// minibatch's rows in order, from g = ∂loss/∂V that critic-value-loss left in each row's statistics:
//
//   dw_v[j] = Σ_i g_i · h_ij,   dc_v = Σ_i g_i
//
// One invocation per output (H + 1); then one per output of the tower's gradients, adding the partial
// sums ppo-step-grads left per span of rows, in order (lib/ppo_batch.wgsl towerGradFloats).

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::ppo_batch::{seedParams, Params, weightOffsets, workOffsets, towerGradFloats, towerSpans};

@group(0) @binding(1) var<storage, read> work: array<f32>;
@group(0) @binding(2) var<storage, read_write> grads: array<f32>;
@group(0) @binding(3) var<storage, read> partials: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let params = seedParams[id.workgroupId.z];
  let q = invocationIndex(id);
  let M = params.batchSize;
  let H = params.hiddenSize;
  let w = weightOffsets(params);
  let o = workOffsets(params);
  if (q < H) {
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += work[o.stats + i * 4u + 1u] * work[o.h + i * H + q];
    }
    grads[w.v1 + q] = sum;
  } else if (q == H) {
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += work[o.stats + i * 4u + 1u];
    }
    grads[w.c1] = sum;
  } else if (q < H + 1u + towerGradFloats(params)) {
    let p = q - (H + 1u);
    let size = towerGradFloats(params);
    var sum = 0.0;
    for (var t = 0u; t < towerSpans(params); t++) {
      sum += partials[t * size + p];
    }
    grads[p] = sum;
  }
}
