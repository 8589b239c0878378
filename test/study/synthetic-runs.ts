/**
 * Synthetic study runs for the study's tests: a run of a given shape (plateau, rise, utilisation,
 * contradictory ratio, signal retention, critic cost) with deterministic per-seed noise, built into
 * a matrix of scenarios, and the paper's picture (PAPER) under which every claim should hold.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import { FULL_PROFILE } from '../../src/study/profile.ts';
import { runSpec } from '../../src/study/matrix.ts';
import { summarizeRun, type IterationFigures, type RunResult } from '../../src/study/summary.ts';
import type { VariantName } from '../../src/study/variants.ts';

export interface Shape {
  /** Plateau success. */
  level: number;
  /** Iterations to reach the plateau (linear ramp from 0). */
  rise?: number;
  util?: number;
  zero?: number;
  contradictory?: number;
  retention?: number;
  /** Critic ms per iteration (critic PPO's extra cost). */
  critic?: number;
}

export const ITERS = 30;
export const STEPS_PER_ITERATION = 100;
export const COMPARED: readonly VariantName[] = FULL_PROFILE.variants;

export function records(shape: Shape, seed: number): IterationFigures[] {
  const rise = shape.rise ?? 10;
  const noise = (((seed * 7) % 5) - 2) * 0.004; // deterministic, different per seed: sd > 0
  return Array.from({ length: ITERS }, (_, i) => {
    const success = Math.min(1, Math.max(0, shape.level * Math.min(1, (i + 1) / rise) + noise));
    return {
      success,
      partial: (1 - success) / 2,
      failure: (1 - success) / 2,
      sampleUtilization: shape.util ?? 0.5,
      zeroAdvantageRatio: shape.zero ?? 0.5,
      contradictoryRatio: i === 3 ? NaN : (shape.contradictory ?? 0.3) * (i < 10 ? 1 : 0.5),
      contradictoryRatioSigned: i === 3 ? NaN : (shape.contradictory ?? 0.3) * (i < 10 ? 1.2 : 0.6),
      signalRetention: shape.retention ?? 0.3,
      ccr: 1,
      meanEpisodeLength: 20 + i,
      envSteps: STEPS_PER_ITERATION,
      ms: { rollout: 10, advantage: 1, update: 10, ...(shape.critic ? { critic: shape.critic } : {}) },
    };
  });
}

export function fakeRun(env: EnvName, horizon: Horizon, variant: VariantName, seed: number, shape: Shape): RunResult {
  return {
    ...summarizeRun(runSpec(env, horizon, variant, seed), records(shape, seed), 1, {
      envStepBudget: ITERS * STEPS_PER_ITERATION,
      start: { success: 0.05, partial: 0.5 },
    }),
    commit: 'a'.repeat(40),
  };
}

export type Scenario = Partial<Record<Horizon, Partial<Record<VariantName, Shape>>>>;

export function build(scenario: Scenario, seeds = 5, envs: EnvName[] = ['gridhouse', 'texthouse']): RunResult[] {
  const runs: RunResult[] = [];
  for (const env of envs)
    for (const [horizon, variants] of Object.entries(scenario) as [Horizon, Partial<Record<VariantName, Shape>>][]) {
      for (const [variant, shape] of Object.entries(variants) as [VariantName, Shape][]) {
        for (let seed = 1; seed <= seeds; seed++) runs.push(fakeRun(env, horizon, variant, seed, shape));
      }
    }
  return runs;
}

export const others = (level: number): Partial<Record<VariantName, Shape>> => ({
  gigpo: { level },
  ppo: { level, critic: 30 },
  ppoShaped: { level, critic: 30 },
  sft: { level },
});

/** The paper's picture: every claim should hold. */
export const PAPER: Scenario = {
  short: { grpo: { level: 0.7 }, beacon: { level: 0.8 }, beaconReleased: { level: 0.8 }, ...others(0.7), gigpo: { level: 0.75 } },
  medium: { grpo: { level: 0.5 }, beacon: { level: 0.75 }, beaconReleased: { level: 0.75 }, ...others(0.5) },
  long: {
    grpo: { level: 0.3, util: 0.2, zero: 0.55, contradictory: 0.5, retention: 0.15 },
    beacon: { level: 0.9, rise: 5, util: 0.8, zero: 0.1, retention: 0.5 },
    beaconReleased: { level: 0.85 },
    ...others(0.5),
    ppoShaped: { level: 0.6, critic: 30 },
    sft: { level: 0.4 },
    gamma1: { level: 0.3, util: 0.2, zero: 0.55, contradictory: 0.5, retention: 0.15 },
    gamma0: { level: 0.8 },
    randomSegments: { level: 0.32 },
    milestoneDropout: { level: 0.75 },
    noTrajectoryTerm: { level: 0.1 },
    stepMean: { level: 0.85 },
  },
};
