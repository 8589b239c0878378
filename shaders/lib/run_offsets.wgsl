// The run-major batch's step offsets (binding 1): run b's steps are runOffsets[b] … runOffsets[b + 1] − 1,
// and `runOfStep` finds a step's run, for kernels that read a GPU rollout's step-major records (run b's
// step t at slot t · numRuns + b) into the run-major batch.

@group(0) @binding(1) var<storage, read> runOffsets: array<i32>;

// The last run whose first step is at most s, by binary search over numRuns + 1 offsets from
// runOffsets[base] on (a seed's own, where several seeds' offsets are joined; 0 for one batch).
fn runOfStep(s: u32, numRuns: u32, base: u32) -> u32 {
  var low = 0u;
  var high = numRuns;
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

// The step-major record slot of run-major step s (both the seed's own, its offsets from `base` on).
fn recordSlot(s: u32, numRuns: u32, base: u32) -> u32 {
  let b = runOfStep(s, numRuns, base);
  return (s - u32(runOffsets[base + b])) * numRuns + b;
}
