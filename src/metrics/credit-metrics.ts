/**
 * The paper's credit-assignment metrics for one batch: docs/maths.md §5.
 *
 * Pure functions of a finished batch and its advantages; no tfjs, no DOM. A metric that is undefined
 * for a batch (no repeated keys, no milestone steps) is NaN, written as null in JSON.
 */
import { ZERO_ADVANTAGE, type AdvantageBatch } from '../advantages/types.ts';

export interface CreditMetricsInput {
  /** The batch as the advantages saw it (milestones after dropout / random segmentation). */
  batch: AdvantageBatch;
  /** Per step A(i, t). */
  advantages: ArrayLike<number>;
  /** Per run: 1 if the task was solved. */
  success: Uint8Array;
  /** Per run: milestones the environment reported (for the outcome mix). */
  milestonesReached: ArrayLike<number>;
  /** Per step: the environment's key of the state the action was taken in. */
  stateKeys: Uint32Array;
  /** Per step: the action index taken. */
  actions: Int32Array;
}

export interface CreditMetrics {
  /** Share of runs: full success / partial success (K ≥ 1, not solved) / complete failure (K = 0). */
  success: number;
  partial: number;
  failure: number;
  /** Share of runs with at least one step where |A| ≥ 1e-6: runs that teach the policy something (§5). */
  sampleUtilization: number;
  /** Share of steps with |A| < 1e-6. */
  zeroAdvantageRatio: number;
  /** Among (group, state, action) keys seen in ≥ 2 runs, the share whose advantages take both signs. */
  contradictoryRatio: number;
  /**
   * The same ratio over the keys that have a sign: keys whose advantages are all |A| < 1e-6 are left out of
   * the denominator (they can be neither consistent nor contradictory; docs/maths.md §5, §11).
   */
  contradictoryRatioSigned: number;
  /** Σ_keys |Σ A| / Σ_keys Σ |A| over the same keys. */
  signalRetention: number;
  /** Mean |A| of milestone steps / mean |A| of the other steps. */
  ccr: number;
}

/** Every field of CreditMetrics, in the order `creditMetrics` returns them. */
export const CREDIT_METRIC_NAMES = [
  'success',
  'partial',
  'failure',
  'sampleUtilization',
  'zeroAdvantageRatio',
  'contradictoryRatio',
  'contradictoryRatioSigned',
  'signalRetention',
  'ccr',
] as const satisfies readonly (keyof CreditMetrics)[];

export function creditMetrics(input: CreditMetricsInput): CreditMetrics {
  const { batch, advantages, success, milestonesReached } = input;
  const runs = success.length;
  let solved = 0;
  let partial = 0;
  let utilised = 0;
  for (let i = 0; i < runs; i++) {
    if (success[i]) solved++;
    else if (milestonesReached[i] > 0) partial++;
    if (hasSignal(batch.runOffsets, advantages, i)) utilised++;
  }
  const steps = advantages.length;
  let zero = 0;
  for (let t = 0; t < steps; t++) if (Math.abs(advantages[t]) < ZERO_ADVANTAGE) zero++;
  return {
    success: solved / runs,
    partial: partial / runs,
    failure: (runs - solved - partial) / runs,
    sampleUtilization: utilised / runs,
    zeroAdvantageRatio: zero / steps,
    ...contradiction(input),
    ccr: creditConcentration(batch.milestones, advantages, 0, steps),
  };
}

/** Effective sample utilisation counts a run when any of its steps carries |A| ≥ 1e-6 (docs/maths.md §5). */
function hasSignal(runOffsets: Int32Array, advantages: ArrayLike<number>, run: number): boolean {
  for (let t = runOffsets[run]; t < runOffsets[run + 1]; t++) if (Math.abs(advantages[t]) >= ZERO_ADVANTAGE) return true;
  return false;
}

/** CCR over steps from … to−1: mean |A| at milestone steps over mean |A| elsewhere (NaN if undefined). */
export function creditConcentration(milestones: Uint8Array, advantages: ArrayLike<number>, from: number, to: number): number {
  let milestoneSum = 0;
  let milestoneCount = 0;
  let otherSum = 0;
  let otherCount = 0;
  for (let t = from; t < to; t++) {
    const a = Math.abs(advantages[t]);
    if (milestones[t]) {
      milestoneSum += a;
      milestoneCount++;
    } else {
      otherSum += a;
      otherCount++;
    }
  }
  if (milestoneCount === 0 || otherCount === 0 || otherSum === 0) return NaN;
  return milestoneSum / milestoneCount / (otherSum / otherCount);
}

interface KeyStats {
  firstRun: number;
  manyRuns: boolean;
  sum: number;
  sumAbs: number;
  positive: boolean;
  negative: boolean;
}

function contradiction(input: CreditMetricsInput): Pick<CreditMetrics, 'contradictoryRatio' | 'contradictoryRatioSigned' | 'signalRetention'> {
  const { batch, advantages, stateKeys, actions } = input;
  const keys = new Map<number, KeyStats>();
  for (let g = 0; g + 1 < batch.groupOffsets.length; g++) {
    for (let i = batch.groupOffsets[g]; i < batch.groupOffsets[g + 1]; i++) {
      for (let t = batch.runOffsets[i]; t < batch.runOffsets[i + 1]; t++) {
        // (group, action, state) packed into one exact integer below 2^53: group < 2^13, action < 2^8.
        const key = (g * 256 + actions[t]) * 4294967296 + stateKeys[t];
        const a = advantages[t];
        let s = keys.get(key);
        if (!s) {
          s = { firstRun: i, manyRuns: false, sum: 0, sumAbs: 0, positive: false, negative: false };
          keys.set(key, s);
        }
        if (s.firstRun !== i) s.manyRuns = true;
        s.sum += a;
        s.sumAbs += Math.abs(a);
        if (a >= ZERO_ADVANTAGE) s.positive = true;
        if (a <= -ZERO_ADVANTAGE) s.negative = true;
      }
    }
  }
  let shared = 0;
  let signed = 0;
  let contradictory = 0;
  let net = 0;
  let gross = 0;
  for (const s of keys.values()) {
    if (!s.manyRuns) continue;
    shared++;
    if (s.positive || s.negative) signed++;
    if (s.positive && s.negative) contradictory++;
    net += Math.abs(s.sum);
    gross += s.sumAbs;
  }
  return {
    contradictoryRatio: shared > 0 ? contradictory / shared : NaN,
    contradictoryRatioSigned: signed > 0 ? contradictory / signed : NaN,
    signalRetention: gross > 0 ? net / gross : NaN,
  };
}
