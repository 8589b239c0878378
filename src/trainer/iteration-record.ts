/**
 * One iteration's figures: the JSON line the CLI writes and the page plots. The field names are an
 * interface (the CLI's JSON lines, the study and the page all read them): rename none.
 */
import type { CreditMetrics } from '../metrics/credit-metrics.ts';
import type { Method } from '../methods/registry.ts';

/**
 * Where each phase of an iteration ran: the rollout and the credit metrics on the GPU's kernels or on
 * the host, the policy update on the fused WGSL kernels or on tfjs ops (`none`: iteration 0, which
 * measures the starting policy and updates nothing).
 */
export interface IterationPath {
  rollout: 'gpu' | 'host';
  update: 'fused' | 'ops' | 'none';
  metrics: 'gpu' | 'host';
}

export interface IterationRecord extends CreditMetrics {
  /** Completed iterations, 1-based. */
  iteration: number;
  method: Method;
  policyLoss: number;
  entropy: number;
  approxKl: number;
  clipFraction: number;
  gradNorm: number;
  /** GiGPO only: share of steps in step groups larger than one (anchor-state coverage, docs/maths.md §7). */
  anchorCoverage?: number;
  meanEpisodeLength: number;
  /** Environment steps of this iteration's rollout. */
  envSteps: number;
  /** Environment steps per second of rollout wall time. */
  envStepsPerSecond: number;
  /** Critic PPO only: the critic's value loss (docs/maths.md §8). */
  valueLoss?: number;
  /** Where each phase ran (absent in records written before it was recorded). */
  path?: IterationPath;
  /**
   * Why a phase did not take the GPU path it was asked for, `phase: reason` for each (joined by "; "):
   * a refusal by the kernels' limits on webgpu. Absent when every phase took the path asked for; on
   * wasm and cpu nothing asks for the GPU, so it is never there.
   */
  fallback?: string;
  /** Wall-time split of the iteration in milliseconds; `critic`: the critic's forward and backward passes. */
  ms: { rollout: number; advantage: number; update: number; critic?: number };
}

/** Keys whose values vary between identical runs (wall time), left out of determinism comparisons. */
export const TIMING_KEYS = ['ms', 'envStepsPerSecond'] as const;

/** JSON with NaN/Infinity written as null (JSON has no NaN). */
export function recordToJson(record: IterationRecord): string {
  return JSON.stringify(record, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));
}
