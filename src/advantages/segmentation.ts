/**
 * Milestones, segments and temporal reward shaping: docs/maths.md §2–3.
 *
 * For run i with milestone steps t_1 < … < t_K (t_0 = −1), completed segment k holds steps
 * t_{k−1}+1 … t_k (length L_k = t_k − t_{k−1}); steps after t_K form the incomplete segment K+1.
 * Inside completed segments r_t = R_ms · γ^(t_k − t); the incomplete segment gets r_t = 0.
 */
import { numRuns, numSteps, type AdvantageBatch } from './types.ts';

export interface Segmentation {
  /** Per step: 1-based segment index k; steps of the incomplete tail get K_i + 1. */
  segmentIndex: Int32Array;
  /** Per step: length of the segment the step belongs to (the tail's own length for tail steps). */
  segmentLength: Int32Array;
  /** Per step: 1 if the step lies in a completed segment. */
  completed: Uint8Array;
  /** Per run: K_i, the number of milestones reached. */
  milestoneCount: Int32Array;
  /** Per step: shaped reward r_t. */
  shapedRewards: Float64Array;
}

/** r_t for a step `stepsToMilestone` = t_k − t steps before its segment's milestone (§3). */
function shapedReward(rMs: number, gamma: number, stepsToMilestone: number): number {
  return rMs * Math.pow(gamma, stepsToMilestone);
}

/**
 * ρ_k = R_k / L = R_ms (1 − γ^L) / (L (1 − γ)), the per-step return of a completed segment of length L
 * (§3). The closed form, with its γ = 1 limit R_ms, is exact where summing L rewards and dividing is
 * not, which keeps A_seg ≡ 0 exactly at γ = 1 (§4, consequence 1).
 */
export function perStepReturn(rMs: number, gamma: number, length: number): number {
  if (gamma === 1) return rMs;
  return (rMs * (1 - Math.pow(gamma, length))) / (length * (1 - gamma));
}

export function segmentRuns(batch: AdvantageBatch, rMs: number, gamma: number): Segmentation {
  const steps = numSteps(batch);
  const runs = numRuns(batch);
  const { runOffsets, milestones } = batch;
  const seg: Segmentation = {
    segmentIndex: new Int32Array(steps),
    segmentLength: new Int32Array(steps),
    completed: new Uint8Array(steps),
    milestoneCount: new Int32Array(runs),
    shapedRewards: new Float64Array(steps),
  };
  for (let i = 0; i < runs; i++) {
    const start = runOffsets[i];
    const end = runOffsets[i + 1];
    let k = 1;
    let segmentStart = start;
    for (let t = start; t < end; t++) {
      if (milestones[t] === 0) continue;
      // Completed segment k: steps segmentStart … t, milestone at t.
      for (let s = segmentStart; s <= t; s++) {
        seg.segmentIndex[s] = k;
        seg.segmentLength[s] = t - segmentStart + 1;
        seg.completed[s] = 1;
        seg.shapedRewards[s] = shapedReward(rMs, gamma, t - s);
      }
      k++;
      segmentStart = t + 1;
    }
    seg.milestoneCount[i] = k - 1;
    for (let s = segmentStart; s < end; s++) {
      seg.segmentIndex[s] = k; // the incomplete segment K_i + 1, r_t = 0
      seg.segmentLength[s] = end - segmentStart;
    }
  }
  return seg;
}
