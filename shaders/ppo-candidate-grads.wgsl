// The fused PPO update, kernel 4 of 7: the candidate embeddings' gradient as a segmented sum over
// the pairs grouped by distinct row (lib/ppo_batch.wgsl groupOffsets; docs/maths.md §4):
//
//   de_r = Σ over the minibatch's (step, candidate) pairs of row r of dScore · h
//
// One workgroup per chunk of SEGMENT_CHUNK sorted pairs, its invocations striding over the hidden
// units; each sums the chunk's pairs of the minibatch in order, one piece per row the chunk meets, and
// writes it at pieceBase[r] + (its chunk − row r's first chunk); ppo-candidate-input-grads adds each
// row's pieces in chunk order. Pairs of steps outside the minibatch are skipped (invPos), so the
// arithmetic is the minibatch's pairs × width and the reads the batch's pairs.
//
// More workgroups, one invocation per output, add ppo-step-grads' partial sums of the observation
// tower's gradients over the spans, in order, into the gradient buffer.

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::ppo_batch::{seedParams, Params, workOffsets, groupOffsets, towerGradFloats, towerSpans, SEGMENT_CHUNK};

@group(0) @binding(1) var<storage, read> work: array<f32>;
@group(0) @binding(2) var<storage, read> rows: array<i32>;
@group(0) @binding(3) var<storage, read> groups: array<u32>;
@group(0) @binding(4) var<storage, read_write> pieces: array<f32>;
@group(0) @binding(5) var<storage, read> partials: array<f32>;
@group(0) @binding(6) var<storage, read_write> grads: array<f32>;

// The chunk's pairs, staged once by the whole workgroup: each pair's row, its step's row in the
// minibatch (M or more: outside it) and its score gradient, so that the loop over the hidden units
// reads one activation per pair and nothing else from storage.
var<workgroup> pairRow: array<u32, SEGMENT_CHUNK>;
var<workgroup> pairStep: array<u32, SEGMENT_CHUNK>;
var<workgroup> pairScore: array<f32, SEGMENT_CHUNK>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let params = seedParams[wg.z];
  if (params.batchSize == 0u) {
    return; // this seed has no minibatch in this slot (fewer steps than minibatches)
  }
  let chunk = workgroupIndex(wg, grid);
  let chunks = (params.numSteps * params.numActions + SEGMENT_CHUNK - 1u) / SEGMENT_CHUNK;
  if (chunk >= chunks) {
    addSpans(params, (chunk - chunks) * WORKGROUP_SIZE + lid);
    return;
  }
  let g = groupOffsets(params);
  let total = groups[g.rowStart + params.numRows];
  let first = chunk * SEGMENT_CHUNK;
  if (first >= total) {
    return;
  }
  let last = min(first + SEGMENT_CHUNK, total);
  let H = params.hiddenSize;
  let A = params.numActions;
  let M = params.batchSize;
  let o = workOffsets(params);
  for (var q = first + lid; q < last; q += WORKGROUP_SIZE) {
    let p = groups[g.sorted + q];
    // Where the pair's step sits in this minibatch: wraps past M for a step outside it (invPos 0, or
    // an earlier minibatch's place).
    let i = groups[g.invPos + p / A] - 1u - params.permOffset;
    var score = 0.0;
    if (i < M) {
      score = work[o.dScore + i * A + p % A];
    }
    pairRow[q - first] = u32(rows[params.stepBase * A + p]);
    pairStep[q - first] = i;
    pairScore[q - first] = score;
  }
  workgroupBarrier();
  let count = last - first;
  for (var j = lid; j < H; j += WORKGROUP_SIZE) {
    var row = pairRow[0];
    var sum = 0.0;
    for (var n = 0u; n < count; n++) {
      let r = pairRow[n];
      if (r != row) {
        pieces[params.pieceBase + pieceIndex(params, row, chunk) * H + j] = sum;
        sum = 0.0;
        row = r;
      }
      let i = pairStep[n];
      if (i < M) {
        sum += pairScore[n] * work[o.h + i * H + j];
      }
    }
    pieces[params.pieceBase + pieceIndex(params, row, chunk) * H + j] = sum;
  }
}

fn pieceIndex(params: Params, row: u32, chunk: u32) -> u32 {
  let g = groupOffsets(params);
  return groups[g.pieceBase + row] + chunk - groups[g.rowStart + row] / SEGMENT_CHUNK;
}

// Output q of the observation tower's gradients: its spans' partial sums, in order.
fn addSpans(params: Params, q: u32) {
  let size = towerGradFloats(params);
  if (q >= size) {
    return;
  }
  var sum = 0.0;
  for (var t = 0u; t < towerSpans(params); t++) {
    sum += partials[params.partialBase + t * size + q];
  }
  grads[params.weightBase + q] = sum;
}
