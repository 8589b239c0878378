// The fused PPO update, kernel 1 of 7: both towers' forward passes for one minibatch
// (docs/maths.md §4; the policy of src/policy/policy.ts):
//
//   a1 = tanh(obs · W1 + b1), h = tanh(a1 · W2 + b2)          per minibatch row (its step from perm)
//   g1 = tanh(feat · V1 + c1), e = g1 · V2 + c2                per distinct candidate row
//
// A workgroup takes FORWARD_ROWS rows (the minibatch's observation rows in blocks, then the K
// candidate rows in blocks); each invocation accumulates 4 hidden units for 8 of the block's rows, so
// every weight read from storage serves 8 rows. The rows' inputs are staged in workgroup memory
// INPUT_TILE at a time; the second layer reads the first's outputs back from the work buffer. Each sum is formed as tfjs's fused matMul forms it: the products
// in input order first, then the bias.
//
// In the update's first minibatch (`groupRows`), countBlocks more workgroups count the batch's
// (step, candidate) pairs of each distinct row per block of pairs (lib/ppo_batch.wgsl groupOffsets):
// integer atomics, so the counts are exact whatever the order.

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::ppo_batch::{seedParams, Params, weightOffsets, workOffsets, groupOffsets, FORWARD_ROWS};
import package::lib::acting::safeTanh;

@group(0) @binding(1) var<storage, read> weights: array<f32>;
@group(0) @binding(2) var<storage, read> obs: array<f32>;
@group(0) @binding(3) var<storage, read> features: array<f32>;
@group(0) @binding(4) var<storage, read> perm: array<u32>;
@group(0) @binding(5) var<storage, read_write> work: array<f32>;
@group(0) @binding(6) var<storage, read> rows: array<i32>;
@group(0) @binding(7) var<storage, read_write> groups: array<atomic<u32>>;

// Inputs staged per pass over them: INPUT_TILE inputs × FORWARD_ROWS rows (4 KiB), the rows of an
// input in vectors of 4. Each invocation accumulates LANE_ROWS rows × LANE_UNITS hidden units: the
// workgroup's 64 invocations are FORWARD_ROWS / LANE_ROWS groups of rows × 16 groups of units, and per
// input an invocation loads 4 weights and 2 vectors of inputs for 32 multiply-adds.
const INPUT_TILE = 32u;
const ROW_VECTORS = FORWARD_ROWS / 4u;
const LANE_ROWS = 8u;
const LANE_UNITS = 4u;
const UNIT_GROUPS = 16u;
var<workgroup> tile: array<vec4<f32>, INPUT_TILE * ROW_VECTORS>;

// Where a layer reads its input rows: the observations (through the permutation), the candidate
// features, or the work buffer (the first layer's outputs).
const FROM_OBS = 0u;
const FROM_FEATURES = 1u;
const FROM_WORK = 2u;

struct Layer { source: u32, input: u32, inputDim: u32, weights: u32, bias: u32, out: u32, activate: bool }

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let params = seedParams[wg.z];
  if (params.batchSize == 0u) {
    return; // this seed has no minibatch in this slot (fewer steps than minibatches)
  }
  let rowBlock = workgroupIndex(wg, grid);
  let M = params.batchSize;
  let K = params.numRows;
  let observationBlocks = (M + FORWARD_ROWS - 1u) / FORWARD_ROWS;
  let candidateBlocks = (K + FORWARD_ROWS - 1u) / FORWARD_ROWS;
  if (rowBlock >= observationBlocks + candidateBlocks) {
    let b = rowBlock - observationBlocks - candidateBlocks;
    if (params.groupRows == 1u && b < params.countBlocks) {
      countPairs(params, b, lid);
    }
    return;
  }
  let H = params.hiddenSize;
  let w = weightOffsets(params);
  let o = workOffsets(params);
  if (rowBlock < observationBlocks) {
    let first = rowBlock * FORWARD_ROWS;
    let count = min(FORWARD_ROWS, M - first);
    denseLayer(params, Layer(FROM_OBS, first, params.obsDim, w.w1, w.b1, o.a1 + first * H, true), count, lid);
    storageBarrier();
    denseLayer(params, Layer(FROM_WORK, o.a1 + first * H, H, w.w2, w.b2, o.h + first * H, true), count, lid);
  } else {
    let first = (rowBlock - observationBlocks) * FORWARD_ROWS;
    let count = min(FORWARD_ROWS, K - first);
    denseLayer(params, Layer(FROM_FEATURES, first, params.actionDim, w.v1, w.c1, o.g1 + first * H, true), count, lid);
    storageBarrier();
    denseLayer(params, Layer(FROM_WORK, o.g1 + first * H, H, w.v2, w.c2, o.e + first * H, false), count, lid);
  }
}

