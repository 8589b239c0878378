// The fused PPO update, kernel 7 of 7: Adam on every weight, its gradient scaled by
// min(1, maxGradNorm / (‖g‖ + 1e-6)) first (docs/maths.md §4): the arithmetic of
// src/backend/webgpu-adam.ts, in the order of tfjs's AdamOptimizer, on the flat weights and moments.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::ppo_batch::{params, STATE_GRAD_NORM, STATE_CORRECTION1, STATE_CORRECTION2};

@group(0) @binding(1) var<storage, read_write> weights: array<f32>;
@group(0) @binding(2) var<storage, read_write> firstMoment: array<f32>;
@group(0) @binding(3) var<storage, read_write> secondMoment: array<f32>;
@group(0) @binding(4) var<storage, read> grads: array<f32>;
@group(0) @binding(5) var<storage, read> state: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let p = invocationIndex(id);
  if (p >= params.weightCount) {
    return;
  }
  let g = grads[p] * min(1.0, params.maxGradNorm / (state[STATE_GRAD_NORM] + 1e-6));
  let m = firstMoment[p] * params.beta1 + g * (1.0 - params.beta1);
  let v = secondMoment[p] * params.beta2 + (g * g) * (1.0 - params.beta2);
  firstMoment[p] = m;
  secondMoment[p] = v;
  let mHat = m / state[STATE_CORRECTION1];
  let vHat = v / state[STATE_CORRECTION2];
  weights[p] = (mHat / (sqrt(vHat) + params.epsilon)) * (-params.learningRate) + weights[p];
}
