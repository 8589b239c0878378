/**
 * The end of an iteration: what the record needs from the device, read in one go.
 *
 * On webgpu with the WGSL advantage kernels, the advantage details (A, A_traj, A_seg, r_t, or GiGPO's
 * parts, kept on the GPU by the engine's `computeDeferred`), the PPO statistics (`ppoUpdateDeferred`)
 * and, where they were computed on the GPU (src/gpu/credit-metrics.ts), the credit metrics are needed
 * only for the record, after the update: one staging buffer and one `mapAsync` read them all
 * (src/gpu/pending-read.ts), instead of one read-back before the update and one after it. With the
 * metrics on the GPU the details are needed only by the page's views (the trainer's `batchView`):
 * they may then stay on the GPU, unread. Elsewhere the details are already on the CPU and the
 * statistics, if pending, are read through tfjs.
 */
import type { AdvantageResult } from '../advantages/types.ts';
import type { CreditMetrics } from '../metrics/credit-metrics.ts';
import { type PendingRead, readTogether, tensorRead } from '../gpu/pending-read.ts';
import { type PendingPpoStats, type PpoStats, readPpoStats } from './ppo.ts';

/** An iteration's advantage details: on the CPU, or still on the GPU. */
export type IterationDetails = AdvantageResult | PendingRead<AdvantageResult>;

/** A policy update's statistics: read, or pending. */
export type UpdateStats = PpoStats | PendingPpoStats;

export const isPendingDetails = (d: IterationDetails): d is PendingRead<AdvantageResult> => 'sources' in d;

const isPendingStats = (s: UpdateStats): s is PendingPpoStats => 'settle' in s;

/** Reads pending values in one read-back (src/gpu/pending-read.ts `readTogether`). */
export type ReadBack = (reads: PendingRead<unknown>[]) => Promise<unknown[]>;

/** What the iteration read: the details (still pending where they were left on the GPU), the statistics, the GPU's metrics if any. */
export interface IterationValues {
  details: IterationDetails;
  stats: PpoStats;
  metrics?: CreditMetrics;
}

/**
 * The statistics, the metrics computed on the GPU (`metrics`) and the details on the CPU, with one
 * read-back for whatever is still on the GPU; with `leaveDetails` pending details are not read (the
 * caller keeps or releases them). Throws NonFiniteLossError (weights restored) as `ppoUpdate` does.
 * Every pending part that is read is freed, and every part is freed on an error. `read` reads them
 * (a seed batch reads every seed's in one read-back: src/worker/seed-runs.ts).
 */
export async function readIteration(
  details: IterationDetails,
  stats: UpdateStats,
  metrics?: PendingRead<CreditMetrics>,
  leaveDetails = false,
  read: ReadBack = readTogether,
): Promise<IterationValues> {
  const readDetails = isPendingDetails(details) && !leaveDetails ? details : null;
  const pendingStats = isPendingStats(stats) ? stats : null;
  const onGpu: PendingRead<unknown>[] = [readDetails, metrics].filter((r) => r !== null && r !== undefined);
  let values: unknown[];
  try {
    // The statistics join a read-back that happens anyway; alone they are read through tfjs (any backend).
    const statsRead = pendingStats && onGpu.length > 0 ? [tensorRead(pendingStats.tensor)] : [];
    values = await read([...onGpu, ...statsRead]);
  } catch (e) {
    releaseIteration(details);
    metrics?.release();
    pendingStats?.abandon();
    throw e;
  }
  const next = () => values.shift();
  const out: IterationValues = { details: readDetails ? (next() as AdvantageResult) : details, stats: stats as PpoStats };
  if (metrics) out.metrics = next() as CreditMetrics;
  try {
    if (pendingStats) out.stats = values.length > 0 ? pendingStats.settle(next() as Float32Array) : await readPpoStats(pendingStats);
  } catch (e) {
    releaseIteration(out.details); // details left on the GPU
    throw e;
  }
  return out;
}

/** The details, which must be on the CPU (`what` needs them: said in the error otherwise). */
export function detailsOnCpu(details: IterationDetails, what: string): AdvantageResult {
  if (isPendingDetails(details)) throw new Error(`${what} needs the advantage details, left on the GPU`);
  return details;
}

/** Frees the details if they are still on the GPU (an error ended the iteration before `readIteration`). */
export function releaseIteration(details: IterationDetails): void {
  if (isPendingDetails(details)) details.release();
}
