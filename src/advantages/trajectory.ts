/**
 * Trajectory-level (GRPO) advantage: docs/maths.md §4.
 *
 *   meanStd: A_traj(i) = (R_i − mean_group R) / (std_group R + ε), std with n − 1
 *   mean:    A_traj(i) =  R_i − mean_group R
 *
 * A group whose rewards are all equal gets exactly 0.
 */
import { allEqual, sampleStd, shiftedMean } from './group-stats.ts';
import { numRuns, STD_EPSILON, type AdvantageBatch, type Normalize } from './types.ts';

export function trajectoryAdvantages(batch: AdvantageBatch, normalize: Normalize): Float64Array {
  const { groupOffsets, rewards } = batch;
  const aTraj = new Float64Array(numRuns(batch));
  for (let g = 0; g + 1 < groupOffsets.length; g++) {
    const start = groupOffsets[g];
    const end = groupOffsets[g + 1];
    if (allEqual(rewards, start, end)) continue; // ties: exactly 0, no ε blow-up
    const mean = shiftedMean(rewards, start, end);
    const scale = normalize === 'meanStd' ? sampleStd(rewards, start, end, mean) + STD_EPSILON : 1;
    for (let i = start; i < end; i++) aTraj[i] = (rewards[i] - mean) / scale;
  }
  return aTraj;
}
