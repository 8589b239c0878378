// The rollout's candidate dictionary numbered (lib/candidate_dictionary.wgsl), one workgroup after
// the rollout: the occupied slots listed, each ranked by its first use (the number of slots used
// before it), its row written at its rank into `features`, the count of distinct rows into the
// header, and the collision flag set where a slot's rows differ in the second hash. O(K²) comparisons
// for K distinct rows, a few hundred in a batch. A seed batch (src/trainer/gpu-rollout-batch.ts) numbers
// every seed's dictionary in the same dispatch, a workgroup each: seed s's table and rows are the s-th
// equal share of the bindings, as the rollout left them (lib/rollout_candidates.wgsl useSeedTable).

import package::lib::dispatch::WORKGROUP_SIZE;
import package::lib::candidate_dictionary::{DICTIONARY_SLOTS, D_COLLISION, D_COUNT, D_KEYS, D_HASH_MAX, D_HASH_MIN, D_FIRST_USE, D_RANK, D_LIST, D_ROWS};

struct Params {
  actionDim: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> candidateTable: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> features: array<f32>;

var<workgroup> listed: atomic<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(@builtin(workgroup_id) workgroupId: vec3<u32>, @builtin(num_workgroups) numWorkgroups: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let t0 = workgroupId.x * (arrayLength(&candidateTable) / numWorkgroups.x);
  let f0 = workgroupId.x * (arrayLength(&features) / numWorkgroups.x);
  for (var slot = local; slot < DICTIONARY_SLOTS; slot += WORKGROUP_SIZE) {
    if (atomicLoad(&candidateTable[t0 + D_KEYS + slot]) == 0u) {
      continue;
    }
    atomicStore(&candidateTable[t0 + D_LIST + atomicAdd(&listed, 1u)], slot);
    if (atomicLoad(&candidateTable[t0 + D_HASH_MAX + slot]) != ~atomicLoad(&candidateTable[t0 + D_HASH_MIN + slot])) {
      atomicStore(&candidateTable[t0 + D_COLLISION], 1u);
    }
  }
  storageBarrier();
  workgroupBarrier();
  let count = atomicLoad(&listed);
  let F = params.actionDim;
  for (var i = local; i < count; i += WORKGROUP_SIZE) {
    let slot = atomicLoad(&candidateTable[t0 + D_LIST + i]);
    let first = atomicLoad(&candidateTable[t0 + D_FIRST_USE + slot]); // complemented: larger is earlier
    var rank = 0u;
    for (var j = 0u; j < count; j++) {
      if (atomicLoad(&candidateTable[t0 + D_FIRST_USE + atomicLoad(&candidateTable[t0 + D_LIST + j])]) > first) {
        rank++;
      }
    }
    atomicStore(&candidateTable[t0 + D_RANK + slot], rank);
    for (var k = 0u; k < F; k++) {
      features[f0 + rank * F + k] = bitcast<f32>(atomicLoad(&candidateTable[t0 + D_ROWS + slot * F + k]));
    }
  }
  if (local == 0u) {
    atomicStore(&candidateTable[t0 + D_COUNT], count);
  }
}
