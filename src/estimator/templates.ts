/**
 * The starter estimators the editor offers and the tests train: GRPO written against the estimator
 * interface (it trains exactly like the built-in GRPO: test/estimator/custom-train.test.ts), a
 * milestone-segment rule in a few lines, and an empty "your idea here". Plain JavaScript sources, as a
 * visitor would type them.
 */

/** GRPO (docs/maths.md §4, trajectory term): one group-normalised score per run, for every step of it. */
export const GRPO_TEMPLATE = `// GRPO: one group-normalised score per run, given to every step of it.
export default function estimate(batch, settings) {
  return batch.groups.map((runs) => {
    const rewards = runs.map((run) => run.reward);
    // A group whose rewards all tie teaches nothing: exactly 0.
    if (rewards.every((r) => r === rewards[0])) return runs.map(() => 0);
    // The mean, shifted by the first reward so that it is exact.
    let sum = 0;
    for (let i = 1; i < rewards.length; i++) sum += rewards[i] - rewards[0];
    const mean = rewards[0] + sum / rewards.length;
    let scale = 1;
    if (settings.normalize === 'meanStd') {
      let squares = 0;
      for (const r of rewards) squares += (r - mean) * (r - mean);
      scale = Math.sqrt(squares / (rewards.length - 1)) + 1e-6;
    }
    // A plain number gives every step of the run that advantage.
    return rewards.map((r) => (r - mean) / scale);
  });
}
`;

/** A milestone-segment rule: GRPO's score plus λ for steps whose segment ended in a milestone, centred per group. */
export const MILESTONE_SEGMENTS_TEMPLATE = `// Milestone segments: the run's centred reward, plus λ for each step whose
// segment ended in a milestone (centred over the group's steps).
export default function estimate(batch, settings) {
  return batch.groups.map((runs) => {
    const meanReward = runs.reduce((s, run) => s + run.reward, 0) / runs.length;
    // done[t] = 1 when a milestone fires at or after step t (its segment completed).
    const done = runs.map((run) => {
      const d = new Float64Array(run.length);
      for (let t = run.length - 1, seen = 0; t >= 0; t--) d[t] = seen = seen || run.milestones[t];
      return d;
    });
    const steps = runs.reduce((s, run) => s + run.length, 0);
    const meanDone = done.reduce((s, d) => s + d.reduce((a, b) => a + b, 0), 0) / steps;
    return runs.map((run, i) => done[i].map((d) => run.reward - meanReward + settings.lambda * (d - meanDone)));
  });
}
`;

/** A skeleton that runs (every advantage 0) and lists what a run holds. */
export const YOUR_IDEA_TEMPLATE = `// Your idea here. batch.groups[g][i] is run i of group g (the runs of a group share one task):
//   reward, success, length, milestones (Uint8Array, 1 where a milestone fired),
//   stateKeys (Uint32Array), milestonesReached, numMilestones.
// settings: gamma, lambda, rMs, normalize, … Return advantages[g][i]: one number per step
// (an array or typed array of run.length entries), or one number for every step of the run.
export default function estimate(batch, settings) {
  return batch.groups.map((runs) => runs.map((run) => new Float64Array(run.length)));
}
`;

export interface EstimatorTemplate {
  name: 'grpo' | 'milestoneSegments' | 'yourIdea';
  label: string;
  source: string;
}

export const ESTIMATOR_TEMPLATES: readonly EstimatorTemplate[] = [
  { name: 'grpo', label: 'GRPO', source: GRPO_TEMPLATE },
  { name: 'milestoneSegments', label: 'Milestone segments', source: MILESTONE_SEGMENTS_TEMPLATE },
  { name: 'yourIdea', label: 'Your idea here', source: YOUR_IDEA_TEMPLATE },
];
