// The fused update's candidate rows, gathered on the GPU from the rollout's dictionary
// (lib/candidate_dictionary.wgsl, numbered by candidate-ranks) instead of written by the host: for
// run-major step s and candidate a, the distinct row of the pair the rollout recorded, or −1 where
// the candidate is not admissible. One invocation per (step, candidate).

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::run_offsets::recordSlot;
import package::lib::candidate_dictionary::{D_RANK, dictionaryPairs};

struct Params {
  numSteps: u32,
  numRuns: u32,
  numCandidates: u32,
  actionDim: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(2) var<storage, read> candidateTable: array<u32>;
@group(0) @binding(3) var<storage, read_write> rows: array<i32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let i = invocationIndex(id);
  let A = params.numCandidates;
  if (i >= params.numSteps * A) {
    return;
  }
  let slot = recordSlot(i / A, params.numRuns);
  let entry = candidateTable[dictionaryPairs(params.actionDim) + slot * A + i % A];
  rows[i] = select(i32(candidateTable[D_RANK + entry - 1u]), -1, entry == 0u);
}
