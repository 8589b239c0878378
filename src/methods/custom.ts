/**
 * "Your estimator": advantages from a visitor's own `estimate(batch, settings)` (src/estimator/), run in
 * a sandbox worker with a time limit, learned from by the same PPO update as every method. It has no
 * built-in estimate: the trainer gets its advantages from the sandbox's engine
 * (src/trainer/custom-advantage-engine.ts), so a trainer of it needs the visitor's code.
 */
import type { MethodSpec } from './method.ts';

export const custom: MethodSpec = {
  name: 'custom',
  label: 'Your estimator',
  description: 'your own estimate(batch, settings): one advantage per step, from rewards, milestones and state keys',
  formula: 'A = estimate(batch, settings)',
  // Okabe–Ito's reddish purple: no built-in method uses it.
  color: { light: { line: '#cc79a7', ink: '#a0527f' }, dark: { line: '#d98cb8', ink: '#e3a3c6' } },
  parts: { run: null, step: null, reward: null },
  outputNames: { run: null, step: null, reward: null },
  needs: { milestones: true, stateKeys: true, values: false },
  estimate: () => {
    throw new RangeError('method custom runs your own estimator: give its code (--estimator FILE on the command line, the editor on the page)');
  },
  learner: 'ppo',
  gpuKernels: null,
  visitorCode: true,
  // The BEACON ablation switches change BEACON only; the visitor's rule sees the detector's milestones as they fire.
  configFor: (shared) => ({ ...shared, method: 'custom', randomSegments: false, milestoneDropout: 0 }),
};
