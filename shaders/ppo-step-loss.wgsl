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
// passes where lo ≤ x ≤ hi, log-softmax's is dy − p · Σ dy. One workgroup per row: invocations
// stride over candidates and hidden units, invocation 0 does the row's short serial part. Writes the
// row's statistics, its candidates' score gradients dScore = ∂loss/∂scores [M, A], dz2 =
// ∂loss/∂(a1·W2 + b2), dz1 = ∂loss/∂(obs·W1 + b1), and where its step sits in the permutation (the
// segmented sum of ppo-candidate-grads picks the minibatch's pairs by it).
//
// In the update's first minibatch (`groupRows`) one more workgroup scans ppo-forward's counts of the
// pairs per row and block into where each block's pairs of each row start, each row's segment and its
// pieces (lib/ppo_batch.wgsl groupOffsets).

import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};
import package::lib::tower_backward::{weights, work, dz, firstLayerDeltas};
import package::lib::ppo_batch::{params, workOffsets, groupOffsets, GroupOffsets, MAX_HIDDEN, MAX_ACTIONS, LOSS_CLONING, SEGMENT_CHUNK};

@group(0) @binding(3) var<storage, read> rows: array<i32>;
@group(0) @binding(4) var<storage, read> actions: array<u32>;
@group(0) @binding(5) var<storage, read> oldLogProbs: array<f32>;
@group(0) @binding(6) var<storage, read> advantages: array<f32>;
@group(0) @binding(7) var<storage, read> perm: array<u32>;
@group(0) @binding(8) var<storage, read_write> groups: array<u32>;

const MASKED_LOGIT = -1e9;

var<workgroup> hRow: array<f32, MAX_HIDDEN>;
var<workgroup> logp: array<f32, MAX_ACTIONS>;
var<workgroup> dScore: array<f32, MAX_ACTIONS>;
var<workgroup> rowOf: array<i32, MAX_ACTIONS>;
// The scan's running totals, one per invocation (at most MAX_ACTIONS invocations per workgroup).
var<workgroup> laneTotals: array<u32, MAX_ACTIONS>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let i = workgroupIndex(wg, grid);
  let M = params.batchSize;
  if (i >= M) {
    if (i == M && params.groupRows == 1u) {
      scanCounts(lid);
    }
    return;
  }
  let H = params.hiddenSize;
  let A = params.numActions;
  let o = workOffsets();
  let s = perm[params.permOffset + i];
  for (var j = lid; j < H; j += WORKGROUP_SIZE) {
    hRow[j] = work[o.h + i * H + j];
  }
  for (var a = lid; a < A; a += WORKGROUP_SIZE) {
    rowOf[a] = rows[s * A + a];
  }
  workgroupBarrier();
  for (var a = lid; a < A; a += WORKGROUP_SIZE) {
    let k = rowOf[a];
    if (k < 0) {
      logp[a] = MASKED_LOGIT;
    } else {
      var dot = 0.0;
      for (var j = 0u; j < H; j++) {
        dot += hRow[j] * work[o.e + u32(k) * H + j];
      }
      logp[a] = dot * params.scale;
    }
  }
  workgroupBarrier();
  if (lid == 0u) {
    // The largest logit, and the first candidate that has it (tfjs's argMax: cloning's accuracy).
    var top = logp[0];
    var best = 0u;
    for (var a = 1u; a < A; a++) {
      if (logp[a] > top) {
        best = a;
      }
      top = max(top, logp[a]);
    }
    var total = 0.0;
    for (var a = 0u; a < A; a++) {
      total += exp(logp[a] - top);
    }
    let logTotal = log(total);
    var entropy = 0.0;
    for (var a = 0u; a < A; a++) {
      logp[a] = (logp[a] - top) - logTotal;
      entropy += exp(logp[a]) * logp[a];
    }
    let action = actions[s];
    let count = f32(M);
    // ∂loss/∂log p[action], the entropy term's scale and the row's statistics: cloning's first, PPO's
    // in their place unless cloning.
    var dTaken = -1.0 / count;
    var entropyScale = 0.0;
    var rowStats = vec4<f32>(logp[action], select(0.0, 1.0, best == action), 0.0, 0.0);
    if (params.lossKind != LOSS_CLONING) {
      let advantage = advantages[s];
      let logRatio = logp[action] - oldLogProbs[s];
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
      let p = exp(logp[a]);
      var d = entropyScale * (p * logp[a] + p);
      if (a == action) {
        d += dTaken;
      }
      dScore[a] = d;
      dTotal += d;
    }
    for (var a = 0u; a < A; a++) {
      var d = 0.0;
      if (rowOf[a] >= 0) {
        d = (dScore[a] - dTotal * exp(logp[a])) * params.scale;
      }
      dScore[a] = d;
    }
    let st = o.stats + i * 4u;
    work[st] = rowStats.x;
    work[st + 1u] = rowStats.y;
    work[st + 2u] = rowStats.z;
    work[st + 3u] = rowStats.w;
    groups[groupOffsets().invPos + s] = params.permOffset + i + 1u;
  }
  workgroupBarrier();
  for (var a = lid; a < A; a += WORKGROUP_SIZE) {
    work[o.dScore + i * A + a] = dScore[a];
  }
  // dh = Σ_a dS_a · e[row(a)], then through tanh: dz2 = dh · (1 − h²).
  for (var j = lid; j < H; j += WORKGROUP_SIZE) {
    var dh = 0.0;
    for (var a = 0u; a < A; a++) {
      let k = rowOf[a];
      if (k >= 0) {
        dh += dScore[a] * work[o.e + u32(k) * H + j];
      }
    }
    let y = hRow[j];
    let d = dh * (1.0 - y * y);
    dz[j] = d;
    work[o.dz2 + i * H + j] = d;
  }
  workgroupBarrier();
  // dz1 = (dz2 · W2ᵀ) · (1 − a1²), from dz (lib/tower_backward.wgsl).
  firstLayerDeltas(i, lid);
}

// The exclusive scan of the counts [K, countBlocks] in place, row by row: where block b's pairs of row
// r start in the sorted pairs; rowStart[r] is where row r's segment starts (rowStart[K]: the
// admissible pairs). Then each row's pieces, the chunks of SEGMENT_CHUNK sorted pairs its segment
// meets, scanned into pieceBase. Each invocation scans a contiguous range; the ranges' totals are
// scanned by invocation 0.
fn scanCounts(lid: u32) {
  let g = groupOffsets();
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
