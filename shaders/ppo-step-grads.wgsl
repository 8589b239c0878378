// The fused PPO update, kernel 3 of 7: the observation tower's weight gradients, reduced in tiles
// over the minibatch's rows.
//
//   dW1 = obsᵀ · dz1, db1 = Σ dz1, dW2 = a1ᵀ · dz2, db2 = Σ dz2
//
// Each layer is one product [inputs + 1, M] · [M, H] (the bias's input is 1). A workgroup takes a
// span of spanRows rows × TILE_INPUTS inputs × WORKGROUP_SIZE outputs: it stages TILE_ROWS rows of
// both operands at a time in workgroup memory, in vectors of 4, and each invocation accumulates a
// block of 4 inputs × 4 output columns (two loads of workgroup memory feed 16 multiply-adds), then
// writes its span's partial sums (lib/ppo_batch.wgsl towerGradFloats); the next kernel
// (ppo-candidate-grads, critic-head-grads) adds the spans in order. Each sum runs over the span's
// rows in order, no float atomics: the same batch gives the same bits.
//
// In the update's first minibatch (`groupRows`), countBlocks more workgroups place the batch's
// (step, candidate) pairs in their rows' segments (lib/ppo_batch.wgsl groupOffsets): block b takes its
// pairs 64 at a time, in order; each row's first invocation among them advances the block's cursor
// for that row (ppo-step-loss left it where the block's pairs of the row start) by their count, and
// each pair goes to the cursor plus its rank among them. Only block b moves its cursors, one chunk
// after another, so every pair's place is the same on every run: by row, then by pair.

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::ppo_batch::{seedParams, Params, workOffsets, groupOffsets, towerGradFloats, towerSpans};

@group(0) @binding(1) var<storage, read> obs: array<f32>;
@group(0) @binding(2) var<storage, read> perm: array<u32>;
@group(0) @binding(3) var<storage, read> work: array<f32>;
@group(0) @binding(4) var<storage, read_write> partials: array<f32>;
@group(0) @binding(5) var<storage, read> rows: array<i32>;
@group(0) @binding(6) var<storage, read_write> groups: array<atomic<u32>>;

