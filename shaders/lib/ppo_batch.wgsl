// What the fused PPO update's seven kernels (ppo-forward, ppo-step-loss, ppo-step-grads,
// ppo-candidate-grads, ppo-candidate-input-grads, ppo-grad-norm, ppo-adam) share, and the fused
// critic's (critic-values, critic-value-loss, critic-head-grads, with four of the seven): the one
// Params struct at @binding(0), written once per minibatch (src/gpu/fused-ppo.ts FUSED_PPO_PARAMS),
// and where each kernel finds its values in the flat buffers. Weights, gradients and Adam's moments
// are flat, in `Policy.variables` order: W1 [D, H], b1, W2 [H, H], b2, V1 [F, H], c1, V2 [H, H], c2
// (the critic's: W1, b1, W2, b2, then its head [H] and bias where V1 and c1 are, with F = 1). The
// work buffer holds one minibatch's activations and deltas at offsets that depend on its size M
// (workOffsets).

import package::lib::acting::{WeightOffsets, policyWeightOffsets};

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
}

@group(0) @binding(0) var<uniform> params: Params;

// The loss ppo-step-loss differentiates (`lossKind`; fused-ppo-kernels.ts LOSS_KINDS): PPO's clipped
// surrogate with its entropy bonus and KL penalty (docs/maths.md §4), or behaviour cloning's
// cross-entropy on the demonstrated action (docs/maths.md §9). Every other kernel is the same for both.
const LOSS_PPO = 0u;
const LOSS_CLONING = 1u;

// Limits of the kernels' workgroup arrays (FUSED_PPO_MAX_HIDDEN, FUSED_PPO_MAX_ACTIONS in fused-ppo.ts).
const MAX_HIDDEN = 512u;
const MAX_ACTIONS = 256u;

// Where each variable lies in the flat buffers: the acting pass's layout (lib/acting.wgsl), one definition.
fn weightOffsets() -> WeightOffsets {
  return policyWeightOffsets(0u, params.obsDim, params.actionDim, params.hiddenSize);
}

// a1, h, dz2, dz1: [M, H] per minibatch row; g1, e, de, du1: [K, H] per distinct candidate row;
// dS: [M, K] the scores' gradient; stats: [M, 4] per row (min surrogate, entropy, k3 KL, clipped; when
// cloning: log p of the demonstrated action, 1 where it is the most likely, 0, 0).
struct WorkOffsets { a1: u32, h: u32, dz2: u32, dz1: u32, g1: u32, e: u32, de: u32, du1: u32, dS: u32, stats: u32 }

fn workOffsets() -> WorkOffsets {
  let MH = params.batchSize * params.hiddenSize;
  let KH = params.numRows * params.hiddenSize;
  var o: WorkOffsets;
  o.a1 = 0u;
  o.h = MH;
  o.dz2 = 2u * MH;
  o.dz1 = 3u * MH;
  o.g1 = 4u * MH;
  o.e = o.g1 + KH;
  o.de = o.e + KH;
  o.du1 = o.de + KH;
  o.dS = o.du1 + KH;
  o.stats = o.dS + params.batchSize * params.numRows;
  return o;
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
