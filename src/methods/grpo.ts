/**
 * GRPO: one group-normalised score per run, shared by every step of it (docs/maths.md §4, trajectory
 * term only). The baseline every other method is compared with.
 */
import { computeAdvantages } from '../advantages/estimators.ts';
import { PPO_LEARNER } from './learners.ts';
import type { MethodSpec } from './method.ts';

const switches = { segmentTerm: false };

export const grpo: MethodSpec = {
  name: 'grpo',
  label: 'GRPO',
  description: 'one group-normalised score per run, given to every step of it',
  formula: 'A = A_traj: one score per run',
  color: { light: { line: '#d55e00', ink: '#a84500' }, dark: { line: '#f07b35', ink: '#f38a4c' } },
  parts: { run: 'A_traj', step: null, reward: null },
  outputNames: { run: 'trajectoryAdvantage', step: 'segmentAdvantages', reward: 'shapedRewards' },
  needs: { milestones: false, stateKeys: false, values: false },
  estimate: (batch, settings) => computeAdvantages(batch, settings, switches),
  switches,
  gpu: (paths) => paths.dualScale(switches),
  learner: PPO_LEARNER,
  // The BEACON ablation switches change BEACON only: GRPO stays the plain baseline of docs/maths.md §6.
  configFor: (shared) => ({ ...shared, method: 'grpo', trajectoryTerm: true, randomSegments: false, milestoneDropout: 0 }),
};
