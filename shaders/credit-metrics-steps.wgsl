// The credit metrics' first pass (lib/credit_metrics.wgsl; docs/maths.md §5): one invocation per step
// of the run-major batch (of each seed's, seeds side by side) counts the step's |A| into the zero-advantage and the milestone / other
// totals (the workgroup's first, then once per workgroup the global ones), marks its run as carrying
// signal, and enters A under the step's (group, action, state key)
// in the key table, which credit-metrics-keys then reads key by key.
//
// The table is open addressing with linear probing. A slot is claimed by writing its owner, the
// claiming step's index, with one compare-exchange; whether a later step has the same key is read
// from the owner's records, which no invocation writes, so no step waits for another's writes.

import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, workgroupIndex};
import package::lib::run_offsets::runOffsets;
import package::lib::credit_metrics::{params, seedPlace, TOTAL_WORDS, fixedPoint, carry, ZERO_ADVANTAGE, ACTION_MASK, MILESTONE_BIT, KEY_WORDS, K_OWNER, K_FLAGS, K_SUM, K_ABS, POSITIVE, NEGATIVE, MANY_RUNS, T_ZERO_STEPS, T_MILESTONE_STEPS, T_OTHER_STEPS, T_MILESTONE_ABS, T_OTHER_ABS, T_OVERFLOW};

@group(0) @binding(2) var<storage, read> advantages: array<f32>;
// Step-major (lib/rollout.wgsl): each slot's action and milestone flag, then from params.keysAt the state keys.
@group(0) @binding(3) var<storage, read> actionRecord: array<u32>;
@group(0) @binding(4) var<storage, read_write> keyTable: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> runSignal: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> totals: array<atomic<u32>>;

// 64-bit atomic additions (two's complement, two words): the low words' carry goes to the high word.
fn addToKey(at: u32, value: vec2<u32>) {
  let high = value.y + carry(atomicAdd(&keyTable[at], value.x), value.x);
  if (high != 0u) {
    atomicAdd(&keyTable[at + 1u], high);
  }
}

fn addToTotal(at: u32, value: vec2<u32>) {
  let high = value.y + carry(atomicAdd(&totals[at], value.x), value.x);
  if (high != 0u) {
    atomicAdd(&totals[at + 1u], high);
  }
}

// The workgroup's share of the per-step totals (words T_ZERO_STEPS … T_OTHER_ABS + 1), summed here
// first and added to `totals` once per workgroup: every step adding to the same few global words
// would queue thousands of atomics on each.
const WORKGROUP_TOTAL_WORDS = 7u;
var<workgroup> workgroupTotals: array<atomic<u32>, WORKGROUP_TOTAL_WORDS>;

fn addToWorkgroup(at: u32, value: vec2<u32>) {
  let high = value.y + carry(atomicAdd(&workgroupTotals[at], value.x), value.x);
  if (high != 0u) {
    atomicAdd(&workgroupTotals[at + 1u], high);
  }
}

// Seed `seed`'s run-major step s: its run within the seed, and its slot in the seed's step-major records.
struct StepPlace {
  run: u32,
  slot: u32,
}

// The seed's run offsets, numRuns + 1 of them from `seedOffsets(seed)`.
fn seedOffsets(seed: u32) -> u32 {
  return seed * (params.numRuns + 1u);
}

