// The fused PPO update, kernel 2 of 7: per minibatch row, the loss of docs/maths.md §4 and its
// gradient back through the observation tower (src/trainer/ppo.ts is the reference):
//
//   logit_a = scale · h · e[row(a)] (−1e9 where masked),  log p = logit − max − log Σ exp(logit − max)
//   ratio = exp(log p[action] − log π_old),  surrogate = min(ratio · A, clip(ratio, 1 − ε, 1 + ε) · A)
//   loss = −mean(surrogate) − c_H · mean(H(p)) + c_KL · mean((ratio − 1) − log ratio)
//
// or, with `lossKind` LOSS_CLONING, behaviour cloning's loss = −mean(log p[action]) (docs/maths.md §9;
// src/trainer/behaviour-cloning.ts is the reference): its logits' gradient is (p − onehot(action)) / M
// over the admissible candidates, with no entropy or KL term.
//
// The derivatives follow tfjs's own gradients: min passes to its first argument where a ≤ b, clip
// passes where lo ≤ x ≤ hi, log-softmax's is dy − p · Σ dy. A workgroup takes a block of lossRows()
// rows (at most LOSS_ROWS, fewer where the candidates would overflow its arrays): its invocations
// stride over the block's (row, candidate) scores, then one invocation per row does that row's short
// serial part, then they stride over (row, hidden unit). Writes each row's statistics, its
// candidates' score gradients dScore = ∂loss/∂scores [M, A], dz2 = ∂loss/∂(a1·W2 + b2), dz1 =
// ∂loss/∂(obs·W1 + b1) (each weight of W2 read once for the block's rows), and where its step sits in
// the permutation (the segmented sum of ppo-candidate-grads picks the minibatch's pairs by it).
//
// In the update's first minibatch (`groupRows`) one more workgroup scans ppo-forward's counts of the
// pairs per row and block into where each block's pairs of each row start, each row's segment and its
// pieces (lib/ppo_batch.wgsl groupOffsets).

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::tower_backward::{weights, work};
import package::lib::ppo_batch::{seedParams, Params, weightOffsets, workOffsets, groupOffsets, GroupOffsets, lossRows, LOSS_ROWS, LOSS_PAIRS, MAX_ACTIONS, LOSS_CLONING, SEGMENT_CHUNK};

@group(0) @binding(3) var<storage, read> rows: array<i32>;
@group(0) @binding(4) var<storage, read> actions: array<u32>;
@group(0) @binding(5) var<storage, read> oldLogProbs: array<f32>;
@group(0) @binding(6) var<storage, read> advantages: array<f32>;
@group(0) @binding(7) var<storage, read> perm: array<u32>;
@group(0) @binding(8) var<storage, read_write> groups: array<u32>;

const MASKED_LOGIT = -1e9;
// dz2's columns staged per pass of the first layer's backward pass: LOSS_ROWS rows × DELTA_TILE.
const DELTA_TILE = 32u;

