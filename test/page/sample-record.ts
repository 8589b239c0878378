/** An iteration record with plausible values, for tests of what the page does with records. */
import type { IterationRecord } from '../../src/trainer/iteration-record.ts';

export function sampleRecord(over: Partial<IterationRecord> & Pick<IterationRecord, 'iteration'>): IterationRecord {
  return {
    method: 'beacon',
    success: 0.25,
    partial: 0.5,
    failure: 0.25,
    sampleUtilization: 0.75,
    zeroAdvantageRatio: 0.1,
    contradictoryRatio: Number.NaN,
    contradictoryRatioSigned: Number.NaN,
    signalRetention: 0.4,
    ccr: 1.5,
    policyLoss: -0.01,
    entropy: 1.2,
    approxKl: 0.001,
    clipFraction: 0.05,
    gradNorm: 0.3,
    meanEpisodeLength: 12.5,
    envSteps: 200,
    envStepsPerSecond: 1000,
    ms: { rollout: 100, advantage: 2, update: 50 },
    ...over,
  };
}
