/**
 * The batch the advantages take from a rollout (src/advantages/types.ts): the rewards (a graded
 * environment's outcome scaling the success reward, docs/maths.md §10), the critic's values where there
 * is one, and Φ's flags as the detector settings leave them (detector-view.ts), re-drawn under random
 * segmentation.
 */
import { detectorView } from '../advantages/detector-view.ts';
import { randomizeMilestones } from '../advantages/random-segments.ts';
import type { AdvantageBatch } from '../advantages/types.ts';
import type { TrainConfig } from '../config.ts';
import type { Rng } from '../prng.ts';
import type { Rollout } from './rollout.ts';

/** `detectorRng`: the false alarms' draws (null without them); `segmentRng`: random segmentation's. */
export function advantageBatchOf(
  rollout: Rollout,
  values: Float32Array | undefined,
  config: TrainConfig,
  detectorRng: Rng | null,
  segmentRng: Rng,
): AdvantageBatch {
  const rewards = rollout.outcome
    ? Float64Array.from(rollout.outcome, (r) => r * config.successReward)
    : Float64Array.from(rollout.success, (s) => (s ? config.successReward : 0));
  const common = {
    groupOffsets: rollout.groupOffsets,
    runOffsets: rollout.runOffsets,
    rewards,
    ...(values ? { values } : {}),
    success: rollout.success,
    milestonesReached: rollout.milestonesReached,
    numMilestones: rollout.numMilestones,
  };
  // Steps not laid out (a batch read on the GPU alone, trainer.ts readsStepsOnGpu): the flags are Φ's as
  // recorded, read from the rollout once it lays them out.
  if (rollout.completeReplay)
    return {
      ...common,
      get milestones() {
        return rollout.milestones;
      },
      get stateKeys() {
        return rollout.stateKeys;
      },
    };
  const seen = detectorView(rollout.runOffsets, rollout.milestones, config, detectorRng);
  const milestones = config.randomSegments ? randomizeMilestones(rollout.runOffsets, seen, segmentRng) : seen;
  return { ...common, milestones, stateKeys: rollout.stateKeys };
}
