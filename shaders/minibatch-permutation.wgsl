// Every epoch's order of an update's steps, drawn on the GPU (docs/maths.md §4, "The minibatches"): for
// epoch e and position i, perm[e·S + i] = permutedIndex(i, S, key, e). The fused update's kernels read
// their minibatch as a contiguous slice of it, as they read the CPU's shuffled order before. One
// invocation per (epoch, position).

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex, KERNEL_SEEDS};
import package::lib::permutation::permutedIndex;

// One per seed (lib/dispatch.wgsl KERNEL_SEEDS): the seed's own key, its orders written from
// perm[permBase] on (0 for one seed alone).
struct Params {
  numSteps: u32,
  epochs: u32,
  key0: u32,
  key1: u32,
  @size(16) permBase: u32,
}

@group(0) @binding(0) var<uniform> seedParams: array<Params, KERNEL_SEEDS>;
@group(0) @binding(1) var<storage, read_write> perm: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let params = seedParams[id.workgroupId.z];
  let j = invocationIndex(id);
  let n = params.numSteps;
  if (j >= n * params.epochs) {
    return;
  }
  let epoch = j / n;
  perm[params.permBase + j] = permutedIndex(j - epoch * n, n, vec2<u32>(params.key0, params.key1), epoch);
}
