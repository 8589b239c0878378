// The observation tower's backward pass through its first layer for one minibatch row, shared by
// the policy's loss (ppo-step-loss) and the critic's (critic-value-loss): from dz2 = ∂loss/∂(a1 · W2 +
// b2), which the kernel leaves in the workgroup's `dz` (and a barrier), to dz1 = (dz2 · W2ᵀ) · (1 − a1²)
// in the work buffer. Both kernels bind the flat weights at 1 and the work buffer at 2.

import package::lib::dispatch::{WORKGROUP_SIZE};
import package::lib::ppo_batch::{seedParams, Params, weightOffsets, workOffsets, MAX_HIDDEN};

@group(0) @binding(1) var<storage, read> weights: array<f32>;
@group(0) @binding(2) var<storage, read_write> work: array<f32>;

var<workgroup> dz: array<f32, MAX_HIDDEN>;

// Row i's dz1, the workgroup's invocations striding over the hidden units.
fn firstLayerDeltas(params: Params, i: u32, lid: u32) {
  let H = params.hiddenSize;
  let o = workOffsets(params);
  let w = weightOffsets(params);
  for (var r = lid; r < H; r += WORKGROUP_SIZE) {
    var da = 0.0;
    for (var j = 0u; j < H; j++) {
      da += dz[j] * weights[w.w2 + r * H + j];
    }
    let y = work[o.a1 + i * H + r];
    work[o.dz1 + i * H + r] = da * (1.0 - y * y);
  }
}
