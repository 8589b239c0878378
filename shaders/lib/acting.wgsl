// The policy's acting pass, as every kernel that evaluates it writes it (docs/maths.md §4; the policy of
// src/policy/policy.ts): the whole-episode rollouts (lib/rollout.wgsl), the lean per-step pass
// (policy-logits) and the update's forward (ppo-forward; the critic's towers in critic-values too):
//
//   h = tanh(tanh(obs · W1 + b1) · W2 + b2)          observation embedding
//   e = tanh(feat · V1 + c1) · V2 + c2               candidate embedding
//   logit = (h · e) · scale, −1e9 where inadmissible  (scale = 1/√H, rounded to float32)
//
// One order of summation everywhere, so that the rollout's log-probabilities and the update's policy
// differ by no more than rounding: each unit starts from 0.0, adds its inputs' products in input order
// (i = 0, 1, …), then the bias (`tanhUnit`, `linearUnit`), as tfjs's fused matMul forms it; the score
// sums h[j] · e[j] in unit order from 0.0, then scales (`score`). The float64 twin,
// src/policy/plain-policy.ts, sums in the same order. Kernels keep their loops (where their inputs
// live differs: storage, workgroup memory) and finish each unit through these functions.
//
// Weights come as one flat buffer in `Policy.variables` order: W1 [D, H], b1, W2 [H, H], b2, V1 [F, H],
// c1, V2 [H, H], c2 (src/gpu/policy-logits.ts `policyWeightCount`; the update's weights, gradients and
// Adam moments alike, lib/ppo_batch.wgsl).

/** Largest hidden size the acting kernels' arrays hold (src/gpu/policy-logits.ts POLICY_LOGITS_MAX_HIDDEN; src/config.ts hiddenSize's max). */
const MAX_HIDDEN = 512u;

// First float of each variable.
struct WeightOffsets {
  w1: u32,
  b1: u32,
  w2: u32,
  b2: u32,
  v1: u32,
  c1: u32,
  v2: u32,
  c2: u32,
}

// The offsets of a policy whose weights start at word `base` (0 for the one policy of today; a leading
// seed axis of several policies, each with its own runs, passes its policy's first word), for
// observations of `obsDim`, candidate features of `actionDim` and width `hiddenSize`.
fn policyWeightOffsets(base: u32, obsDim: u32, actionDim: u32, hiddenSize: u32) -> WeightOffsets {
  let H = hiddenSize;
  let b1 = base + obsDim * H;
  let w2 = b1 + H;
  let b2 = w2 + H * H;
  let v1 = b2 + H;
  let c1 = v1 + actionDim * H;
  let v2 = c1 + H;
  let c2 = v2 + H * H;
  return WeightOffsets(base, b1, w2, b2, v1, c1, v2, c2);
}

// tanh as tfjs computes it on webgpu: finite for every input (WGSL's built-in tanh may give NaN far out).
fn safeTanh(x: f32) -> f32 {
  let e = exp(-2.0 * abs(x));
  return sign(x) * (1.0 - e) / (1.0 + e);
}

// A tanh unit from the sum of its input products (in input order, from 0.0) and its bias.
fn tanhUnit(products: f32, bias: f32) -> f32 {
  return safeTanh(products + bias);
}

// A linear unit (the candidate tower's second layer) from the sum of its input products and its bias.
fn linearUnit(products: f32, bias: f32) -> f32 {
  return products + bias;
}

// A candidate's logit from h · e summed in unit order from 0.0.
fn score(dot: f32, scale: f32) -> f32 {
  return dot * scale;
}
