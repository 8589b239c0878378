/**
 * GiGPO: GRPO's episode score plus ω times a step score that compares each step with the other visits
 * to the same environment state in its group (anchor states, docs/maths.md §7). The paper's strongest
 * baseline: finer credit than GRPO without milestones, but only where states repeat.
 */
import { computeGigpo, type GigpoResult, type GigpoSettings } from '../advantages/gigpo.ts';
import type { AdvantageBatch, AdvantageResult, AdvantageSettings } from '../advantages/types.ts';
import { PPO_LEARNER } from './learners.ts';
import type { MethodSpec } from './method.ts';

/** GiGPO's result in the shape every method reports: A_E as the run term, A_S as the step term, R_t. */
export function gigpoAsAdvantages(r: GigpoResult): AdvantageResult {
  return {
    advantages: r.advantages,
    trajectoryAdvantages: r.episodeAdvantages,
    segmentAdvantages: r.stepAdvantages,
    shapedRewards: r.stepReturns,
    anchorCoverage: r.anchorCoverage,
  };
}

/** The state keys GiGPO needs, or an error naming the field. */
export function requireStateKeys(batch: AdvantageBatch): Uint32Array {
  if (!batch.stateKeys) throw new RangeError('stateKeys: GiGPO needs one environment state key per step');
  return batch.stateKeys;
}

/** GiGPO's settings within the advantage settings (ω defaults as in the config table). */
export function gigpoSettingsOf(s: AdvantageSettings): GigpoSettings {
  return { gamma: s.gamma, omega: s.omega ?? 1, normalize: s.normalize, variant: s.variant ?? 'paper' };
}

function estimate(batch: AdvantageBatch, s: AdvantageSettings): AdvantageResult {
  return gigpoAsAdvantages(computeGigpo(batch, requireStateKeys(batch), gigpoSettingsOf(s)));
}

export const gigpo: MethodSpec = {
  name: 'gigpo',
  label: 'GiGPO',
  description: 'the run’s score plus credit per step against other visits to the same state in its group',
  formula: 'A = A_E + ω · A_S: credit per anchor state',
  color: { light: { line: '#cc79a7', ink: '#a4457e' }, dark: { line: '#e09cc4', ink: '#e6abcd' } },
  parts: { run: 'A_E', step: 'A_S', reward: 'R_t' },
  outputNames: { run: 'episodeAdvantage', step: 'stepAdvantages', reward: 'stepReturns' },
  needs: { milestones: false, stateKeys: true, values: false },
  estimate,
  switches: null,
  gpu: (paths) => paths.anchorStates(),
  learner: PPO_LEARNER,
  configFor: (shared) => ({ ...shared, method: 'gigpo', trajectoryTerm: true, randomSegments: false, milestoneDropout: 0 }),
};
