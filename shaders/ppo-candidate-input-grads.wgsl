// The fused PPO update, kernel 5 of 7: the candidate tower's first layer, backwards.
//
//   dV1 = featᵀ · du1, dc1 = Σ du1                        into the gradient buffer
//
// One invocation per output value, summing over the K distinct candidate rows in order.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::ppo_batch::{params, weightOffsets, workOffsets};

@group(0) @binding(1) var<storage, read> features: array<f32>;
@group(0) @binding(2) var<storage, read> work: array<f32>;
@group(0) @binding(3) var<storage, read_write> grads: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let q = invocationIndex(id);
  let H = params.hiddenSize;
  let K = params.numRows;
  let F = params.actionDim;
  let w = weightOffsets();
  let o = workOffsets();
  if (q < F * H) {
    let f = q / H;
    let j = q % H;
    var sum = 0.0;
    for (var k = 0u; k < K; k++) {
      sum += features[k * F + f] * work[o.du1 + k * H + j];
    }
    grads[w.v1 + q] = sum;
  } else if (q < F * H + H) {
    let j = q - F * H;
    var sum = 0.0;
    for (var k = 0u; k < K; k++) {
      sum += work[o.du1 + k * H + j];
    }
    grads[w.c1 + j] = sum;
  }
}
