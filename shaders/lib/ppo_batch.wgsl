// What the fused PPO update's seven kernels (ppo-forward, ppo-step-loss, ppo-step-grads,
// ppo-candidate-grads, ppo-candidate-input-grads, ppo-grad-norm, ppo-adam) share, and the fused
// critic's (critic-values, critic-value-loss, critic-head-grads, with four of the seven): the one
// Params struct at @binding(0), one per seed and written once per minibatch
// (src/gpu/fused-ppo-kernels.ts FUSED_PPO_PARAMS), and where each kernel finds its values in the flat
// buffers. Weights, gradients and Adam's moments
// are flat, in `Policy.variables` order: W1 [D, H], b1, W2 [H, H], b2, V1 [F, H], c1, V2 [H, H], c2
// (the critic's: W1, b1, W2, b2, then its head [H] and bias where V1 and c1 are, with F = 1). The
// work buffer holds one minibatch's activations and deltas at offsets that depend on its size M
// (workOffsets).

import package::lib::acting::{WeightOffsets, policyWeightOffsets};
import package::lib::dispatch::KERNEL_SEEDS;

struct Params {
  numSteps: u32,
  batchSize: u32,
  permOffset: u32,
  numRows: u32,
  obsDim: u32,
  actionDim: u32,
  hiddenSize: u32,
  numActions: u32,
  scale: f32,
  clipLow: f32,
  clipHigh: f32,
  clipRatio: f32,
  entropyCoef: f32,
  klCoef: f32,
  maxGradNorm: f32,
  learningRate: f32,
  beta1: f32,
  beta2: f32,
  epsilon: f32,
  statsRow: u32,
  statsRows: u32,
  weightCount: u32,
  lossKind: u32,
  // The critic's value-loss weight (critic-value-loss; docs/maths.md §8); unread by the policy's kernels.
  valueCoef: f32,
  // 1 in the update's first minibatch, whose first three kernels also group the batch's (step,
  // candidate) pairs by distinct row (groupOffsets); 0 elsewhere and in the critic.
  groupRows: u32,
  // The pairs are counted in `countBlocks` blocks of `blockPairs` consecutive pairs (the last shorter).
  countBlocks: u32,
  blockPairs: u32,
  // Rows per span of ppo-step-grads' tiled sums (a multiple of TILE_ROWS): one partial sum per span.
  spanRows: u32,
  // Where this seed's part of each joined buffer starts (all 0 for one seed alone): its flat weights,
  // gradients and moments (weightOffsets), work (workOffsets), groups (groupOffsets), pieces, partials,
  // state and statistics; its steps in obs (× obsDim), rows (× numActions), actions, oldLogProbs and
  // advantages; its distinct rows in features (× actionDim). Its permutation's start is in permOffset.
  weightBase: u32,
  workBase: u32,
  groupBase: u32,
  pieceBase: u32,
  partialBase: u32,
  stepBase: u32,
  rowBase: u32,
  stateBase: u32,
  // The struct is a uniform array's element: 16-byte multiple (@size pads it to 160 bytes).
  @size(16) statsBase: u32,
}

// One Params per seed (lib/dispatch.wgsl KERNEL_SEEDS): each kernel's main takes its workgroup's as
// `let params = seedParams[workgroup_id.z]` and hands it to every function below, so it stays uniform
// (the barriers need it). The critic's three kernels run one seed alone (z = 0, every base 0).
// Several seeds side by side: src/gpu/fused-ppo-seeds.ts.
@group(0) @binding(0) var<uniform> seedParams: array<Params, KERNEL_SEEDS>;

// The loss ppo-step-loss differentiates (`lossKind`; fused-ppo-kernels.ts LOSS_KINDS): PPO's clipped
// surrogate with its entropy bonus and KL penalty (docs/maths.md §4), or behaviour cloning's
// cross-entropy on the demonstrated action (docs/maths.md §9). Every other kernel is the same for both.
const LOSS_PPO = 0u;
const LOSS_CLONING = 1u;

// Limits of the kernels' workgroup arrays (FUSED_PPO_MAX_HIDDEN, FUSED_PPO_MAX_ACTIONS in fused-ppo.ts).
const MAX_HIDDEN = 512u;
const MAX_ACTIONS = 256u;

// Where each variable lies in the flat buffers: the acting pass's layout (lib/acting.wgsl), one
// definition, from the seed's base. Every kernel reads its workgroup's index from the grid's x and y
// (lib/dispatch.wgsl) and its seed from z.
fn weightOffsets(params: Params) -> WeightOffsets {
  return policyWeightOffsets(params.weightBase, params.obsDim, params.actionDim, params.hiddenSize);
}

// a1, h, dz2, dz1: [M, H] per minibatch row; g1, e, de, du1: [K, H] per distinct candidate row;
// dScore: [M, A] each (row, candidate)'s score gradient (0 where masked); stats: [M, 4] per row (min
// surrogate, entropy, k3 KL, clipped; when cloning: log p of the demonstrated action, 1 where it is the
// most likely, 0, 0).
struct WorkOffsets { a1: u32, h: u32, dz2: u32, dz1: u32, g1: u32, e: u32, de: u32, du1: u32, dScore: u32, stats: u32 }

