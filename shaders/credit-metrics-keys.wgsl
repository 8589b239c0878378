// The credit metrics' second pass (lib/credit_metrics.wgsl; docs/maths.md §5), after
// credit-metrics-steps has filled the key table: one invocation per slot counts a key seen in two runs
// or more into the shared, signed and contradictory totals and adds |Σ A| and Σ |A| to the signal
// retention's; the first numRuns invocations (of each seed's) also count their run into the outcome mix and the
// effective sample utilisation.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, workgroupIndex};
import package::lib::credit_metrics::{params, seedPlace, TOTAL_WORDS, carry, wideAbs, KEY_WORDS, K_OWNER, K_FLAGS, K_SUM, K_ABS, POSITIVE, NEGATIVE, MANY_RUNS, T_SOLVED, T_PARTIAL, T_UTILISED, T_SHARED, T_SIGNED, T_CONTRADICTORY, T_NET, T_GROSS};

@group(0) @binding(1) var<storage, read> finals: array<u32>;
@group(0) @binding(2) var<storage, read_write> keyTable: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> runSignal: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> totals: array<atomic<u32>>;

// The workgroup's share of the totals from T_SOLVED on (words T_SOLVED … T_GROSS + 1, at their index
// less T_SOLVED), summed here first and added to `totals` once per workgroup, as in
// credit-metrics-steps.
const WORKGROUP_TOTAL_WORDS = 10u;
var<workgroup> workgroupTotals: array<atomic<u32>, WORKGROUP_TOTAL_WORDS>;

// 64-bit atomic additions (two words): the low word's carry goes to the high word.
fn addToWorkgroup(at: u32, value: vec2<u32>) {
  let high = value.y + carry(atomicAdd(&workgroupTotals[at - T_SOLVED], value.x), value.x);
  if (high != 0u) {
    atomicAdd(&workgroupTotals[at - T_SOLVED + 1u], high);
  }
}

fn addToTotal(at: u32, value: vec2<u32>) {
  let high = value.y + carry(atomicAdd(&totals[at], value.x), value.x);
  if (high != 0u) {
    atomicAdd(&totals[at + 1u], high);
  }
}

fn count(at: u32) {
  atomicAdd(&workgroupTotals[at - T_SOLVED], 1u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  // Every workgroup counts the runs and slots of one seed: its totals go to that seed's block.
  let place = seedPlace(workgroupIndex(id.workgroupId, id.numWorkgroups), id.localIndex, WORKGROUP_SIZE);
  let seed = place.seed;
  let i = place.index;
  let counts = seed < params.numSeeds;
  if (counts && i < params.numRuns) {
    countRun(seed * params.numRuns + i);
  }
  if (counts && i < params.tableSlots) {
    countKey(seed * params.tableSlots + i);
  }
  workgroupBarrier();
  if (counts && id.localIndex == 0u) {
    let totalsAt = seed * TOTAL_WORDS;
    for (var w = T_SOLVED; w < T_NET; w++) {
      let n = atomicLoad(&workgroupTotals[w - T_SOLVED]);
      if (n != 0u) {
        atomicAdd(&totals[totalsAt + w], n);
      }
    }
    for (var w = T_NET; w < T_SOLVED + WORKGROUP_TOTAL_WORDS; w += 2u) {
      addToTotal(totalsAt + w, vec2<u32>(atomicLoad(&workgroupTotals[w - T_SOLVED]), atomicLoad(&workgroupTotals[w - T_SOLVED + 1u])));
    }
  }
}

// Run i (of every seed's, seed after seed) into the outcome mix and the utilisation.
fn countRun(i: u32) {
  let record = i * params.finalWords;
  if (finals[record + params.successWord] != 0u) {
    count(T_SOLVED);
  } else if (finals[record + params.reachedWord] > 0u) {
    count(T_PARTIAL);
  }
  if (atomicLoad(&runSignal[i]) != 0u) {
    count(T_UTILISED);
  }
}

// Slot i's key (of every seed's table, seed after seed), if it was seen in two runs or more, into the contradiction and retention totals.
fn countKey(i: u32) {
  let at = i * KEY_WORDS;
  let flags = atomicLoad(&keyTable[at + K_FLAGS]);
  if (atomicLoad(&keyTable[at + K_OWNER]) == 0u || (flags & MANY_RUNS) == 0u) {
    return;
  }
  count(T_SHARED);
  if ((flags & (POSITIVE | NEGATIVE)) != 0u) {
    count(T_SIGNED);
  }
  if ((flags & (POSITIVE | NEGATIVE)) == (POSITIVE | NEGATIVE)) {
    count(T_CONTRADICTORY);
  }
  addToWorkgroup(T_NET, wideAbs(vec2<u32>(atomicLoad(&keyTable[at + K_SUM]), atomicLoad(&keyTable[at + K_SUM + 1u]))));
  addToWorkgroup(T_GROSS, vec2<u32>(atomicLoad(&keyTable[at + K_ABS]), atomicLoad(&keyTable[at + K_ABS + 1u])));
}
