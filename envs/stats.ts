/**
 * Episode statistics of a fixed policy on any environment: how many runs end in full success, partial
 * success (at least one milestone, task failed) or complete failure (docs/maths.md §1), with mean length,
 * mean milestones and stepping speed. This is how the environments' calibration is checked
 * (`npm run -s envs -- stats …`). Same options ⇒ same figures, speed aside.
 */
import { Rng } from '../src/prng.ts';
import { createEnv } from './index.ts';
import { randomAdmissibleActions } from './random-policy.ts';
import type { Horizon, VecEnv } from './types.ts';

export const POLICIES = ['random', 'oracle'] as const;
export type PolicyName = (typeof POLICIES)[number];

interface StatsOptions {
  horizon: Horizon;
  policy: PolicyName;
  episodes: number;
  /** Root seed: task seeds, policy draws and dropout draws are forked from it. */
  seed: number;
  /** Episodes stepped together (default 256). */
  batchSize?: number;
  milestoneDropout?: number;
}

interface EpisodeStats {
  env: string;
  horizon: Horizon;
  policy: PolicyName;
  episodes: number;
  seed: number;
  batchSize: number;
  milestoneDropout: number;
  maxSteps: number;
  maxMilestones: number;
  /** Shares of episodes (0…1). */
  success: number;
  partial: number;
  failure: number;
  successCount: number;
  partialCount: number;
  failureCount: number;
  meanSteps: number;
  /** Mean milestones reported per episode (after dropout). */
  meanMilestones: number;
  /** Episodes by milestones reported: index k counts episodes that reached exactly k. */
  milestoneHistogram: number[];
  /** Environment steps per second, policy and resets included (the one figure that varies between runs). */
  stepsPerSecond: number;
}

/** Runs `options.episodes` episodes on environments made by `make(batchSize)`. */
function collectStats(make: (batchSize: number) => VecEnv, options: StatsOptions): EpisodeStats {
  const { horizon, policy, episodes, seed } = options;
  if (!Number.isInteger(episodes) || episodes < 1) throw new RangeError(`episodes must be a positive integer; got ${episodes}`);
  if (!(POLICIES as readonly string[]).includes(policy)) throw new RangeError(`policy must be one of ${POLICIES.join(', ')}; got ${JSON.stringify(policy)}`);
  const batchSize = Math.min(options.batchSize ?? 256, episodes);
  const root = new Rng(seed);
  const taskRng = root.fork('tasks');
  const policyRng = root.fork('policy');
  const dropoutRng = root.fork('dropout');
  const envs = new Map<number, VecEnv>();
  let successCount = 0;
  let partialCount = 0;
  let stepSum = 0;
  let milestoneSum = 0;
  let maxSteps = 0;
  let maxMilestones = 0;
  let envName = '';
  const histogram: number[] = [];
  let liveSteps = 0;
  const t0 = performance.now();
  for (let start = 0; start < episodes; start += batchSize) {
    const B = Math.min(batchSize, episodes - start);
    let env = envs.get(B);
    if (env === undefined) {
      env = make(B);
      envs.set(B, env);
    }
    envName = env.name;
    maxSteps = env.maxSteps;
    maxMilestones = env.maxMilestones;
    const seeds = new Uint32Array(B);
    for (let b = 0; b < B; b++) seeds[b] = taskRng.nextUint32();
    const actions = new Int32Array(B);
    env.reset(seeds, dropoutRng);
    for (;;) {
      let live = 0;
      for (let b = 0; b < B; b++) live += 1 - env.done[b];
      if (live === 0) break;
      liveSteps += live;
      if (policy === 'oracle') env.oracleActions(actions);
      else randomAdmissibleActions(env, policyRng, actions);
      env.step(actions);
    }
    for (let b = 0; b < B; b++) {
      const reached = env.milestonesReached[b];
      if (env.success[b]) successCount++;
      else if (reached > 0) partialCount++;
      stepSum += env.steps[b];
      milestoneSum += reached;
      while (histogram.length <= reached) histogram.push(0);
      histogram[reached]++;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  while (histogram.length <= maxMilestones) histogram.push(0);
  const failureCount = episodes - successCount - partialCount;
  return {
    env: envName,
    horizon,
    policy,
    episodes,
    seed,
    batchSize,
    milestoneDropout: options.milestoneDropout ?? 0,
    maxSteps,
    maxMilestones,
    success: successCount / episodes,
    partial: partialCount / episodes,
    failure: failureCount / episodes,
    successCount,
    partialCount,
    failureCount,
    meanSteps: stepSum / episodes,
    meanMilestones: milestoneSum / episodes,
    milestoneHistogram: histogram,
    stepsPerSecond: seconds > 0 ? liveSteps / seconds : 0,
  };
}

/** collectStats on a registered environment (envs/index.ts). */
export function runStats(envName: string, options: StatsOptions): EpisodeStats {
  return collectStats((batchSize) => createEnv(envName, { horizon: options.horizon, batchSize, milestoneDropout: options.milestoneDropout ?? 0 }), options);
}
