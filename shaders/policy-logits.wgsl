// The lean acting pass: the policy's masked logits of one step, in one dispatch (src/policy/policy.ts):
//
//   h = tanh(tanh(obs · W1 + b1) · W2 + b2)                 observation embedding
//   e = tanh(feat · V1 + c1) · V2 + c2                      each candidate's embedding
//   logits[b, a] = (h[b] · e[b, a]) · scale, −1e9 where inadmissible      (scale = 1/√H)
//
// One invocation per (episode, candidate), with no workgroup memory and no barriers: each computes its
// episode's h itself (the observation tower is the smaller part at the policy's shapes) and its
// candidate's embedding, and skips masked candidates. Measured at page defaults on SwiftShader, this
// took about half the time of a workgroup-per-episode version that shared h (barriers are costly there).
// Weights come as one flat buffer in `Policy.variables` order: W1, b1, W2, b2, V1, c1, V2, c2. Each
// unit is summed and finished as lib/acting.wgsl says (products in input order, then the bias; its
// safeTanh), as in the rollouts and the update's forward; tfjs computes tanh as 2σ(2z) − 1: the same
// function, rounded differently (~1e-7).

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::acting::{MAX_HIDDEN, policyWeightOffsets, tanhUnit, linearUnit, score};

struct Params {
  numEpisodes: u32,
  obsDim: u32,
  actionDim: u32,
  numCandidates: u32,
  hiddenSize: u32,
  scale: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> weights: array<f32>;
@group(0) @binding(2) var<storage, read> obs: array<f32>;
@group(0) @binding(3) var<storage, read> actionFeatures: array<f32>;
@group(0) @binding(4) var<storage, read> mask: array<u32>;
@group(0) @binding(5) var<storage, read_write> logits: array<f32>;

const MASKED_LOGIT = -1e9;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  // One invocation per (episode, candidate); large batches use a 2-D grid.
  let pair = invocationIndex(id);
  let A = params.numCandidates;
  if (pair >= params.numEpisodes * A) {
    return;
  }
  if (mask[pair] == 0u) {
    logits[pair] = MASKED_LOGIT;
    return;
  }
  let b = pair / A;
  let H = params.hiddenSize;
  let D = params.obsDim;
  let F = params.actionDim;
  let o = policyWeightOffsets(0u, D, F, H);

  var hidden: array<f32, MAX_HIDDEN>;
  var embedding: array<f32, MAX_HIDDEN>;
  // Observation tower: embedding holds tanh(obs · W1 + b1), then h = tanh(· W2 + b2) goes to hidden.
  for (var j = 0u; j < H; j++) {
    var z = 0.0;
    for (var i = 0u; i < D; i++) {
      z += obs[b * D + i] * weights[o.w1 + i * H + j];
    }
    embedding[j] = tanhUnit(z, weights[o.b1 + j]);
  }
  for (var j = 0u; j < H; j++) {
    var z = 0.0;
    for (var k = 0u; k < H; k++) {
      z += embedding[k] * weights[o.w2 + k * H + j];
    }
    hidden[j] = tanhUnit(z, weights[o.b2 + j]);
  }
  // Candidate tower's first layer into embedding, then the second layer dotted with h as it goes.
  let row = pair * F;
  for (var j = 0u; j < H; j++) {
    var z = 0.0;
    for (var i = 0u; i < F; i++) {
      z += actionFeatures[row + i] * weights[o.v1 + i * H + j];
    }
    embedding[j] = tanhUnit(z, weights[o.c1 + j]);
  }
  var dot = 0.0;
  for (var j = 0u; j < H; j++) {
    var z = 0.0;
    for (var k = 0u; k < H; k++) {
      z += embedding[k] * weights[o.v2 + k * H + j];
    }
    dot += hidden[j] * linearUnit(z, weights[o.c2 + j]);
  }
  logits[pair] = score(dot, params.scale);
}