// The seed's last run whose first step is at most s, by binary search over its offsets.
fn runOfStep(seed: u32, s: u32) -> u32 {
  let base = seedOffsets(seed);
  var low = 0u;
  var high = params.numRuns;
  while (high - low > 1u) {
    let mid = (low + high) / 2u;
    if (u32(runOffsets[base + mid]) <= s) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return low;
}

fn placeOf(seed: u32, s: u32) -> StepPlace {
  let b = runOfStep(seed, s);
  return StepPlace(b, seed * params.recordStride + (s - u32(runOffsets[seedOffsets(seed) + b])) * params.numRuns + b);
}

// A 32-bit hash of a key's three words (lowbias32's finaliser between words), for the slot to probe first.
fn mix(h: u32) -> u32 {
  var x = h;
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  return x ^ (x >> 16u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  // Every workgroup counts the steps of one seed: its totals go to that seed's block.
  let place = seedPlace(workgroupIndex(id.workgroupId, id.numWorkgroups), id.localIndex, WORKGROUP_SIZE);
  let seed = place.seed;
  let counts = seed < params.numSeeds;
  if (counts && place.index < u32(runOffsets[seedOffsets(seed) + params.numRuns])) {
    countStep(seed, place.index);
  }
  workgroupBarrier();
  if (counts && id.localIndex == 0u) {
    let totalsAt = seed * TOTAL_WORDS;
    for (var i = T_ZERO_STEPS; i < T_MILESTONE_ABS; i++) {
      let count = atomicLoad(&workgroupTotals[i]);
      if (count != 0u) {
        atomicAdd(&totals[totalsAt + i], count);
      }
    }
    for (var i = T_MILESTONE_ABS; i < WORKGROUP_TOTAL_WORDS; i += 2u) {
      addToTotal(totalsAt + i, vec2<u32>(atomicLoad(&workgroupTotals[i]), atomicLoad(&workgroupTotals[i + 1u])));
    }
  }
}

// Seed `seed`'s step s into the workgroup's totals, its run's signal and the seed's key table.
fn countStep(seed: u32, s: u32) {
  let place = placeOf(seed, s);
  let a = advantages[seed * params.stepStride + s];
  let magnitude = abs(a);
  let record = actionRecord[place.slot];
  if (magnitude < ZERO_ADVANTAGE) {
    atomicAdd(&workgroupTotals[T_ZERO_STEPS], 1u);
  } else {
    atomicStore(&runSignal[seed * params.numRuns + place.run], 1u);
  }
  if (((record >> MILESTONE_BIT) & 1u) != 0u) {
    atomicAdd(&workgroupTotals[T_MILESTONE_STEPS], 1u);
    addToWorkgroup(T_MILESTONE_ABS, fixedPoint(magnitude));
  } else {
    atomicAdd(&workgroupTotals[T_OTHER_STEPS], 1u);
    addToWorkgroup(T_OTHER_ABS, fixedPoint(magnitude));
  }

  // The key: (group, action, state key), docs/maths.md §5.
  let group = place.run / params.groupSize;
  let action = record & ACTION_MASK;
  let stateKey = actionRecord[params.keysAt + place.slot];
  let mask = params.tableSlots - 1u;
  let table = seed * params.tableSlots;
  var slot = mix(mix(mix(group) ^ action) ^ stateKey) & mask;
  var found = false;
  var owner = s;
  for (var probe = 0u; probe < params.tableSlots; probe++) {
    let claim = atomicCompareExchangeWeak(&keyTable[(table + slot) * KEY_WORDS + K_OWNER], 0u, s + 1u);
    if (claim.exchanged) {
      found = true;
      break;
    }
    if (claim.old_value == 0u) {
      continue; // a weak exchange may fail without cause: the slot is still empty, try it again
    }
    let other = placeOf(seed, claim.old_value - 1u);
    let otherRecord = actionRecord[other.slot];
    if (other.run / params.groupSize == group && (otherRecord & ACTION_MASK) == action && actionRecord[params.keysAt + other.slot] == stateKey) {
      found = true;
      owner = claim.old_value - 1u;
      break;
    }
    slot = (slot + 1u) & mask;
  }
  if (!found) {
    atomicStore(&totals[seed * TOTAL_WORDS + T_OVERFLOW], 1u);
    return;
  }
  let at = (table + slot) * KEY_WORDS;
  var flags = select(0u, POSITIVE, a >= ZERO_ADVANTAGE) | select(0u, NEGATIVE, a <= -ZERO_ADVANTAGE);
  if (runOfStep(seed, owner) != place.run) {
    flags |= MANY_RUNS;
  }
  if (flags != 0u) {
    atomicOr(&keyTable[at + K_FLAGS], flags);
  }
  addToKey(at + K_SUM, fixedPoint(a));
  addToKey(at + K_ABS, fixedPoint(magnitude));
}