// The block's (row, candidate) values, row-major: logits, then log p; the score gradients; the rows.
var<workgroup> logp: array<f32, LOSS_PAIRS>;
var<workgroup> dScore: array<f32, LOSS_PAIRS>;
var<workgroup> rowOf: array<i32, LOSS_PAIRS>;
// dz2 staged: DELTA_TILE columns × LOSS_ROWS rows, the rows of a column in vectors of 4.
const ROW_VECTORS = LOSS_ROWS / 4u;
var<workgroup> deltas: array<vec4<f32>, DELTA_TILE * ROW_VECTORS>;
// The scan's running totals, one per invocation (at most MAX_ACTIONS invocations per workgroup).
var<workgroup> laneTotals: array<u32, MAX_ACTIONS>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let params = seedParams[wg.z];
  if (params.batchSize == 0u) {
    return; // this seed has no minibatch in this slot (fewer steps than minibatches)
  }
  let rowBlock = workgroupIndex(wg, grid);
  let M = params.batchSize;
  let R = lossRows(params);
  let blocks = (M + R - 1u) / R;
  if (rowBlock >= blocks) {
    if (rowBlock == blocks && params.groupRows == 1u) {
      scanCounts(params, lid);
    }
    return;
  }
  let H = params.hiddenSize;
  let A = params.numActions;
  let o = workOffsets(params);
  let first = rowBlock * R;
  let count = min(R, M - first);
  for (var e = lid; e < count * A; e += WORKGROUP_SIZE) {
    let i = first + e / A;
    let a = e % A;
    let k = rows[(params.stepBase + perm[params.permOffset + i]) * A + a];
    rowOf[e] = k;
    if (k < 0) {
      logp[e] = MASKED_LOGIT;
    } else {
      var dot = 0.0;
      for (var j = 0u; j < H; j++) {
        dot += work[o.h + i * H + j] * work[o.e + u32(k) * H + j];
      }
      logp[e] = dot * params.scale;
    }
  }
  workgroupBarrier();
  if (lid < count) {
    rowLoss(params, first + lid, lid * A);
  }
  workgroupBarrier();
  for (var e = lid; e < count * A; e += WORKGROUP_SIZE) {
    work[o.dScore + first * A + e] = dScore[e];
  }
  // dh = Σ_a dS_a · e[row(a)], then through tanh: dz2 = dh · (1 − h²).
  for (var e = lid; e < count * H; e += WORKGROUP_SIZE) {
    let r = e / H;
    let j = e % H;
    var dh = 0.0;
    for (var a = 0u; a < A; a++) {
      let k = rowOf[r * A + a];
      if (k >= 0) {
        dh += dScore[r * A + a] * work[o.e + u32(k) * H + j];
      }
    }
    let y = work[o.h + (first + r) * H + j];
    work[o.dz2 + (first + r) * H + j] = dh * (1.0 - y * y);
  }
  storageBarrier();
  firstLayerDeltas(params, first, count, lid);
}

// Row i's loss, its statistics and its score gradients, from its logits at logp[base …] (its step's
// candidates): the serial part, one invocation per row.
fn rowLoss(params: Params, i: u32, base: u32) {
  let A = params.numActions;
  let M = params.batchSize;
  let o = workOffsets(params);
  let s = perm[params.permOffset + i];
  // The largest logit, and the first candidate that has it (tfjs's argMax: cloning's accuracy).
  var top = logp[base];
  var best = 0u;
  for (var a = 1u; a < A; a++) {
    if (logp[base + a] > top) {
      best = a;
    }
    top = max(top, logp[base + a]);
  }
  var total = 0.0;
  for (var a = 0u; a < A; a++) {
    total += exp(logp[base + a] - top);
  }
  let logTotal = log(total);
  var entropy = 0.0;
  for (var a = 0u; a < A; a++) {
    logp[base + a] = (logp[base + a] - top) - logTotal;
    entropy += exp(logp[base + a]) * logp[base + a];
  }
  let action = actions[params.stepBase + s];
  let count = f32(M);
  // ∂loss/∂log p[action], the entropy term's scale and the row's statistics: cloning's first, PPO's
  // in their place unless cloning.
  var dTaken = -1.0 / count;
  var entropyScale = 0.0;
  var rowStats = vec4<f32>(logp[base + action], select(0.0, 1.0, best == action), 0.0, 0.0);
  if (params.lossKind != LOSS_CLONING) {
    let advantage = advantages[params.stepBase + s];
    let logRatio = logp[base + action] - oldLogProbs[params.stepBase + s];
    let ratio = exp(logRatio);
    let clipped = min(max(ratio, params.clipLow), params.clipHigh);
    let unclippedTerm = ratio * advantage;
    let clippedTerm = clipped * advantage;
    // ∂loss/∂surrogate = −1/M; ∂loss/∂ratio through the surrogate and the k3 estimator's (ratio − 1).
    let dSurrogate = -1.0 / count;
    var dRatio = params.klCoef / count;
    if (unclippedTerm <= clippedTerm) {
      dRatio += dSurrogate * advantage;
    } else if (ratio >= params.clipLow && ratio <= params.clipHigh) {
      dRatio += dSurrogate * advantage;
    }
    dTaken = dRatio * ratio - params.klCoef / count;
    // −c_H · mean(−Σ p log p): ∂/∂log p_a = (c_H / M) · (p_a log p_a + p_a).
    entropyScale = params.entropyCoef / count;
    var clipHit = 0.0;
    if (abs(ratio - 1.0) > params.clipRatio) {
      clipHit = 1.0;
    }
    rowStats = vec4<f32>(min(unclippedTerm, clippedTerm), -entropy, (ratio - 1.0) - logRatio, clipHit);
  }
  var dTotal = 0.0;
  for (var a = 0u; a < A; a++) {
    let p = exp(logp[base + a]);
    var d = entropyScale * (p * logp[base + a] + p);
    if (a == action) {
      d += dTaken;
    }
    dScore[base + a] = d;
    dTotal += d;
  }
  for (var a = 0u; a < A; a++) {
    var d = 0.0;
    if (rowOf[base + a] >= 0) {
      d = (dScore[base + a] - dTotal * exp(logp[base + a])) * params.scale;
    }
    dScore[base + a] = d;
  }
  let st = o.stats + i * 4u;
  work[st] = rowStats.x;
  work[st + 1u] = rowStats.y;
  work[st + 2u] = rowStats.z;
  work[st + 3u] = rowStats.w;
  groups[groupOffsets(params).invPos + s] = params.permOffset + i + 1u;
}

