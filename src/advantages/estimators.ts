/**
 * The advantage estimators, CPU reference: docs/maths.md §4, A(i, t) = A_traj(i) + λ · A_seg(i, t).
 *
 * The method's switches (`EstimatorSwitches`, from its spec) say which terms it has: GRPO keeps the
 * trajectory term alone, BEACON adds λ times the segment term; the "no trajectory term" ablation drops A_traj. This file is the reference the WGSL kernels are tested against.
 *
 * `variant: "released"` swaps in the released code's two terms (released.ts, docs/maths.md §4
 * "Reference-code variants"); GiGPO (§7) has its own entry point, `computeGigpo` in gigpo.ts.
 */
import { releasedSegmentAdvantages, rowWeightedTrajectoryAdvantages } from './released.ts';
import { segmentAdvantages } from './segment-baselines.ts';
import { segmentRuns } from './segmentation.ts';
import { trajectoryAdvantages } from './trajectory.ts';
import {
  numRuns,
  numSteps,
  validateBatch,
  VARIANTS,
  type AdvantageBatch,
  type AdvantageResult,
  type AdvantageSettings,
  type EstimatorSwitches,
} from './types.ts';

export function computeAdvantages(batch: AdvantageBatch, settings: AdvantageSettings, switches: EstimatorSwitches): AdvantageResult {
  validateBatch(batch);
  if (settings.variant !== undefined && !(VARIANTS as readonly string[]).includes(settings.variant)) {
    throw new RangeError(`variant must be one of ${VARIANTS.join(', ')}, got ${String(settings.variant)}`);
  }
  const steps = numSteps(batch);
  const released = settings.variant === 'released';
  const aTraj = !settings.trajectoryTerm
    ? new Float64Array(numRuns(batch))
    : released
      ? rowWeightedTrajectoryAdvantages(batch, settings.normalize)
      : trajectoryAdvantages(batch, settings.normalize);
  let aSeg: Float64Array = new Float64Array(steps);
  let shapedRewards: Float64Array = new Float64Array(steps);
  if (switches.segmentTerm) {
    const seg = segmentRuns(batch, settings.rMs, settings.gamma);
    shapedRewards = seg.shapedRewards;
    aSeg = released
      ? releasedSegmentAdvantages(batch, seg, settings.normalize)
      : segmentAdvantages(batch, seg, settings.segmentBaseline, settings.rMs, settings.gamma);
  }
  const advantages = new Float64Array(steps);
  const { runOffsets } = batch;
  for (let i = 0; i < aTraj.length; i++) {
    for (let t = runOffsets[i]; t < runOffsets[i + 1]; t++) advantages[t] = aTraj[i] + settings.lambda * aSeg[t];
  }
  return { advantages, trajectoryAdvantages: aTraj, segmentAdvantages: aSeg, shapedRewards };
}