// Input i of the rowBlock's row r (r < count).
fn inputAt(params: Params, l: Layer, r: u32, i: u32) -> f32 {
  if (l.source == FROM_OBS) {
    return obs[(params.stepBase + perm[params.permOffset + l.input + r]) * params.obsDim + i];
  }
  if (l.source == FROM_FEATURES) {
    return features[(params.rowBase + l.input + r) * params.actionDim + i];
  }
  return work[l.input + r * params.hiddenSize + i];
}

// out[r, j] = act(Σ_i x[r, i] · W[i, j] + b[j]) for the block's `count` rows, LANE_UNITS × UNIT_GROUPS
// units a pass; every invocation runs every loop's trips, so the barriers stay in uniform flow.
fn denseLayer(params: Params, l: Layer, count: u32, lid: u32) {
  let H = params.hiddenSize;
  let rowVector = (lid / UNIT_GROUPS) * (LANE_ROWS / 4u);
  for (var j0 = 0u; j0 < H; j0 += UNIT_GROUPS * LANE_UNITS) {
    let j = j0 + (lid % UNIT_GROUPS) * LANE_UNITS;
    // zUQ: unit j + U of the rows in the invocation's row vector Q.
    var z00 = vec4<f32>(0.0);
    var z01 = vec4<f32>(0.0);
    var z10 = vec4<f32>(0.0);
    var z11 = vec4<f32>(0.0);
    var z20 = vec4<f32>(0.0);
    var z21 = vec4<f32>(0.0);
    var z30 = vec4<f32>(0.0);
    var z31 = vec4<f32>(0.0);
    for (var i0 = 0u; i0 < l.inputDim; i0 += INPUT_TILE) {
      workgroupBarrier();
      for (var e = lid; e < FORWARD_ROWS * INPUT_TILE; e += WORKGROUP_SIZE) {
        let r = e / INPUT_TILE;
        let i = i0 + e % INPUT_TILE;
        var x = 0.0;
        if (r < count && i < l.inputDim) {
          x = inputAt(params, l, r, i);
        }
        tile[(e % INPUT_TILE) * ROW_VECTORS + r / 4u][r % 4u] = x;
      }
      workgroupBarrier();
      if (j < H) {
        let inputs = min(INPUT_TILE, l.inputDim - i0);
        for (var ii = 0u; ii < inputs; ii++) {
          // Units past H read the next input's weights: their sums are never written.
          let at = l.weights + (i0 + ii) * H + j;
          let w = vec4<f32>(weights[at], weights[at + 1u], weights[at + 2u], weights[at + 3u]);
          let x0 = tile[ii * ROW_VECTORS + rowVector];
          let x1 = tile[ii * ROW_VECTORS + rowVector + 1u];
          z00 += x0 * w.x;
          z01 += x1 * w.x;
          z10 += x0 * w.y;
          z11 += x1 * w.y;
          z20 += x0 * w.z;
          z21 += x1 * w.z;
          z30 += x0 * w.w;
          z31 += x1 * w.w;
        }
      }
    }
    var z = array<vec4<f32>, 8>(z00, z01, z10, z11, z20, z21, z30, z31);
    for (var u = 0u; u < LANE_UNITS; u++) {
      if (j + u < H) {
        let bias = weights[l.bias + j + u];
        for (var n = 0u; n < LANE_ROWS; n++) {
          let r = rowVector * 4u + n;
          if (r < count) {
            var y = z[u * 2u + n / 4u][n % 4u] + bias;
            if (l.activate) {
              y = safeTanh(y);
            }
            work[l.out + r * H + j + u] = y;
          }
        }
      }
    }
  }
}

// Block b's pairs counted at their rows: counts[r · countBlocks + b] (ppo-step-loss scans them).
fn countPairs(params: Params, b: u32, lid: u32) {
  let g = groupOffsets(params);
  let start = b * params.blockPairs;
  let end = min(start + params.blockPairs, params.numSteps * params.numActions);
  for (var p = start + lid; p < end; p += WORKGROUP_SIZE) {
    let r = rows[params.stepBase * params.numActions + p];
    if (r >= 0) {
      atomicAdd(&groups[g.counts + u32(r) * params.countBlocks + b], 1u);
    }
  }
}
