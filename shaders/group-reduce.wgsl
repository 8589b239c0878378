// Kernel 2 of 3 of the advantage estimators: per-group reductions, docs/maths.md §4. One workgroup per
// group.
//
// 1. Trajectory term (GRPO): A_traj(i) = (R_i − mean) / (std + ε) or R_i − mean, std with n − 1.
//    A group whose rewards are all equal gets exactly 0 (explicit tie test, as on the CPU).
// 2. Segment baselines, one per (group, segment index k), stored in slot (group's first step) + k − 1:
//    perStepReturn: b_k = mean of ρ_k(j) over the runs j with K_j ≥ k, ρ_k = the segment's mean r;
//    stepMean:      b_k = mean of r over every step with segment index k in the group, tails included.
//    Every mean is shifted by its first term, so equal terms give that term back bit for bit.
// Released variant (docs/maths.md §4, reference-code variants): `rowWeighted` takes the trajectory
// statistics over step rows (run j counts L_j times; one row: mean 0, std 1), and `segmentNormalize`
// also writes each stepMean key's std + ε to `segmentScales` (same slot as its baseline).

import package::lib::segments::{groupOffsets, runOffsets, HAS_TAIL, SegmentPartial};
import package::lib::compensated_sum::{CompensatedSum, compensatedAdd};
import package::lib::dispatch::{WORKGROUP_SIZE, workgroupIndex};

