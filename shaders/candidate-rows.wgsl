// The fused update's candidate rows, gathered on the GPU from the rollout's dictionary
// (lib/candidate_dictionary.wgsl, numbered by candidate-ranks) instead of written by the host: for
// run-major step s and candidate a, the distinct row of the pair the rollout recorded, or −1 where
// the candidate is not admissible. One invocation per (step, candidate).

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex, KERNEL_SEEDS};
import package::lib::run_offsets::recordSlot;
import package::lib::candidate_dictionary::{D_RANK, dictionaryPairs};

// One per seed (lib/dispatch.wgsl KERNEL_SEEDS; one seed alone: every base 0): the seed's offsets
// start at offsetBase in runOffsets, its dictionary at tableBase in candidateTable, its steps' rows
// at stepBase × numCandidates in rows.
struct Params {
  numSteps: u32,
  numRuns: u32,
  numCandidates: u32,
  actionDim: u32,
  offsetBase: u32,
  tableBase: u32,
  @size(8) stepBase: u32,
}

@group(0) @binding(0) var<uniform> seedParams: array<Params, KERNEL_SEEDS>;
@group(0) @binding(2) var<storage, read> candidateTable: array<u32>;
@group(0) @binding(3) var<storage, read_write> rows: array<i32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let params = seedParams[id.workgroupId.z];
  let i = invocationIndex(id);
  let A = params.numCandidates;
  if (i >= params.numSteps * A) {
    return;
  }
  let slot = recordSlot(i / A, params.numRuns, params.offsetBase);
  let table = params.tableBase;
  let entry = candidateTable[table + dictionaryPairs(params.actionDim) + slot * A + i % A];
  rows[params.stepBase * A + i] = select(i32(candidateTable[table + D_RANK + entry - 1u]), -1, entry == 0u);
}
