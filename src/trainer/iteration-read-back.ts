/**
 * The end of an iteration: what the metrics need from the device, read in one go.
 *
 * On webgpu with the WGSL advantage kernels, the advantage details (A, A_traj, A_seg, r_t, or GiGPO's
 * parts, kept on the GPU by the engine's `computeDeferred`) and the PPO statistics (`ppoUpdateDeferred`)
 * are needed only for the record, after the update: one staging buffer and one `mapAsync` read both
 * (src/gpu/pending-read.ts), instead of one read-back before the update and one after it. Elsewhere the
 * details are already on the CPU and the statistics, if pending, are read through tfjs.
 */
import type { AdvantageResult } from '../advantages/types.ts';
import { type PendingRead, readTogether, tensorRead } from '../gpu/pending-read.ts';
import { type PendingPpoStats, type PpoStats, readPpoStats } from './ppo.ts';

/** An iteration's advantage details: on the CPU, or still on the GPU. */
export type IterationDetails = AdvantageResult | PendingRead<AdvantageResult>;

/** A policy update's statistics: read, or pending. */
export type UpdateStats = PpoStats | PendingPpoStats;

export const isPendingDetails = (d: IterationDetails): d is PendingRead<AdvantageResult> => 'sources' in d;

const isPendingStats = (s: UpdateStats): s is PendingPpoStats => 'settle' in s;

/**
 * The details and statistics on the CPU: with one read-back for whatever is still on the GPU. Throws
 * NonFiniteLossError (weights restored) as `ppoUpdate` does. Every pending part is read or freed.
 */
export async function readIteration(details: IterationDetails, stats: UpdateStats): Promise<{ result: AdvantageResult; stats: PpoStats }> {
  if (!isPendingStats(stats)) {
    return { result: isPendingDetails(details) ? (await readTogether([details]))[0] : details, stats };
  }
  if (!isPendingDetails(details)) {
    return { result: details, stats: await readPpoStats(stats) };
  }
  let values: Float32Array;
  let result: AdvantageResult;
  try {
    [result, values] = await readTogether<[AdvantageResult, Float32Array]>([details, tensorRead(stats.tensor)]);
  } catch (e) {
    details.release();
    stats.abandon();
    throw e;
  }
  return { result, stats: stats.settle(values) };
}

/** Frees the details if they are still on the GPU (an error ended the iteration before `readIteration`). */
export function releaseIteration(details: IterationDetails): void {
  if (isPendingDetails(details)) details.release();
}
