/**
 * BEACON's released-code variant, `variant: "released"`: docs/maths.md §4, "Reference-code variants".
 *
 *   1. Trajectory statistics over step rows: run j counts L_j times, so the group's mean and std are
 *      length-weighted (mean_g = Σ L_j R_j / Σ L_j, sample std over Σ L_j rows; one row: mean 0, std 1).
 *   2. Segment groups keyed by (group, segment index), where a step's index is the number of
 *      milestones its run reached strictly before it (milestone step in its own segment, the tail in
 *      index K_i). Baseline = mean of r over every row of the key, tail rows (r = 0) included.
 *   3. `mean` subtracts the mean in both terms; `meanStd` also divides both by (their std + ε).
 *   4. R_ms and λ are plain settings (the shipped configs use R_ms = 10).
 *
 * The segment index here is segmentation.ts's 1-based index minus one: the same partition of steps,
 * so the key is (group, segmentIndex). Ties, and keys of one row, give exactly 0 (shifted means).
 */
import { allEqual, keyedAdvantages, rowStats } from './group-stats.ts';
import type { Segmentation } from './segmentation.ts';
import { numRuns, STD_EPSILON, type AdvantageBatch, type Normalize } from './types.ts';

/** Run lengths L_j, the row weights of item 1. */
export function runLengths(batch: AdvantageBatch): Int32Array {
  const L = new Int32Array(numRuns(batch));
  for (let i = 0; i < L.length; i++) L[i] = batch.runOffsets[i + 1] - batch.runOffsets[i];
  return L;
}

/**
 * A_traj(i) of item 1: (R_i − mean_g) / (std_g + ε) or R_i − mean_g, the statistics over step rows. A
 * group whose rewards are all equal gives exactly 0. Also GiGPO's released episode term (§7).
 */
export function rowWeightedTrajectoryAdvantages(batch: AdvantageBatch, normalize: Normalize): Float64Array {
  const { groupOffsets, rewards } = batch;
  const L = runLengths(batch);
  const aTraj = new Float64Array(numRuns(batch));
  for (let g = 0; g + 1 < groupOffsets.length; g++) {
    const start = groupOffsets[g];
    const end = groupOffsets[g + 1];
    const { mean, std, rows } = rowStats(rewards, L, start, end);
    // One row: mean 0, std 1 (the released rule). Several rows, all equal: exactly 0.
    if (rows > 1 && allEqual(rewards, start, end)) continue;
    const scale = normalize === 'meanStd' ? std + STD_EPSILON : 1;
    for (let i = start; i < end; i++) aTraj[i] = (rewards[i] - mean) / scale;
  }
  return aTraj;
}

/**
 * A_seg(i, t) of items 2–3, per step, before λ: (r_t − b) / F_norm over the (group, segment index)
 * key of step t. Under `mean` this is exactly the `stepMean` baseline of segment-baselines.ts.
 */
export function releasedSegmentAdvantages(batch: AdvantageBatch, seg: Segmentation, normalize: Normalize): Float64Array {
  const { groupOffsets, runOffsets } = batch;
  // Dense key per step: the group's first step + segmentIndex − 1 (an index never exceeds the
  // group's step count, so the keys of different groups never collide).
  const key = new Int32Array(seg.segmentIndex.length);
  for (let g = 0; g + 1 < groupOffsets.length; g++) {
    const from = runOffsets[groupOffsets[g]];
    const to = runOffsets[groupOffsets[g + 1]];
    for (let t = from; t < to; t++) key[t] = from + seg.segmentIndex[t] - 1;
  }
  return keyedAdvantages(seg.shapedRewards, key, key.length, normalize, STD_EPSILON);
}
