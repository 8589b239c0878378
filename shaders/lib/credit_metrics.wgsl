// The paper's credit-assignment metrics of one batch (docs/maths.md §5) on the GPU, from what a GPU
// rollout left there (its step-major action records, which hold each step's milestone flag and the key
// of the state it was taken in, its final records and its run offsets) and the advantages A (run-major):
// what the two passes share, credit-metrics-steps (one invocation per step) and credit-metrics-keys
// (one per slot of the key table): their uniforms, the key table's and the totals' layouts, and the
// fixed-point arithmetic.
//
// Every sum is a sum of integers: each |A| or A enters as a 64-bit fixed-point number (FIXED_SCALE
// units per 1, truncated towards zero, two's complement in two words) added with 32-bit atomics and a
// carry, so the totals do not depend on the order the invocations run in, and the same batch gives the
// same metrics on every run and every adapter. src/gpu/credit-metrics.ts reads the totals back.

struct Params {
  // The batch's steps (the largest seed's, seeds side by side); each seed's own count is its last run offset.
  numSteps: u32,
  numRuns: u32,
  groupSize: u32,
  // Where the state keys start in the action record: maxSteps · numRuns (lib/rollout.wgsl).
  keysAt: u32,
  // Slots of the key table, a power of two at least twice the steps.
  tableSlots: u32,
  // Words per final record, and the words of success and of milestones reached in it (src/gpu/final-records.ts).
  finalWords: u32,
  successWord: u32,
  reachedWord: u32,
  // Seeds side by side (src/gpu/seed-credit-metrics.ts): seed k's workgroups are k · workgroupsPerSeed
  // onwards, and its parts lie in blocks of their own: numRuns + 1 run offsets, stepStride advantages,
  // recordStride words of action record, tableSlots slots, numRuns signals and final records, TOTAL_WORDS
  // totals. One seed: workgroupsPerSeed is every workgroup, and the strides are never used.
  workgroupsPerSeed: u32,
  stepStride: u32,
  recordStride: u32,
  // The seeds: workgroups past the last seed's (a 2-D grid rounds the count up) count nothing.
  numSeeds: u32,
}

// The totals' words per seed (src/gpu/credit-metrics.ts TOTAL_WORDS).
const TOTAL_WORDS = 18u;

// The seed of flat workgroup `flat` and the invocation's index within that seed's workgroups.
struct SeedPlace {
  seed: u32,
  index: u32,
}

fn seedPlace(flat: u32, localIndex: u32, workgroupSize: u32) -> SeedPlace {
  let seed = flat / params.workgroupsPerSeed;
  return SeedPlace(seed, (flat - seed * params.workgroupsPerSeed) * workgroupSize + localIndex);
}

@group(0) @binding(0) var<uniform> params: Params;

// The key table (credit-metrics-steps fills it, credit-metrics-keys reads it; the host zeroes it
// first): KEY_WORDS words per slot, the owner (the first step to claim the slot, plus 1; 0: empty), the
// sign and run flags, Σ A and Σ |A| (two words each, low first). Per run, `runSignal` is 1 once any of
// its steps has |A| ≥ ZERO_ADVANTAGE. The totals' words are TOTALS in src/gpu/credit-metrics.ts.

// src/advantages/types.ts ZERO_ADVANTAGE.
const ZERO_ADVANTAGE = 1e-6;
// Fixed-point units per 1 (2^24): src/gpu/credit-metrics.ts FIXED_SCALE.
const FIXED_SCALE = 16777216.0;
const TWO_POW_32 = 4294967296.0;
// The action record: the action below bit 16, the milestone flag in it (lib/rollout.wgsl).
const ACTION_MASK = 0xffffu;
const MILESTONE_BIT = 16u;

const KEY_WORDS = 6u;
const K_OWNER = 0u;
const K_FLAGS = 1u;
const K_SUM = 2u;
const K_ABS = 4u;
const POSITIVE = 1u;
const NEGATIVE = 2u;
const MANY_RUNS = 4u;

// The totals' words: src/gpu/credit-metrics.ts TOTALS.
const T_ZERO_STEPS = 0u;
const T_MILESTONE_STEPS = 1u;
const T_OTHER_STEPS = 2u;
const T_MILESTONE_ABS = 3u;
const T_OTHER_ABS = 5u;
const T_SOLVED = 7u;
const T_PARTIAL = 8u;
const T_UTILISED = 9u;
const T_SHARED = 10u;
const T_SIGNED = 11u;
const T_CONTRADICTORY = 12u;
const T_NET = 13u;
const T_GROSS = 15u;
const T_OVERFLOW = 17u;

// a in fixed point, two's complement (low word, high word): |a| · FIXED_SCALE truncated, then negated
// for a < 0. Both the scaling and the split are exact in f32 (FIXED_SCALE and 2^32 are powers of two).
fn fixedPoint(a: f32) -> vec2<u32> {
  let v = abs(a) * FIXED_SCALE;
  let high = floor(v / TWO_POW_32);
  var wide = vec2<u32>(u32(v - high * TWO_POW_32), u32(high));
  if (a < 0.0) {
    let low = ~wide.x + 1u;
    wide = vec2<u32>(low, ~wide.y + select(0u, 1u, low == 0u));
  }
  return wide;
}

// The carry out of a 32-bit addition whose low word was `old` before `added` was added to it.
fn carry(old: u32, added: u32) -> u32 {
  return select(0u, 1u, old + added < old);
}

// |value| of a 64-bit two's complement (low word, high word).
fn wideAbs(value: vec2<u32>) -> vec2<u32> {
  if ((value.y & 0x80000000u) == 0u) {
    return value;
  }
  let low = ~value.x + 1u;
  return vec2<u32>(low, ~value.y + select(0u, 1u, low == 0u));
}