struct Params {
  numGroups: u32,
  // 0: meanStd, 1: mean.
  normalize: u32,
  // 0: A_traj is 0 (the "no trajectory term" ablation).
  trajectoryTerm: u32,
  // 0: none (GRPO), 1: perStepReturn, 2: stepMean.
  segmentBaseline: u32,
  epsilon: f32,
  // 1: trajectory statistics over step rows (released variant).
  rowWeighted: u32,
  // 1: write std + ε of each stepMean key to segmentScales (released variant, meanStd).
  segmentNormalize: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(3) var<storage, read> rewards: array<f32>;
@group(0) @binding(4) var<storage, read> runSegments: array<u32>;
@group(0) @binding(5) var<storage, read> segmentPartials: array<SegmentPartial>;
@group(0) @binding(6) var<storage, read_write> trajectoryAdvantages: array<f32>;
@group(0) @binding(7) var<storage, read_write> baselines: array<f32>;
@group(0) @binding(8) var<storage, read_write> segmentScales: array<f32>;

const PER_STEP_RETURN: u32 = 1u;
const STEP_MEAN: u32 = 2u;

// The group's scalars, computed by invocation 0 and shared after one barrier.
var<workgroup> groupMean: f32;
var<workgroup> groupScale: f32;
var<workgroup> groupKeepsTrajectory: u32;
var<workgroup> groupMaxSegment: u32;

// Highest segment index the baseline needs for run j: K_j (perStepReturn) or K_j + tail (stepMean).
fn segmentsOf(j: u32) -> u32 {
  let packed = runSegments[j];
  let milestonesReached = packed & ~HAS_TAIL;
  if (params.segmentBaseline == STEP_MEAN && (packed & HAS_TAIL) != 0u) {
    return milestonesReached + 1u;
  }
  return milestonesReached;
}

// How many times run j's reward counts in the trajectory statistics: 1, or its length L_j in rows.
fn weightOf(j: u32) -> f32 {
  if (params.rowWeighted != 0u) {
    return f32(runOffsets[j + 1u] - runOffsets[j]);
  }
  return 1.0;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn main(
  @builtin(workgroup_id) workgroupId: vec3<u32>,
  @builtin(num_workgroups) numWorkgroups: vec3<u32>,
  @builtin(local_invocation_index) localIndex: u32,
) {
  let g = workgroupIndex(workgroupId, numWorkgroups);
  if (g >= params.numGroups) {
    return;
  }
  let runStart = u32(groupOffsets[g]);
  let runEnd = u32(groupOffsets[g + 1u]);

  // ---- Group statistics: one invocation walks the group's runs (G is small: a sequential, fixed
  // order sum with Kahan compensation is as accurate as a tree and needs no barrier per level). ----
  if (localIndex == 0u) {
    // rows = G (paper) or Σ L_j (released); weights are 1.0 under the paper, which leaves every
    // product below exact.
    var rows = 0.0;
    let r0 = rewards[runStart];
    var sum = CompensatedSum(0.0, 0.0);
    var differs = false;
    var maxSegment = 0u;
    for (var j = runStart; j < runEnd; j++) {
      let w = weightOf(j);
      rows += w;
      sum = compensatedAdd(sum, w * (rewards[j] - r0));
      differs = differs || rewards[j] != r0;
      if (params.segmentBaseline != 0u) {
        maxSegment = max(maxSegment, segmentsOf(j));
      }
    }
    var mean = r0 + sum.sum / rows;
    var squares = 0.0;
    for (var j = runStart; j < runEnd; j++) {
      let d = rewards[j] - mean;
      squares += weightOf(j) * d * d;
    }
    var deviation = sqrt(squares / (rows - 1.0));
    if (rows == 1.0) {
      // One row: mean 0, std 1 (the released rule; unreachable while groups hold ≥ 2 runs).
      mean = 0.0;
      deviation = 1.0;
      differs = true;
    }
    groupMean = mean;
    groupScale = select(deviation + params.epsilon, 1.0, params.normalize != 0u);
    // Tied rewards give exactly 0, whatever rounding the mean had (docs/maths.md §4).
    groupKeepsTrajectory = select(0u, 1u, params.trajectoryTerm != 0u && differs);
    groupMaxSegment = maxSegment;
  }
  workgroupBarrier();

  let mean = groupMean;
  let scale = groupScale;
  let keep = groupKeepsTrajectory != 0u;
  for (var j = runStart + localIndex; j < runEnd; j += WORKGROUP_SIZE) {
    trajectoryAdvantages[j] = select(0.0, (rewards[j] - mean) / scale, keep);
  }

  // ---- Segment baselines: invocation localIndex handles k = localIndex + 1, localIndex + 1 + WORKGROUP_SIZE, … ----
  let kMax = groupMaxSegment;
  let groupStepStart = u32(runOffsets[runStart]);
  for (var k = localIndex + 1u; k <= kMax; k += WORKGROUP_SIZE) {
    var first = 0.0;
    var sum = 0.0;
    var compensation = 0.0;
    var count = 0u;
    for (var j = runStart; j < runEnd; j++) {
      if (segmentsOf(j) < k) {
        continue;
      }
      let p = segmentPartials[u32(runOffsets[j]) + k - 1u];
      var term: f32;
      if (params.segmentBaseline == PER_STEP_RETURN) {
        // One run, one vote: ρ_k(j) is the mean r of its completed segment k.
        let rho = p.first + p.shiftedSum / f32(p.count);
        if (count == 0u) {
          first = rho;
        }
        term = rho - first;
        count += 1u;
      } else {
        // One step, one vote: re-shift the run's partial from its own first value to the pool's.
        if (count == 0u) {
          first = p.first;
        }
        term = p.shiftedSum + f32(p.count) * (p.first - first);
        count += p.count;
      }
      let y = term - compensation;
      let next = sum + y;
      compensation = (next - sum) - y;
      sum = next;
    }
    let b = first + sum / f32(count);
    baselines[groupStepStart + k - 1u] = b;
    if (params.segmentNormalize != 0u) {
      // Second pass around b: per run, Σ (r − b)² = Σ (r − f)² + 2 (f − b) Σ (r − f) + n (f − b)² with
      // f the run's own first value. (Pooling Σ (r − first)² and subtracting n (b − first)² once
      // cancels badly when a key is mostly tail zeros.) A one-row or tied key has r − b = 0 exactly,
      // whatever its scale.
      var squares = 0.0;
      var squaresCompensation = 0.0;
      for (var j = runStart; j < runEnd; j++) {
        if (segmentsOf(j) < k) {
          continue;
        }
        let p = segmentPartials[u32(runOffsets[j]) + k - 1u];
        let d = p.first - b;
        let z = (p.shiftedSquares + 2.0 * d * p.shiftedSum + f32(p.count) * d * d) - squaresCompensation;
        let next = squares + z;
        squaresCompensation = (next - squares) - z;
        squares = next;
      }
      let spread = select(0.0, sqrt(max(squares, 0.0) / f32(count - 1u)), count > 1u);
      segmentScales[groupStepStart + k - 1u] = spread + params.epsilon;
    }
  }
}
