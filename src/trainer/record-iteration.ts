/**
 * An iteration's record (iteration-record.ts) from what the trainer has at its end: the rollout, the
 * advantage batch and details, the update's statistics, the timings, and the credit metrics of
 * docs/maths.md §5 where the GPU computed them (else they are computed here from the details).
 */
import type { AdvantageBatch } from '../advantages/types.ts';
import type { Method } from '../methods/registry.ts';
import { creditMetrics, type CreditMetrics } from '../metrics/credit-metrics.ts';
import type { IterationRoute } from './iteration-path.ts';
import type { IterationRecord } from './iteration-record.ts';
import { detailsOnCpu, isPendingDetails, type IterationDetails } from './iteration-read-back.ts';
import type { PpoStats } from './ppo.ts';
import { rolloutSteps, type Rollout } from './rollout.ts';

/**
 * `route`: where each phase ran (iteration-path.ts). `metrics`: the credit metrics computed on the GPU; else `result` is on the CPU and they are computed
 * from it. `anchorCoverage`: GiGPO's, where the engine knew it without the details.
 */
export function recordIteration(
  iteration: number,
  method: Method,
  rollout: Rollout,
  batch: AdvantageBatch,
  result: IterationDetails,
  stats: PpoStats & { valueLoss?: number },
  ms: IterationRecord['ms'],
  route: IterationRoute,
  metrics?: CreditMetrics,
  anchorCoverage?: number,
): IterationRecord {
  const S = rolloutSteps(rollout);
  const onCpu = isPendingDetails(result) ? undefined : result;
  const credit =
    metrics ??
    creditMetrics({
      batch,
      advantages: detailsOnCpu(result, 'the CPU’s credit metrics').advantages,
      success: rollout.success,
      milestonesReached: rollout.milestonesReached,
      stateKeys: rollout.stateKeys,
      actions: rollout.actions,
    });
  const coverage = anchorCoverage ?? onCpu?.anchorCoverage;
  return {
    iteration,
    method,
    ...credit,
    ...stats,
    ...(coverage === undefined ? {} : { anchorCoverage: coverage }),
    meanEpisodeLength: S / rollout.numRuns,
    envSteps: S,
    envStepsPerSecond: S / (ms.rollout / 1000),
    ...route.fields(),
    ms,
  };
}