// dz1 = (dz2 · W2ᵀ) · (1 − a1²) for the block's `count` rows from first on, dz2 read back from the
// work buffer DELTA_TILE columns at a time: each invocation takes 4 units of a1 (16 groups of units)
// for 8 of the block's rows (LOSS_ROWS / 8 groups of rows), so per column it loads 4 weights and 2
// vectors of deltas for 32 multiply-adds. Every invocation runs every loop's trips (the barriers).
fn firstLayerDeltas(params: Params, first: u32, count: u32, lid: u32) {
  let H = params.hiddenSize;
  let o = workOffsets(params);
  let w2 = weightOffsets(params).w2;
  let rowVector = (lid / 16u) * 2u;
  for (var r0 = 0u; r0 < H; r0 += 64u) {
    let r = r0 + (lid % 16u) * 4u;
    // dUQ: unit r + U of the rows in the invocation's row vector Q.
    var d00 = vec4<f32>(0.0);
    var d01 = vec4<f32>(0.0);
    var d10 = vec4<f32>(0.0);
    var d11 = vec4<f32>(0.0);
    var d20 = vec4<f32>(0.0);
    var d21 = vec4<f32>(0.0);
    var d30 = vec4<f32>(0.0);
    var d31 = vec4<f32>(0.0);
    for (var j0 = 0u; j0 < H; j0 += DELTA_TILE) {
      workgroupBarrier();
      for (var e = lid; e < LOSS_ROWS * DELTA_TILE; e += WORKGROUP_SIZE) {
        let row = e / DELTA_TILE;
        let j = j0 + e % DELTA_TILE;
        var d = 0.0;
        if (row < count && j < H) {
          d = work[o.dz2 + (first + row) * H + j];
        }
        deltas[(e % DELTA_TILE) * ROW_VECTORS + row / 4u][row % 4u] = d;
      }
      workgroupBarrier();
      if (r < H) {
        let columns = min(DELTA_TILE, H - j0);
        for (var jj = 0u; jj < columns; jj++) {
          // Units past H read other weights of W2 (or past it, clamped): their sums are never written.
          let at = w2 + r * H + j0 + jj;
          let w = vec4<f32>(weights[at], weights[at + H], weights[at + 2u * H], weights[at + 3u * H]);
          let x0 = deltas[jj * ROW_VECTORS + rowVector];
          let x1 = deltas[jj * ROW_VECTORS + rowVector + 1u];
          d00 += x0 * w.x;
          d01 += x1 * w.x;
          d10 += x0 * w.y;
          d11 += x1 * w.y;
          d20 += x0 * w.z;
          d21 += x1 * w.z;
          d30 += x0 * w.w;
          d31 += x1 * w.w;
        }
      }
    }
    var da = array<vec4<f32>, 8>(d00, d01, d10, d11, d20, d21, d30, d31);
    for (var u = 0u; u < 4u; u++) {
      if (r + u < H) {
        for (var n = 0u; n < 8u; n++) {
          let row = rowVector * 4u + n;
          if (row < count) {
            let y = work[o.a1 + (first + row) * H + r + u];
            work[o.dz1 + (first + row) * H + r + u] = da[u * 2u + n / 4u][n % 4u] * (1.0 - y * y);
          }
        }
      }
    }
  }
}

