// Where the policy's weights lie in the flat buffer the acting kernels read (policy-logits, the
// whole-episode rollouts through lib/rollout.wgsl): `Policy.variables` order, W1, b1, W2, b2, V1, c1,
// V2, c2 (src/policy/policy.ts; src/gpu/policy-logits.ts `policyWeightCount` and `gatherWeights`).

/** Largest hidden size the settings allow (src/config.ts hiddenSize). */
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

// The offsets for observations of `obsDim`, candidate features of `actionDim` and width `hiddenSize`.
fn weightOffsets(obsDim: u32, actionDim: u32, hiddenSize: u32) -> WeightOffsets {
  let H = hiddenSize;
  let b1 = obsDim * H;
  let w2 = b1 + H;
  let b2 = w2 + H * H;
  let v1 = b2 + H;
  let c1 = v1 + actionDim * H;
  let v2 = c1 + H;
  let c2 = v2 + H * H;
  return WeightOffsets(0u, b1, w2, b2, v1, c1, v2, c2);
}
