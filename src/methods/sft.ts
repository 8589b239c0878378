/**
 * SFT: behaviour cloning alone, the paper's imitation baseline (docs/maths.md §9). Each iteration it
 * clones as many fresh oracle steps as its own rollout took, so it sees as many environment steps as an
 * RL method does. It uses no advantage: A ≡ 0 is what its panels report.
 */
import { numRuns, numSteps, type AdvantageBatch, type AdvantageResult } from '../advantages/types.ts';
import { BEHAVIOUR_CLONING_LEARNER } from './learners.ts';
import type { MethodSpec } from './method.ts';

function noAdvantages(batch: AdvantageBatch): AdvantageResult {
  const steps = numSteps(batch);
  return {
    advantages: new Float64Array(steps),
    trajectoryAdvantages: new Float64Array(numRuns(batch)),
    segmentAdvantages: new Float64Array(steps),
    shapedRewards: new Float64Array(steps),
  };
}

export const sft: MethodSpec = {
  name: 'sft',
  label: 'SFT',
  description: 'imitates the oracle on as many oracle steps as an RL method samples; no reward, no credit',
  formula: 'no advantage: cross-entropy on the oracle’s actions',
  color: { light: { line: '#009e73', ink: '#007a59' }, dark: { line: '#2fc29a', ink: '#46cba6' } },
  parts: { run: null, step: null, reward: null },
  outputNames: { run: null, step: null, reward: null },
  needs: { milestones: false, stateKeys: false, values: false },
  estimate: noAdvantages,
  switches: null,
  gpu: null,
  learner: BEHAVIOUR_CLONING_LEARNER,
  configFor: (shared) => ({ ...shared, method: 'sft', trajectoryTerm: true, randomSegments: false, milestoneDropout: 0 }),
};
