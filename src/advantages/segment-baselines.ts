/**
 * Segment-level advantage A_seg(i, t) = r_t − baseline: docs/maths.md §4, two baselines.
 *
 * perStepReturn (paper, default): b_k = mean of ρ_k(j) over G_k = { j in the group : K_j ≥ k }; steps
 *   of completed segment k get r_t − b_k; the incomplete tail gets 0 (its run is in no G_{K_i+1}).
 * stepMean (released code): the mean of r_s over every step s with segment index k in the group, tail
 *   steps (r = 0) included and step-weighted; every step, tail included, gets r_t − that mean.
 */
import { perStepReturn, type Segmentation } from './segmentation.ts';
import type { AdvantageBatch, SegmentBaseline } from './types.ts';

export function segmentAdvantages(batch: AdvantageBatch, seg: Segmentation, baseline: SegmentBaseline, rMs: number, gamma: number): Float64Array {
  const aSeg = new Float64Array(seg.shapedRewards.length);
  for (let g = 0; g + 1 < batch.groupOffsets.length; g++) {
    const runStart = batch.groupOffsets[g];
    const runEnd = batch.groupOffsets[g + 1];
    if (baseline === 'perStepReturn') perStepReturnBaselines(batch, seg, runStart, runEnd, rMs, gamma, aSeg);
    else stepMeanBaselines(batch, seg, runStart, runEnd, aSeg);
  }
  return aSeg;
}

/** Runs `runStart … runEnd−1` are one group. Means are shifted by the first value (see group-stats.ts). */
function perStepReturnBaselines(
  batch: AdvantageBatch,
  seg: Segmentation,
  runStart: number,
  runEnd: number,
  rMs: number,
  gamma: number,
  aSeg: Float64Array,
): void {
  const { runOffsets } = batch;
  let maxK = 0;
  for (let j = runStart; j < runEnd; j++) maxK = Math.max(maxK, seg.milestoneCount[j]);
  // cursor[n] is the first step of run (runStart + n)'s segment k; it advances one segment per k.
  const cursor = Int32Array.from({ length: runEnd - runStart }, (_, n) => runOffsets[runStart + n]);
  const baselines = new Float64Array(maxK + 1);
  for (let k = 1; k <= maxK; k++) {
    let first = NaN;
    let shiftedSum = 0;
    let members = 0;
    for (let j = runStart; j < runEnd; j++) {
      if (seg.milestoneCount[j] < k) continue;
      const rho = perStepReturn(rMs, gamma, seg.segmentLength[cursor[j - runStart]]);
      if (members === 0) first = rho;
      else shiftedSum += rho - first;
      members++;
    }
    baselines[k] = first + shiftedSum / members;
    for (let j = runStart; j < runEnd; j++) {
      if (seg.milestoneCount[j] >= k) cursor[j - runStart] += seg.segmentLength[cursor[j - runStart]];
    }
  }
  for (let t = runOffsets[runStart]; t < runOffsets[runEnd]; t++) {
    if (seg.completed[t]) aSeg[t] = seg.shapedRewards[t] - baselines[seg.segmentIndex[t]];
  }
}

function stepMeanBaselines(batch: AdvantageBatch, seg: Segmentation, runStart: number, runEnd: number, aSeg: Float64Array): void {
  const from = batch.runOffsets[runStart];
  const to = batch.runOffsets[runEnd];
  let maxIndex = 0;
  for (let t = from; t < to; t++) maxIndex = Math.max(maxIndex, seg.segmentIndex[t]);
  const first = new Float64Array(maxIndex + 1).fill(NaN);
  const shiftedSum = new Float64Array(maxIndex + 1);
  const count = new Int32Array(maxIndex + 1);
  for (let t = from; t < to; t++) {
    const k = seg.segmentIndex[t];
    const r = seg.shapedRewards[t];
    if (count[k] === 0) first[k] = r;
    else shiftedSum[k] += r - first[k];
    count[k]++;
  }
  for (let t = from; t < to; t++) {
    const k = seg.segmentIndex[t];
    aSeg[t] = seg.shapedRewards[t] - (first[k] + shiftedSum[k] / count[k]);
  }
}