fn workOffsets(params: Params) -> WorkOffsets {
  let MH = params.batchSize * params.hiddenSize;
  let KH = params.numRows * params.hiddenSize;
  var o: WorkOffsets;
  o.a1 = params.workBase;
  o.h = o.a1 + MH;
  o.dz2 = o.a1 + 2u * MH;
  o.dz1 = o.a1 + 3u * MH;
  o.g1 = o.a1 + 4u * MH;
  o.e = o.g1 + KH;
  o.de = o.e + KH;
  o.du1 = o.de + KH;
  o.dScore = o.du1 + KH;
  o.stats = o.dScore + params.batchSize * params.numActions;
  return o;
}

// The batch's (step, candidate) pairs p = s · A + a grouped by distinct row, once per update, so that
// the candidate embeddings' gradient de_r = Σ over row r's pairs of dScore · h (docs/maths.md §4) costs
// steps × candidates × width, never steps × distinct rows: ppo-forward counts each row's pairs per
// block (integer atomics), ppo-step-loss scans the counts, ppo-step-grads places every pair in its
// row's segment in pair order (so every sum over a segment has one order: the same bits every run).
// The `groups` buffer (u32 words): counts [K, countBlocks] (after the scan, where each block's pairs
// of each row start), rowStart [K + 1], pieceBase [K + 1] (SEGMENT_CHUNK), invPos [S] (1 + where
// step s sits in the permutation, written by each minibatch's ppo-step-loss; 0 before), sorted [S · A]
// (the admissible pairs, by row, then by pair).
struct GroupOffsets { counts: u32, rowStart: u32, pieceBase: u32, invPos: u32, sorted: u32 }

fn groupOffsets(params: Params) -> GroupOffsets {
  var g: GroupOffsets;
  g.counts = params.groupBase;
  g.rowStart = g.counts + params.numRows * params.countBlocks;
  g.pieceBase = g.rowStart + params.numRows + 1u;
  g.invPos = g.pieceBase + params.numRows + 1u;
  g.sorted = g.invPos + params.numSteps;
  return g;
}

// Rows per workgroup of ppo-forward: 4 groups of 8, one per 16 of its 64 invocations
// (fused-ppo-kernels.ts FORWARD_ROWS).
const FORWARD_ROWS = 32u;

// Rows per workgroup of ppo-step-loss, and the (row, candidate) pairs its arrays hold: a block takes
// lossRows() rows, fewer where many candidates would overflow them (fused-ppo-kernels.ts LOSS_ROWS,
// LOSS_PAIRS, lossRows; LOSS_ROWS: 4 groups of 8, one per 16 of its 64 invocations).
const LOSS_ROWS = 32u;
const LOSS_PAIRS = 512u;

fn lossRows(params: Params) -> u32 {
  return min(LOSS_ROWS, max(1u, LOSS_PAIRS / params.numActions));
}

// Sorted pairs per workgroup of the segmented sum (ppo-candidate-grads): each writes one piece, a
// partial de, per row its chunk meets; row r's pieces start at pieceBase[r] (fused-ppo-kernels.ts
// SEGMENT_CHUNK).
const SEGMENT_CHUNK = 256u;
// Distinct rows per workgroup of the candidate tower's backward pass (ppo-candidate-input-grads),
// whose partial weight gradients ppo-grad-norm sums in tile order (fused-ppo-kernels.ts ROW_TILE).
const ROW_TILE = 16u;

// Floats of one row tile's partial gradients: V1, c1, V2, c2 in the flat layout's order.
fn candidatePartialFloats(params: Params) -> u32 {
  return (params.actionDim + params.hiddenSize + 2u) * params.hiddenSize;
}

// The observation tower's gradients W1, b1, W2, b2 (the flat layout's first floats): ppo-step-grads
// sums them per span of spanRows minibatch rows into the `partials` buffer, [spans, towerGradFloats];
// the next kernel adds the spans in order. The candidate tower's partials follow them.
fn towerGradFloats(params: Params) -> u32 {
  let H = params.hiddenSize;
  return (params.obsDim + 1u) * H + (H + 1u) * H;
}

fn towerSpans(params: Params) -> u32 {
  return (params.batchSize + params.spanRows - 1u) / params.spanRows;
}

fn candidatePartialsStart(params: Params) -> u32 {
  return towerSpans(params) * towerGradFloats(params);
}

// The state buffer (ppo-grad-norm writes it, ppo-adam reads it): Adam's β1^t, β2^t, the step's bias
// corrections 1 − β1^t and 1 − β2^t, the gradient norm, then one row of statistics per minibatch from
// STATE_ROWS on (fused-ppo.ts STATE_ROWS).
const STATE_ACC_BETA1 = 0u;
const STATE_ACC_BETA2 = 1u;
const STATE_CORRECTION1 = 2u;
const STATE_CORRECTION2 = 3u;
const STATE_GRAD_NORM = 4u;
const STATE_ROWS = 8u;
