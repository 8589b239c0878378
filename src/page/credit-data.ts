/**
 * The credit view's data for one run: per step A_traj, A_seg, A and r_t, the segments the advantage
 * estimator cut at milestones (docs/maths.md §2), the incomplete tail, and the run's CCR (§5).
 */
import { creditConcentration } from '../metrics/credit-metrics.ts';
import type { BatchSnapshot } from '../worker/batch-snapshot.ts';

export interface Segment {
  /** First and last step (inclusive, run-relative). */
  from: number;
  to: number;
  /** 1-based segment index k; the tail has index K + 1. */
  k: number;
  /** False for the incomplete tail (no milestone at its end). */
  complete: boolean;
}

export interface RunCredit {
  steps: number;
  aTraj: number;
  lambda: number;
  aSeg: Float32Array;
  advantages: Float32Array;
  shapedRewards: Float32Array;
  /** Per step: 1 where a segment ends (a milestone, or a random boundary under that ablation). */
  boundaries: Uint8Array;
  segments: Segment[];
  /** CCR of this run alone (NaN when undefined). */
  ccr: number;
}

export function runCredit(snapshot: BatchSnapshot, run: number): RunCredit {
  const from = snapshot.runOffsets[run];
  const to = snapshot.runOffsets[run + 1];
  const boundaries = snapshot.boundaries.subarray(from, to);
  const advantages = snapshot.advantages.subarray(from, to);
  const segments: Segment[] = [];
  let start = 0;
  for (let t = 0; t < boundaries.length; t++) {
    if (boundaries[t]) {
      segments.push({ from: start, to: t, k: segments.length + 1, complete: true });
      start = t + 1;
    }
  }
  if (start < boundaries.length) segments.push({ from: start, to: boundaries.length - 1, k: segments.length + 1, complete: false });
  return {
    steps: to - from,
    aTraj: snapshot.aTraj[run],
    lambda: snapshot.lambda,
    aSeg: snapshot.aSeg.subarray(from, to),
    advantages,
    shapedRewards: snapshot.shapedRewards.subarray(from, to),
    boundaries,
    segments,
    ccr: creditConcentration(boundaries, advantages, 0, boundaries.length),
  };
}
