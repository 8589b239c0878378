// The fused PPO update, kernel 5 of 7: the candidate tower backwards, a tile of ROW_TILE distinct
// candidate rows per workgroup (lib/ppo_batch.wgsl):
//
//   de_r = Σ of row r's pieces in chunk order (ppo-candidate-grads)          into the work buffer
//   du1_r = (de_r · V2ᵀ) · (1 − g1_r²)                                        the first layer's delta
//   the tile's sums over its rows of dV1 = featᵀ · du1, dc1 = Σ du1, dV2 = g1ᵀ · de, dc2 = Σ de
//
// The tile's partial gradients go to `partials` (V1, c1, V2, c2 in the flat layout's order); ppo-
// grad-norm adds the tiles in order. The invocations stride over the hidden units, then the outputs.

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::ppo_batch::{seedParams, Params, weightOffsets, workOffsets, groupOffsets, candidatePartialFloats, candidatePartialsStart, ROW_TILE};

@group(0) @binding(1) var<storage, read> features: array<f32>;
@group(0) @binding(2) var<storage, read> weights: array<f32>;
@group(0) @binding(3) var<storage, read_write> work: array<f32>;
@group(0) @binding(4) var<storage, read> pieces: array<f32>;
@group(0) @binding(5) var<storage, read> groups: array<u32>;
@group(0) @binding(6) var<storage, read_write> partials: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let params = seedParams[wg.z];
  if (params.batchSize == 0u) {
    return; // this seed has no minibatch in this slot (fewer steps than minibatches)
  }
  let tile = workgroupIndex(wg, grid);
  let K = params.numRows;
  let first = tile * ROW_TILE;
  if (first >= K) {
    return;
  }
  let last = min(first + ROW_TILE, K);
  let H = params.hiddenSize;
  let F = params.actionDim;
  let w = weightOffsets(params);
  let o = workOffsets(params);
  let g = groupOffsets(params);
  for (var r = first; r < last; r++) {
    let firstPiece = groups[g.pieceBase + r];
    let endPiece = groups[g.pieceBase + r + 1u];
    for (var j = lid; j < H; j += WORKGROUP_SIZE) {
      var sum = 0.0;
      for (var n = firstPiece; n < endPiece; n++) {
        sum += pieces[params.pieceBase + n * H + j];
      }
      work[o.de + r * H + j] = sum;
    }
  }
  storageBarrier();
  workgroupBarrier();
  for (var r = first; r < last; r++) {
    for (var i = lid; i < H; i += WORKGROUP_SIZE) {
      var sum = 0.0;
      for (var j = 0u; j < H; j++) {
        sum += work[o.de + r * H + j] * weights[w.v2 + i * H + j];
      }
      let y = work[o.g1 + r * H + i];
      work[o.du1 + r * H + i] = sum * (1.0 - y * y);
    }
  }
  storageBarrier();
  workgroupBarrier();
  let size = candidatePartialFloats(params);
  for (var q = lid; q < size; q += WORKGROUP_SIZE) {
    var sum = 0.0;
    if (q < F * H) {
      let f = q / H;
      let j = q % H;
      for (var r = first; r < last; r++) {
        sum += features[(params.rowBase + r) * F + f] * work[o.du1 + r * H + j];
      }
    } else if (q < F * H + H) {
      let j = q - F * H;
      for (var r = first; r < last; r++) {
        sum += work[o.du1 + r * H + j];
      }
    } else if (q < F * H + H + H * H) {
      let p = q - (F * H + H);
      let i = p / H;
      let j = p % H;
      for (var r = first; r < last; r++) {
        sum += work[o.g1 + r * H + i] * work[o.de + r * H + j];
      }
    } else {
      let j = q - (F * H + H + H * H);
      for (var r = first; r < last; r++) {
        sum += work[o.de + r * H + j];
      }
    }
    partials[params.partialBase + candidatePartialsStart(params) + tile * size + q] = sum;
  }
}
