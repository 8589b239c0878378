// The fused PPO update, kernel 3 of 7: the reductions over the minibatch's rows.
//
//   dW1 = obsᵀ · dz1, db1 = Σ dz1, dW2 = a1ᵀ · dz2, db2 = Σ dz2        into the gradient buffer
//   de  = dSᵀ · h                                                    the candidate embeddings' gradient
//
// One invocation per output value, summing over the M rows in order.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::ppo_batch::{params, weightOffsets, workOffsets};

@group(0) @binding(1) var<storage, read> obs: array<f32>;
@group(0) @binding(2) var<storage, read> perm: array<u32>;
@group(0) @binding(3) var<storage, read_write> work: array<f32>;
@group(0) @binding(4) var<storage, read_write> grads: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let q = invocationIndex(id);
  let M = params.batchSize;
  let H = params.hiddenSize;
  let D = params.obsDim;
  let w = weightOffsets();
  let o = workOffsets();
  if (q < D * H) {
    let r = q / H;
    let j = q % H;
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += obs[perm[params.permOffset + i] * D + r] * work[o.dz1 + i * H + j];
    }
    grads[w.w1 + q] = sum;
  } else if (q < D * H + H) {
    let j = q - D * H;
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += work[o.dz1 + i * H + j];
    }
    grads[w.b1 + j] = sum;
  } else if (q < D * H + H + H * H) {
    let p = q - (D * H + H);
    let r = p / H;
    let j = p % H;
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += work[o.a1 + i * H + r] * work[o.dz2 + i * H + j];
    }
    grads[w.w2 + p] = sum;
  } else if (q < D * H + 2u * H + H * H) {
    let j = q - (D * H + H + H * H);
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += work[o.dz2 + i * H + j];
    }
    grads[w.b2 + j] = sum;
  } else if (q < D * H + 2u * H + H * H + params.numRows * H) {
    let p = q - (D * H + 2u * H + H * H);
    let k = p / H;
    let j = p % H;
    let K = params.numRows;
    var sum = 0.0;
    for (var i = 0u; i < M; i++) {
      sum += work[o.dS + i * K + k] * work[o.h + i * H + j];
    }
    work[o.de + p] = sum;
  }
}
