/**
 * The text of every metric tooltip and chart legend: one table, read by every view (docs/maths.md §5).
 */

export interface MetricDoc {
  label: string;
  /** One or two sentences, precise enough to recompute the figure. */
  doc: string;
}

export const METRIC_DOCS = {
  success: {
    label: 'Success rate',
    doc: 'Share of this iteration’s runs that completed their task (full success). The faint line is each iteration’s value; the bold line is its debiased moving average (smoothing slider).',
  },
  outcomeMix: {
    label: 'Outcome mix',
    doc: 'Share of runs per iteration that are a full success, a partial success (at least one milestone reached, task not completed) or a complete failure (no milestone reached). The three add up to 100%.',
  },
  sampleUtilization: {
    label: 'Sample utilisation',
    doc: 'Share of runs in which at least one step has a non-zero advantage (|A| ≥ 1e-6): runs that teach the policy something. Defined on the advantages, so a γ = 1 BEACON run and its GRPO twin report the same figure. Paper (ALFWorld): 23.7% GRPO → 82.0% BEACON.',
  },
  zeroAdvantageRatio: {
    label: 'Zero-advantage ratio',
    doc: 'Share of steps whose advantage |A| is below 1e-6, i.e. steps that teach the policy nothing. A group whose runs all get the same final reward gives every step 0 under GRPO. Paper: ≈ 55% GRPO → ≈ 10% BEACON.',
  },
  contradictoryRatio: {
    label: 'Contradictory action ratio',
    doc: 'Steps are grouped by (task group, state, action). Among the keys seen in at least two runs, the share whose advantages (|A| ≥ 1e-6) take both signs: the same action in the same state pushed up in one run and down in another. Empty when no key repeats.',
  },
  signalRetention: {
    label: 'Signal retention',
    doc: 'Over the same (task group, state, action) keys: Σ |Σ A| / Σ Σ |A|, the share of gradient that survives cancellation between runs. 1 means no cancellation.',
  },
  ccr: {
    label: 'Credit concentration (CCR)',
    doc: 'Mean |A| of milestone steps divided by mean |A| of the other steps, over the batch. Above 1, credit piles on the milestone actions. Empty when the batch has no milestone steps or no other steps with credit.',
  },
  iteration: {
    label: 'Iteration',
    doc: 'Completed training iterations: each one rolls out N tasks × G runs, computes advantages and makes a PPO update.',
  },
  iterationsPerSecond: {
    label: 'Iterations/s',
    doc: 'Completed iterations of this method per second of wall time, over the last 10 iterations. The two methods take turns, so each runs at about half the page’s total rate.',
  },
  envStepsPerSecond: {
    label: 'Env steps/s',
    doc: 'Environment steps of the latest rollout divided by the rollout’s wall time (policy forward passes and sampling included).',
  },
  timeSplit: {
    label: 'Time split',
    doc: 'Wall time of the latest iteration spent in the rollout, the advantage computation and the PPO update.',
  },
  iterationsToTarget: {
    label: 'Iterations to target',
    doc: 'First iteration at which the mean success of the last 5 iterations reaches the target (the same definition as in the study). Paper (ALFWorld, 60%): BEACON 50, GRPO 120.',
  },
  aTraj: {
    label: 'A_traj',
    doc: 'Trajectory advantage: the run’s final reward normalised within its group (GRPO’s only term). The same for every step of the run.',
  },
  aSeg: {
    label: 'A_seg',
    doc: 'Segment advantage (before λ): shaped reward r_t minus the mean per-step return of the group’s runs that also completed this segment. 0 on the incomplete tail and under GRPO.',
  },
  advantage: {
    label: 'A',
    doc: 'The advantage the PPO update uses: A = A_traj + λ · A_seg for BEACON, A = A_traj for GRPO.',
  },
  milestone: {
    label: 'Milestone',
    doc: 'A step at which the environment’s milestone detector Φ fired (a sub-goal completed). Segments end at milestones.',
  },
  policyLoss: {
    label: 'Policy loss',
    doc: 'PPO clipped surrogate loss, averaged over the iteration’s minibatch updates.',
  },
  entropy: {
    label: 'Entropy',
    doc: 'Mean entropy of the policy over admissible actions, averaged over the iteration’s minibatch updates; falls as the policy becomes decisive.',
  },
} as const satisfies Record<string, MetricDoc>;

export type MetricKey = keyof typeof METRIC_DOCS;
