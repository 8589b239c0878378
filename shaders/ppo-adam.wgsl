// The fused PPO update, kernel 7 of 7: Adam on every weight, its gradient scaled by
// min(1, maxGradNorm / (‖g‖ + 1e-6)) first (docs/maths.md §4): the arithmetic of
// src/backend/webgpu-adam.ts, in the order of tfjs's AdamOptimizer, on the flat weights and moments.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::ppo_batch::{seedParams, Params, STATE_GRAD_NORM, STATE_CORRECTION1, STATE_CORRECTION2};

@group(0) @binding(1) var<storage, read_write> weights: array<f32>;
@group(0) @binding(2) var<storage, read_write> firstMoment: array<f32>;
@group(0) @binding(3) var<storage, read_write> secondMoment: array<f32>;
@group(0) @binding(4) var<storage, read> grads: array<f32>;
@group(0) @binding(5) var<storage, read> state: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let params = seedParams[id.workgroupId.z];
  if (params.batchSize == 0u) {
    return; // this seed has no minibatch in this slot (fewer steps than minibatches)
  }
  let p = invocationIndex(id);
  if (p >= params.weightCount) {
    return;
  }
  let q = params.weightBase + p;
  let g = grads[q] * min(1.0, params.maxGradNorm / (state[params.stateBase + STATE_GRAD_NORM] + 1e-6));
  let m = firstMoment[q] * params.beta1 + g * (1.0 - params.beta1);
  let v = secondMoment[q] * params.beta2 + (g * g) * (1.0 - params.beta2);
  firstMoment[q] = m;
  secondMoment[q] = v;
  let mHat = m / state[params.stateBase + STATE_CORRECTION1];
  let vHat = v / state[params.stateBase + STATE_CORRECTION2];
  weights[q] = (mHat / (sqrt(vHat) + params.epsilon)) * (-params.learningRate) + weights[q];
}