// Rows staged at a time, and inputs per workgroup (ppo-step-grads' tile; fused-ppo-kernels.ts).
const TILE_ROWS = 32u;
const TILE_INPUTS = 16u;
// The workgroup the arrays hold: the runner's (fused-ppo-kernels.ts WORKGROUP), 10 KiB in all. Its
// invocations are TILE_INPUTS / 4 groups of inputs × MAX_LANES / 4 groups of columns.
const MAX_LANES = 64u;
const INPUT_VECTORS = TILE_INPUTS / 4u;
const COLUMN_VECTORS = MAX_LANES / 4u;
// A staged row's inputs and deltas, in vectors of 4 consecutive inputs or columns.
var<workgroup> tileInputs: array<vec4<f32>, TILE_ROWS * INPUT_VECTORS>;
var<workgroup> tileDeltas: array<vec4<f32>, TILE_ROWS * COLUMN_VECTORS>;
var<workgroup> laneRow: array<i32, MAX_LANES>;
var<workgroup> laneCursor: array<u32, MAX_LANES>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let params = seedParams[wg.z];
  if (params.batchSize == 0u) {
    return; // this seed has no minibatch in this slot (fewer steps than minibatches)
  }
  let group = workgroupIndex(wg, grid);
  let H = params.hiddenSize;
  let columnBlocks = (H + MAX_LANES - 1u) / MAX_LANES;
  // ceil((D + 1) / TILE_INPUTS) blocks of the first layer's inputs with its bias, likewise the second's.
  let firstBlocks = (params.obsDim + TILE_INPUTS) / TILE_INPUTS;
  let secondBlocks = (H + TILE_INPUTS) / TILE_INPUTS;
  let perSpan = (firstBlocks + secondBlocks) * columnBlocks;
  let tiles = towerSpans(params) * perSpan;
  if (group >= tiles) {
    if (params.groupRows == 1u && group < tiles + params.countBlocks) {
      placePairs(params, group - tiles, lid);
    }
    return;
  }
  let spanIndex = group / perSpan;
  var inputBlock = group % perSpan;
  let columnStart = (inputBlock % columnBlocks) * MAX_LANES;
  inputBlock = inputBlock / columnBlocks;
  let isFirst = inputBlock < firstBlocks;
  var inputs = H;
  var firstInput = (inputBlock - firstBlocks) * TILE_INPUTS;
  var outputStart = (params.obsDim + 1u) * H;
  if (isFirst) {
    inputs = params.obsDim;
    firstInput = inputBlock * TILE_INPUTS;
    outputStart = 0u;
  }
  // This invocation's 4 inputs (inputGroup) and 4 columns (columnGroup).
  let inputGroup = lid / COLUMN_VECTORS;
  let columnGroup = lid % COLUMN_VECTORS;
  let o = workOffsets(params);
  let M = params.batchSize;
  let rowStart = spanIndex * params.spanRows;
  let rowEnd = min(rowStart + params.spanRows, M);
  // sums_c[f]: the gradient of input inputGroup · 4 + f and column columnGroup · 4 + c.
  var sums0 = vec4<f32>(0.0);
  var sums1 = vec4<f32>(0.0);
  var sums2 = vec4<f32>(0.0);
  var sums3 = vec4<f32>(0.0);
  for (var base = rowStart; base < rowEnd; base += TILE_ROWS) {
    // Stage TILE_ROWS rows: their inputs (1 for the bias, 0 past the rows), and their deltas.
    for (var e = lid; e < TILE_ROWS * TILE_INPUTS; e += WORKGROUP_SIZE) {
      let i = base + e / TILE_INPUTS;
      let f = firstInput + e % TILE_INPUTS;
      var x = 0.0;
      if (i < rowEnd && f == inputs) {
        x = 1.0;
      } else if (i < rowEnd && f < inputs) {
        if (isFirst) {
          x = obs[(params.stepBase + perm[params.permOffset + i]) * params.obsDim + f];
        } else {
          x = work[o.a1 + i * H + f];
        }
      }
      tileInputs[e / 4u][e % 4u] = x;
    }
    for (var e = lid; e < TILE_ROWS * MAX_LANES; e += WORKGROUP_SIZE) {
      let i = base + e / MAX_LANES;
      let column = columnStart + e % MAX_LANES;
      var d = 0.0;
      if (i < rowEnd && column < H) {
        if (isFirst) {
          d = work[o.dz1 + i * H + column];
        } else {
          d = work[o.dz2 + i * H + column];
        }
      }
      tileDeltas[e / 4u][e % 4u] = d;
    }
    workgroupBarrier();
    for (var r = 0u; r < TILE_ROWS; r++) {
      let x = tileInputs[r * INPUT_VECTORS + inputGroup];
      let d = tileDeltas[r * COLUMN_VECTORS + columnGroup];
      sums0 += x * d.x;
      sums1 += x * d.y;
      sums2 += x * d.z;
      sums3 += x * d.w;
    }
    workgroupBarrier();
  }
  let out = spanIndex * towerGradFloats(params) + outputStart;
  var sums = array<vec4<f32>, 4>(sums0, sums1, sums2, sums3);
  for (var c = 0u; c < 4u; c++) {
    let column = columnStart + columnGroup * 4u + c;
    for (var f = 0u; f < 4u; f++) {
      let input = firstInput + inputGroup * 4u + f;
      if (column < H && input <= inputs) {
        partials[params.partialBase + out + input * H + column] = sums[c][f];
      }
    }
  }
}

// Block b's admissible pairs into their rows' segments, in pair order.
fn placePairs(params: Params, b: u32, lid: u32) {
  let g = groupOffsets(params);
  let blocks = params.countBlocks;
  let start = b * params.blockPairs;
  let end = min(start + params.blockPairs, params.numSteps * params.numActions);
  for (var base = start; base < end; base += WORKGROUP_SIZE) {
    let p = base + lid;
    var r = -1;
    if (p < end) {
      r = rows[params.stepBase * params.numActions + p];
    }
    laneRow[lid] = r;
    workgroupBarrier();
    var rank = 0u;
    var count = 0u;
    var leader = lid;
    if (r >= 0) {
      for (var l = 0u; l < WORKGROUP_SIZE; l++) {
        if (laneRow[l] == r) {
          if (l < lid) {
            rank++;
            leader = min(leader, l);
          }
          count++;
        }
      }
      if (rank == 0u) {
        laneCursor[lid] = atomicAdd(&groups[g.counts + u32(r) * blocks + b], count);
      }
    }
    workgroupBarrier();
    if (r >= 0) {
      atomicStore(&groups[g.sorted + laneCursor[leader] + rank], p);
    }
    workgroupBarrier();
  }
}
