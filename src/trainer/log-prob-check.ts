/**
 * A check on every GPU rollout: the log-probabilities the GPU recorded for its sampled actions, which
 * the update takes as π_old (docs/maths.md §4), against the policy itself, on a seeded sample of runs.
 * The policy is evaluated in plain arithmetic (plain-policy.ts) at the weights the rollout acted with,
 * on the replay's observations and candidates, so the check needs no tfjs pass and no read-back of
 * its own. A difference over the tolerance is a GPU fault: it throws GpuKernelError, and a run moves
 * to wasm from its last completed iteration, as for a replay that does not match.
 */
import { GpuKernelError } from '../gpu/kernel.ts';
import { type PermutationKey, permutedIndex } from '../gpu/minibatch-permutation.ts';
import { PlainPolicy } from '../policy/plain-policy.ts';
import type { PolicyShape } from '../policy/policy.ts';
import type { Rollout } from './rollout.ts';

/** Runs checked per rollout, whatever the batch (fewer at large widths: CHECK_BUDGET). */
export const CHECKED_RUNS = 8;
/**
 * Multiply-adds the check may spend per rollout, counted as if every input were non-zero (they are
 * mostly zeros, so it costs less: about 10–40 ms of plain arithmetic on a slow core). At width 64
 * and 128 it covers 8 runs of the longest horizon (1,024 steps); a step costs about H² more at
 * larger widths, so fewer runs are checked there, always at least one.
 */
export const CHECK_BUDGET = 36e6;
/** The largest difference allowed between a recorded log-probability and the policy's (float32 sums against float64). */
export const LOG_PROB_TOLERANCE = 1e-4;

/**
 * The runs a rollout's check covers: the first `count` of a keyed permutation of its runs (the
 * minibatches' bijection, minibatch-permutation.ts), keyed by the rollout's own key, so the sample is
 * seeded and reproducible and draws from no stream; cut where the next run's steps would take the
 * check over CHECK_BUDGET (at least one run).
 */
export function checkedRuns(runOffsets: Int32Array, key: PermutationKey, shape: PolicyShape, count = CHECKED_RUNS): number[] {
  const numRuns = runOffsets.length - 1;
  const { obsDim: D, actionDim: F, hiddenSize: H } = shape;
  const perStep = D * H + H * H + F * H; // an upper bound: the observation tower, and a new candidate row's
  const runs: number[] = [];
  let spent = 0;
  for (let i = 0; i < Math.min(count, numRuns); i++) {
    const b = permutedIndex(i, numRuns, key, 0);
    spent += (runOffsets[b + 1] - runOffsets[b]) * perStep;
    if (runs.length > 0 && spent > CHECK_BUDGET) break;
    runs.push(b);
  }
  return runs;
}

/**
 * Throws GpuKernelError naming the first step of `runs` whose recorded log-probability differs from
 * the policy's at `weights` (flat, `Policy.variables` order) by more than LOG_PROB_TOLERANCE. `runName`:
 * the run's number in the message (the batch's, where `rollout` holds a sample of its runs).
 */
export function checkLogProbs(
  rollout: Pick<Rollout, 'obs' | 'candidates' | 'candidateRows' | 'mask' | 'actions' | 'logProbs' | 'runOffsets'>,
  weights: Float32Array,
  shape: PolicyShape,
  runs: readonly number[],
  runName: (b: number) => number = (b) => b,
): void {
  const policy = new PlainPolicy(weights, shape);
  const A = rollout.mask.length / rollout.actions.length;
  const rows = new Int32Array(A);
  for (const b of runs) {
    for (let s = rollout.runOffsets[b]; s < rollout.runOffsets[b + 1]; s++) {
      for (let a = 0; a < A; a++) rows[a] = rollout.mask[s * A + a] ? rollout.candidateRows[s * A + a] : -1;
      const h = policy.observation(rollout.obs, s * shape.obsDim);
      const want = policy.logProb(h, rollout.candidates, rows, rollout.actions[s]);
      const got = rollout.logProbs[s];
      if (!(Math.abs(got - want) <= LOG_PROB_TOLERANCE))
        throw new GpuKernelError(
          'gpu rollout',
          `run ${runName(b)}, step ${s - rollout.runOffsets[b]}: the GPU recorded log-probability ${got} for action ${rollout.actions[s]}, the policy gives ${want} (tolerance ${LOG_PROB_TOLERANCE})`,
        );
    }
  }
}