// The exclusive scan of the counts [K, countBlocks] in place, row by row: where block b's pairs of row
// r start in the sorted pairs; rowStart[r] is where row r's segment starts (rowStart[K]: the
// admissible pairs). Then each row's pieces, the chunks of SEGMENT_CHUNK sorted pairs its segment
// meets, scanned into pieceBase. Each invocation scans a contiguous range; the ranges' totals are
// scanned by invocation 0.
fn scanCounts(params: Params, lid: u32) {
  let g = groupOffsets(params);
  let K = params.numRows;
  let blocks = params.countBlocks;
  let n = K * blocks;
  let span = (n + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
  let lo = min(lid * span, n);
  let hi = min(lo + span, n);
  var sum = 0u;
  for (var q = lo; q < hi; q++) {
    sum += groups[g.counts + q];
  }
  laneTotals[lid] = sum;
  workgroupBarrier();
  if (lid == 0u) {
    var run = 0u;
    for (var l = 0u; l < WORKGROUP_SIZE; l++) {
      let t = laneTotals[l];
      laneTotals[l] = run;
      run += t;
    }
    groups[g.rowStart + K] = run;
  }
  workgroupBarrier();
  var run = laneTotals[lid];
  for (var q = lo; q < hi; q++) {
    let count = groups[g.counts + q];
    groups[g.counts + q] = run;
    if (q % blocks == 0u) {
      groups[g.rowStart + q / blocks] = run;
    }
    run += count;
  }
  storageBarrier();
  workgroupBarrier();
  let rowSpan = (K + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
  let rowLo = min(lid * rowSpan, K);
  let rowHi = min(rowLo + rowSpan, K);
  sum = 0u;
  for (var r = rowLo; r < rowHi; r++) {
    sum += rowPieces(g, r);
  }
  workgroupBarrier();
  laneTotals[lid] = sum;
  workgroupBarrier();
  if (lid == 0u) {
    var total = 0u;
    for (var l = 0u; l < WORKGROUP_SIZE; l++) {
      let t = laneTotals[l];
      laneTotals[l] = total;
      total += t;
    }
    groups[g.pieceBase + K] = total;
  }
  workgroupBarrier();
  run = laneTotals[lid];
  for (var r = rowLo; r < rowHi; r++) {
    groups[g.pieceBase + r] = run;
    run += rowPieces(g, r);
  }
}

// The chunks of SEGMENT_CHUNK sorted pairs that row r's segment meets (0 for a row with no pairs).
fn rowPieces(g: GroupOffsets, r: u32) -> u32 {
  let start = groups[g.rowStart + r];
  let end = groups[g.rowStart + r + 1u];
  if (end == start) {
    return 0u;
  }
  return (end - 1u) / SEGMENT_CHUNK - start / SEGMENT_CHUNK + 1u;
}
