/**
 * PPO with a learned critic (docs/maths.md §8): per-step advantages from GAE over the critic's values,
 * normalised over the batch. What BEACON avoids: a second network to train and to pay for. With
 * `shapedRewards`, the critic also sees R_ms at every milestone step ("shaped-reward PPO": why not just
 * reward milestones?).
 */
import { computeGae } from '../advantages/gae.ts';
import { numRuns, type AdvantageBatch, type AdvantageResult, type AdvantageSettings } from '../advantages/types.ts';
import { ACTOR_CRITIC_LEARNER } from './learners.ts';
import type { MethodSpec } from './method.ts';

function estimate(batch: AdvantageBatch, s: AdvantageSettings): AdvantageResult {
  if (!batch.values) throw new RangeError('values: critic PPO needs one value estimate V(s_t) per step');
  const gae = computeGae(batch, batch.values, { gamma: s.gaeGamma ?? 0.99, lambdaGae: s.gaeLambda ?? 0.95, milestoneReward: s.shapedRewards ? s.rMs : 0 });
  return {
    advantages: gae.advantages,
    trajectoryAdvantages: new Float64Array(numRuns(batch)),
    segmentAdvantages: gae.rawAdvantages,
    shapedRewards: gae.returns,
  };
}

export const ppo: MethodSpec = {
  name: 'ppo',
  label: 'PPO (critic)',
  description: 'a learned value network scores every step; advantages by GAE, no groups needed',
  formula: 'A = GAE(r, V): credit from a learned critic',
  color: { light: { line: '#8a6d00', ink: '#7a6000' }, dark: { line: '#e69f00', ink: '#ebb13a' } },
  parts: { run: null, step: 'Â (GAE)', reward: 'R̂ = Â + V' },
  outputNames: { run: null, step: 'rawAdvantages', reward: 'returns' },
  needs: { milestones: false, stateKeys: false, values: true },
  estimate,
  switches: null,
  gpu: null,
  learner: ACTOR_CRITIC_LEARNER,
  configFor: (shared) => ({ ...shared, method: 'ppo', trajectoryTerm: true, randomSegments: false, milestoneDropout: 0 }),
};
