// The fused PPO update, kernel 4 of 7: the candidate tower's second layer, backwards.
//
//   dV2 = g1ᵀ · de, dc2 = Σ de                            into the gradient buffer
//   du1 = (de · V2ᵀ) · (1 − g1²)                          the first layer's pre-activation gradient
//
// One invocation per output value, summing over the K distinct candidate rows in order.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::ppo_batch::{params, weightOffsets, workOffsets};

@group(0) @binding(1) var<storage, read> weights: array<f32>;
@group(0) @binding(2) var<storage, read_write> work: array<f32>;
@group(0) @binding(3) var<storage, read_write> grads: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let q = invocationIndex(id);
  let H = params.hiddenSize;
  let K = params.numRows;
  let w = weightOffsets();
  let o = workOffsets();
  if (q < H * H) {
    let r = q / H;
    let j = q % H;
    var sum = 0.0;
    for (var k = 0u; k < K; k++) {
      sum += work[o.g1 + k * H + r] * work[o.de + k * H + j];
    }
    grads[w.v2 + q] = sum;
  } else if (q < H * H + H) {
    let j = q - H * H;
    var sum = 0.0;
    for (var k = 0u; k < K; k++) {
      sum += work[o.de + k * H + j];
    }
    grads[w.c2 + j] = sum;
  } else if (q < H * H + H + K * H) {
    let p = q - (H * H + H);
    let k = p / H;
    let r = p % H;
    var sum = 0.0;
    for (var j = 0u; j < H; j++) {
      sum += work[o.de + k * H + j] * weights[w.v2 + r * H + j];
    }
    let y = work[o.g1 + k * H + r];
    work[o.du1 + p] = sum * (1.0 - y * y);
  }
}
