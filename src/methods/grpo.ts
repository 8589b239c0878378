/**
 * GRPO: one group-normalised score per run, shared by every step of it (docs/maths.md §4, trajectory
 * term only). The baseline every other method is compared with.
 */
import { computeAdvantages } from '../advantages/estimators.ts';
import type { MethodSpec } from './method.ts';

export const grpo: MethodSpec = {
  name: 'grpo',
  label: 'GRPO',
  description: 'one group-normalised score per run, given to every step of it',
  formula: 'A = A_traj: one score per run',
  color: { light: { line: '#d55e00', ink: '#a84500' }, dark: { line: '#f07b35', ink: '#f38a4c' } },
  parts: { run: 'A_traj', step: null, reward: null },
  outputNames: { run: 'trajectoryAdvantage', step: 'segmentAdvantages', reward: 'shapedRewards' },
  needs: { milestones: false, stateKeys: false, values: false },
  estimate: computeAdvantages,
  learner: 'ppo',
  gpuKernels: 'dualScale',
  // The BEACON ablation switches change BEACON only: GRPO stays the plain baseline of docs/maths.md §6.
  configFor: (shared) => ({ ...shared, method: 'grpo', trajectoryTerm: true, randomSegments: false, milestoneDropout: 0 }),
};
