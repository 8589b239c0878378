// The fused PPO update, kernel 6 of 7, one workgroup: the global gradient norm ‖g‖ (by which Adam's
// step clips, docs/maths.md §4), the minibatch's statistics [policy loss, entropy, approx KL, clip
// fraction, ‖g‖] as the means over its rows, and Adam's bias corrections for this step (β^t advanced
// as tfjs's AdamOptimizer advances them). After the last minibatch, the update's statistics: the
// minibatches' mean, into `statsOut`. First, with candidate rows, the candidate tower's gradients:
// ppo-candidate-input-grads' partial sums added in tile order.

import package::lib::dispatch::{WORKGROUP_SIZE};
import package::lib::ppo_batch::{seedParams, Params, weightOffsets, workOffsets, candidatePartialFloats, candidatePartialsStart, ROW_TILE, STATE_ACC_BETA1, STATE_ACC_BETA2, STATE_CORRECTION1, STATE_CORRECTION2, STATE_GRAD_NORM, STATE_ROWS};

@group(0) @binding(1) var<storage, read_write> grads: array<f32>;
@group(0) @binding(2) var<storage, read> work: array<f32>;
@group(0) @binding(3) var<storage, read_write> state: array<f32>;
@group(0) @binding(4) var<storage, read_write> statsOut: array<f32>;
@group(0) @binding(5) var<storage, read> partials: array<f32>;

// Largest workgroup the tree sums hold (a power of two); the runner dispatches 256 invocations.
const MAX_WORKGROUP = 256u;

var<workgroup> squares: array<f32, MAX_WORKGROUP>;
var<workgroup> rowSums: array<vec4<f32>, MAX_WORKGROUP>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let params = seedParams[wg.z];
  if (params.batchSize == 0u) {
    return; // this seed has no minibatch in this slot (fewer steps than minibatches)
  }
  let tiles = (params.numRows + ROW_TILE - 1u) / ROW_TILE;
  let size = candidatePartialFloats(params);
  let v1 = weightOffsets(params).v1;
  for (var q = lid; q < size && tiles > 0u; q += WORKGROUP_SIZE) {
    var sum = 0.0;
    for (var t = 0u; t < tiles; t++) {
      sum += partials[params.partialBase + candidatePartialsStart(params) + t * size + q];
    }
    grads[v1 + q] = sum;
  }
  storageBarrier();
  workgroupBarrier();
  var square = 0.0;
  for (var p = lid; p < params.weightCount; p += WORKGROUP_SIZE) {
    let g = grads[params.weightBase + p];
    square += g * g;
  }
  let o = workOffsets(params);
  var rowSum = vec4<f32>(0.0);
  for (var i = lid; i < params.batchSize; i += WORKGROUP_SIZE) {
    let st = o.stats + i * 4u;
    rowSum += vec4<f32>(work[st], work[st + 1u], work[st + 2u], work[st + 3u]);
  }
  squares[lid] = square;
  rowSums[lid] = rowSum;
  workgroupBarrier();
  for (var width = WORKGROUP_SIZE / 2u; width > 0u; width = width / 2u) {
    if (lid < width) {
      squares[lid] += squares[lid + width];
      rowSums[lid] += rowSums[lid + width];
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    let norm = sqrt(squares[0]);
    state[params.stateBase + STATE_GRAD_NORM] = norm;
    state[params.stateBase + STATE_CORRECTION1] = 1.0 - state[params.stateBase + STATE_ACC_BETA1];
    state[params.stateBase + STATE_CORRECTION2] = 1.0 - state[params.stateBase + STATE_ACC_BETA2];
    state[params.stateBase + STATE_ACC_BETA1] = state[params.stateBase + STATE_ACC_BETA1] * params.beta1;
    state[params.stateBase + STATE_ACC_BETA2] = state[params.stateBase + STATE_ACC_BETA2] * params.beta2;
    let count = f32(params.batchSize);
    let means = rowSums[0] / count;
    let row = STATE_ROWS + params.statsRow * 5u;
    state[params.stateBase + row] = -means.x;
    state[params.stateBase + row + 1u] = means.y;
    state[params.stateBase + row + 2u] = means.z;
    state[params.stateBase + row + 3u] = means.w;
    state[params.stateBase + row + 4u] = norm;
    if (params.statsRow + 1u == params.statsRows) {
      for (var c = 0u; c < 5u; c++) {
        var total = 0.0;
        for (var m = 0u; m < params.statsRows; m++) {
          total += state[params.stateBase + STATE_ROWS + m * 5u + c];
        }
        statsOut[params.statsBase + c] = total / f32(params.statsRows);
      }
    }
  }
}
