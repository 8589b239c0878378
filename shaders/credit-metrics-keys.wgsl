// The credit metrics' second pass (lib/credit_metrics.wgsl; docs/maths.md §5), after
// credit-metrics-steps has filled the key table: one invocation per slot counts a key seen in two runs
// or more into the shared, signed and contradictory totals and adds |Σ A| and Σ |A| to the signal
// retention's; the first numRuns invocations also count their run into the outcome mix and the
// effective sample utilisation.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};
import package::lib::credit_metrics::{params, carry, wideAbs, KEY_WORDS, K_OWNER, K_FLAGS, K_SUM, K_ABS, POSITIVE, NEGATIVE, MANY_RUNS, T_SOLVED, T_PARTIAL, T_UTILISED, T_SHARED, T_SIGNED, T_CONTRADICTORY, T_NET, T_GROSS};

@group(0) @binding(1) var<storage, read> finals: array<u32>;
@group(0) @binding(2) var<storage, read_write> keyTable: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> runSignal: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> totals: array<atomic<u32>>;

// A 64-bit atomic addition (two words): the low word's carry goes to the high word.
fn addToTotal(at: u32, value: vec2<u32>) {
  let high = value.y + carry(atomicAdd(&totals[at], value.x), value.x);
  if (high != 0u) {
    atomicAdd(&totals[at + 1u], high);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let i = invocationIndex(id);
  if (i < params.numRuns) {
    let record = i * params.finalWords;
    if (finals[record + params.successWord] != 0u) {
      atomicAdd(&totals[T_SOLVED], 1u);
    } else if (finals[record + params.reachedWord] > 0u) {
      atomicAdd(&totals[T_PARTIAL], 1u);
    }
    if (atomicLoad(&runSignal[i]) != 0u) {
      atomicAdd(&totals[T_UTILISED], 1u);
    }
  }
  if (i >= params.tableSlots) {
    return;
  }
  let at = i * KEY_WORDS;
  let flags = atomicLoad(&keyTable[at + K_FLAGS]);
  if (atomicLoad(&keyTable[at + K_OWNER]) == 0u || (flags & MANY_RUNS) == 0u) {
    return;
  }
  atomicAdd(&totals[T_SHARED], 1u);
  if ((flags & (POSITIVE | NEGATIVE)) != 0u) {
    atomicAdd(&totals[T_SIGNED], 1u);
  }
  if ((flags & (POSITIVE | NEGATIVE)) == (POSITIVE | NEGATIVE)) {
    atomicAdd(&totals[T_CONTRADICTORY], 1u);
  }
  addToTotal(T_NET, wideAbs(vec2<u32>(atomicLoad(&keyTable[at + K_SUM]), atomicLoad(&keyTable[at + K_SUM + 1u]))));
  addToTotal(T_GROSS, vec2<u32>(atomicLoad(&keyTable[at + K_ABS]), atomicLoad(&keyTable[at + K_ABS + 1u])));
}
