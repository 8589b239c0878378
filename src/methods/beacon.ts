/**
 * BEACON: GRPO's trajectory score plus λ times a segment score that compares each milestone segment with
 * the same segment of the group's other runs (docs/maths.md §2–4).
 */
import { computeAdvantages } from '../advantages/estimators.ts';
import { PPO_LEARNER } from './learners.ts';
import type { MethodSpec } from './method.ts';

const switches = { segmentTerm: true };

export const beacon: MethodSpec = {
  name: 'beacon',
  label: 'BEACON',
  description: 'the run’s score plus credit per milestone segment, against the group’s same segment',
  formula: 'A = A_traj + λ · A_seg: credit per milestone segment',
  color: { light: { line: '#0072b2', ink: '#0072b2' }, dark: { line: '#56b4e9', ink: '#6cc0ee' } },
  parts: { run: 'A_traj', step: 'A_seg', reward: 'r_t' },
  outputNames: { run: 'trajectoryAdvantage', step: 'segmentAdvantages', reward: 'shapedRewards' },
  needs: { milestones: true, stateKeys: false, values: false },
  estimate: (batch, settings) => computeAdvantages(batch, settings, switches),
  switches,
  gpu: (paths) => paths.dualScale(switches),
  learner: PPO_LEARNER,
  configFor: (shared) => ({ ...shared, method: 'beacon' }),
};
