/**
 * "Your estimator": advantages from a visitor's own `estimate(batch, settings)` (src/estimator/), run in
 * a sandbox worker with a time limit, learned from by the same PPO update as every method. It has no
 * built-in estimate: the trainer gets its advantages from the sandbox's engine
 * (src/engine/custom-advantage-engine.ts), so a trainer of it needs the visitor's code.
 */
import { PPO_LEARNER } from './learners.ts';
import type { MethodSpec } from './method.ts';

export const custom: MethodSpec = {
  name: 'custom',
  label: 'Your estimator',
  description: 'your own estimate(batch, settings): one advantage per step, from rewards, milestones and state keys',
  formula: 'A = estimate(batch, settings)',
  // Paul Tol's colour-blind-safe wine and rose: no other entry uses them.
  color: { light: { line: '#882255', ink: '#882255' }, dark: { line: '#cc6677', ink: '#dd8899' } },
  parts: { run: null, step: null, reward: null },
  outputNames: { run: null, step: null, reward: null },
  needs: { milestones: true, stateKeys: true, values: false },
  estimate: () => {
    throw new RangeError('method custom runs your own estimator: give its code (--estimator FILE on the command line, the editor on the page)');
  },
  switches: null,
  gpu: null,
  learner: PPO_LEARNER,
  visitorCode: true,
  // The BEACON ablation switches change BEACON only; the visitor's rule sees the detector's milestones as they fire.
  configFor: (shared) => ({ ...shared, method: 'custom', randomSegments: false, milestoneDropout: 0 }),
};
