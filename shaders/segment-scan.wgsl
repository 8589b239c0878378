// Kernel 1 of 3 of the advantage estimators: per-run segmentation and temporal reward shaping,
// docs/maths.md §2–3. One invocation per run scans that run's steps in order.
//
// Writes, per step: the run it belongs to, its (group, segment index) baseline slot with a
// "completed segment" flag, and the shaped reward r_t. Per run: K_i and whether a tail follows the
// last milestone. Per (run, segment index k): a partial sum of r over the segment, stored in slot
// runOffsets[i] + k − 1 (a run has at most as many segments as steps, so the slots never overlap).
//
// The partial is (first, shiftedSum, count, shiftedSquares) with shiftedSum = Σ (r − first) and
// shiftedSquares = Σ (r − first)²: a mean rebuilt from it is bit-exact when all values are equal (see
// src/advantages/group-stats.ts), which is what makes A_seg ≡ 0 at γ = 1 on the GPU too; the squares
// give the released variant's per-key std (docs/maths.md §4, reference-code variant item 3).

import package::lib::segments::{groupOffsets, runOffsets, HAS_TAIL, SegmentPartial};
import package::lib::dispatch::{WORKGROUP_SIZE, Invocation, invocationIndex};

struct Params {
  numRuns: u32,
  numGroups: u32,
  // 1 under BEACON: shape rewards and collect segment partials. 0 under GRPO: r_t = 0.
  shaping: u32,
  rMs: f32,
  gamma: f32,
  // 1: `milestones` is a GPU rollout's step-major action record (run b's step t at t · runsPerSeed + b,
  // the flag in MILESTONE_BIT; lib/rollout.wgsl), read where the rollout left it; 0: run-major flags.
  milestoneRecord: u32,
  // Seeds batched side by side (src/gpu/seed-advantages.ts): each seed's runsPerSeed runs follow the
  // seed before's, and its action record starts at word seed · seedStride. One seed: numRuns and 0.
  runsPerSeed: u32,
  seedStride: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(3) var<storage, read> milestones: array<i32>;
@group(0) @binding(4) var<storage, read_write> stepRun: array<u32>;
@group(0) @binding(5) var<storage, read_write> stepSlot: array<u32>;
@group(0) @binding(6) var<storage, read_write> shapedRewards: array<f32>;
@group(0) @binding(7) var<storage, read_write> runSegments: array<u32>;
@group(0) @binding(8) var<storage, read_write> segmentPartials: array<SegmentPartial>;

// stepSlot: bit 31 set for steps of a completed segment; low bits = group's first step + k − 1.
const COMPLETED: u32 = 0x80000000u;
// The action record's milestone bit (lib/rollout.wgsl MILESTONE_FLAG).
const MILESTONE_BIT = 16u;

// Whether Φ fired at run-major step t, the run's step t − start.
fn milestoneAt(t: u32, run: u32, start: u32) -> bool {
  if (params.milestoneRecord != 0u) {
    let seed = run / params.runsPerSeed;
    let local = run - seed * params.runsPerSeed;
    return ((milestones[seed * params.seedStride + (t - start) * params.runsPerSeed + local] >> MILESTONE_BIT) & 1) != 0;
  }
  return milestones[t] != 0;
}

// The group holding run `run`: binary search for the last g with groupOffsets[g] ≤ run.
fn groupOfRun(run: u32) -> u32 {
  var lo = 0u;
  var hi = params.numGroups;
  while (hi - lo > 1u) {
    let mid = (lo + hi) / 2u;
    if (u32(groupOffsets[mid]) <= run) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(id: Invocation) {
  let run = invocationIndex(id);
  if (run >= params.numRuns) {
    return;
  }
  let start = u32(runOffsets[run]);
  let end = u32(runOffsets[run + 1u]);
  let groupStepStart = u32(runOffsets[groupOffsets[groupOfRun(run)]]);
  let shaping = params.shaping != 0u;

  var k = 1u;
  var segmentStart = start;
  for (var t = start; t < end; t++) {
    stepRun[t] = run;
    if (!milestoneAt(t, run, start)) {
      continue;
    }
    // Completed segment k: steps segmentStart … t, milestone at t. Walk it backwards so that
    // r = R_ms · γ^(t − s) is one multiplication per step (exact at γ ∈ {0, 0.5, 1}); the
    // partial is shifted by the milestone's own r = R_ms and summed with Kahan compensation.
    let slot = COMPLETED | (groupStepStart + k - 1u);
    var r = params.rMs;
    var sum = 0.0;
    var compensation = 0.0;
    var squares = 0.0;
    var squaresCompensation = 0.0;
    var s = t + 1u;
    loop {
      s -= 1u;
      stepSlot[s] = slot;
      shapedRewards[s] = select(0.0, r, shaping);
      let y = (r - params.rMs) - compensation;
      let next = sum + y;
      compensation = (next - sum) - y;
      sum = next;
      let z = (r - params.rMs) * (r - params.rMs) - squaresCompensation;
      let nextSquares = squares + z;
      squaresCompensation = (nextSquares - squares) - z;
      squares = nextSquares;
      r *= params.gamma;
      if (s == segmentStart) {
        break;
      }
    }
    if (shaping) {
      segmentPartials[start + k - 1u] = SegmentPartial(params.rMs, sum, t - segmentStart + 1u, squares);
    }
    k += 1u;
    segmentStart = t + 1u;
  }

  // The incomplete segment K_i + 1 (if any): r_t = 0, pooled only by the stepMean baseline.
  let tailSlot = groupStepStart + k - 1u;
  for (var s = segmentStart; s < end; s++) {
    stepSlot[s] = tailSlot;
    shapedRewards[s] = 0.0;
  }
  let hasTail = segmentStart < end;
  if (hasTail && shaping) {
    segmentPartials[start + k - 1u] = SegmentPartial(0.0, 0.0, end - segmentStart, 0.0);
  }
  runSegments[run] = (k - 1u) | select(0u, HAS_TAIL, hasTail);
}
