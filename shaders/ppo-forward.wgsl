// The fused PPO update, kernel 1 of 7: both towers' forward passes for one minibatch
// (docs/maths.md §4; the policy of src/policy/policy.ts):
//
//   a1 = tanh(obs · W1 + b1), h = tanh(a1 · W2 + b2)          per minibatch row (its step from perm)
//   g1 = tanh(feat · V1 + c1), e = g1 · V2 + c2                per distinct candidate row
//
// A workgroup takes FORWARD_ROWS rows (the minibatch's observation rows in blocks, then the K
// candidate rows in blocks); its invocations stride over the hidden units, each accumulating one unit
// for all the block's rows, so every weight read from storage serves FORWARD_ROWS rows. The rows'
// inputs are staged in workgroup memory INPUT_TILE at a time; the second layer reads the first's
// outputs back from the work buffer. Each sum is formed as tfjs's fused matMul forms it: the products
// in input order first, then the bias.
//
// In the update's first minibatch (`groupRows`), countBlocks more workgroups count the batch's
// (step, candidate) pairs of each distinct row per block of pairs (lib/ppo_batch.wgsl groupOffsets):
// integer atomics, so the counts are exact whatever the order.

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::ppo_batch::{params, weightOffsets, workOffsets, groupOffsets, FORWARD_ROWS};
import package::lib::acting::safeTanh;

@group(0) @binding(1) var<storage, read> weights: array<f32>;
@group(0) @binding(2) var<storage, read> obs: array<f32>;
@group(0) @binding(3) var<storage, read> features: array<f32>;
@group(0) @binding(4) var<storage, read> perm: array<u32>;
@group(0) @binding(5) var<storage, read_write> work: array<f32>;
@group(0) @binding(6) var<storage, read> rows: array<i32>;
@group(0) @binding(7) var<storage, read_write> groups: array<atomic<u32>>;

// Inputs staged per pass over them: INPUT_TILE inputs × FORWARD_ROWS rows (2 KiB), the rows of an
// input in vectors of 4, so one load of workgroup memory feeds 4 rows' multiply-adds.
const INPUT_TILE = 64u;
const ROW_VECTORS = FORWARD_ROWS / 4u;
var<workgroup> tile: array<vec4<f32>, INPUT_TILE * ROW_VECTORS>;

// Where a layer reads its input rows: the observations (through the permutation), the candidate
// features, or the work buffer (the first layer's outputs).
const FROM_OBS = 0u;
const FROM_FEATURES = 1u;
const FROM_WORK = 2u;

struct Layer { source: u32, input: u32, inputDim: u32, weights: u32, bias: u32, out: u32, activate: bool }

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let rowBlock = workgroupIndex(wg, grid);
  let M = params.batchSize;
  let K = params.numRows;
  let observationBlocks = (M + FORWARD_ROWS - 1u) / FORWARD_ROWS;
  let candidateBlocks = (K + FORWARD_ROWS - 1u) / FORWARD_ROWS;
  if (rowBlock >= observationBlocks + candidateBlocks) {
    let b = rowBlock - observationBlocks - candidateBlocks;
    if (params.groupRows == 1u && b < params.countBlocks) {
      countPairs(b, lid);
    }
    return;
  }
  let H = params.hiddenSize;
  let w = weightOffsets();
  let o = workOffsets();
  if (rowBlock < observationBlocks) {
    let first = rowBlock * FORWARD_ROWS;
    let count = min(FORWARD_ROWS, M - first);
    denseLayer(Layer(FROM_OBS, first, params.obsDim, w.w1, w.b1, o.a1 + first * H, true), count, lid);
    storageBarrier();
    denseLayer(Layer(FROM_WORK, o.a1 + first * H, H, w.w2, w.b2, o.h + first * H, true), count, lid);
  } else {
    let first = (rowBlock - observationBlocks) * FORWARD_ROWS;
    let count = min(FORWARD_ROWS, K - first);
    denseLayer(Layer(FROM_FEATURES, first, params.actionDim, w.v1, w.c1, o.g1 + first * H, true), count, lid);
    storageBarrier();
    denseLayer(Layer(FROM_WORK, o.g1 + first * H, H, w.v2, w.c2, o.e + first * H, false), count, lid);
  }
}

// Input i of the rowBlock's row r (r < count).
fn inputAt(l: Layer, r: u32, i: u32) -> f32 {
  if (l.source == FROM_OBS) {
    return obs[perm[params.permOffset + l.input + r] * params.obsDim + i];
  }
  if (l.source == FROM_FEATURES) {
    return features[(l.input + r) * params.actionDim + i];
  }
  return work[l.input + r * params.hiddenSize + i];
}

// out[r, j] = act(Σ_i x[r, i] · W[i, j] + b[j]) for the rowBlock's `count` rows, the invocations striding
// over the units j; every invocation runs every loop's trips, so the barriers stay in uniform flow.
fn denseLayer(l: Layer, count: u32, lid: u32) {
  let H = params.hiddenSize;
  for (var j0 = 0u; j0 < H; j0 += WORKGROUP_SIZE) {
    let j = j0 + lid;
    var z: array<vec4<f32>, ROW_VECTORS>;
    for (var i0 = 0u; i0 < l.inputDim; i0 += INPUT_TILE) {
      workgroupBarrier();
      for (var e = lid; e < FORWARD_ROWS * INPUT_TILE; e += WORKGROUP_SIZE) {
        let r = e / INPUT_TILE;
        let i = i0 + e % INPUT_TILE;
        var x = 0.0;
        if (r < count && i < l.inputDim) {
          x = inputAt(l, r, i);
        }
        tile[(e % INPUT_TILE) * ROW_VECTORS + r / 4u][r % 4u] = x;
      }
      workgroupBarrier();
      if (j < H) {
        let inputs = min(INPUT_TILE, l.inputDim - i0);
        for (var ii = 0u; ii < inputs; ii++) {
          let weight = weights[l.weights + (i0 + ii) * H + j];
          for (var q = 0u; q < ROW_VECTORS; q++) {
            z[q] += tile[ii * ROW_VECTORS + q] * weight;
          }
        }
      }
    }
    if (j < H) {
      let bias = weights[l.bias + j];
      for (var r = 0u; r < count; r++) {
        var y = z[r / 4u][r % 4u] + bias;
        if (l.activate) {
          y = safeTanh(y);
        }
        work[l.out + r * H + j] = y;
      }
    }
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
