/**
 * What the page draws of a batch whose steps the host laid out only for the GPU rollout's checked
 * sample (sample-replay.ts): those runs, replayed on the host, with their advantage details read from
 * the GPU, their ranges of the details the kernels left there (one read-back of 4 · (3 · their steps +
 * their runs) bytes), instead of every run's steps and details. The episode viewer and the credit
 * view draw these runs (src/worker/batch-snapshot.ts numbers them as the batch does).
 */
import type { AdvantageResult } from '../advantages/types.ts';
import { DETAIL_PARTS } from '../gpu/advantage-estimator.ts';
import { type PendingRead, pendingRead, type ReadSource } from '../gpu/pending-read.ts';

/**
 * The details of batch runs `runs` (in that order), read from `details`: the batch's whole details
 * as the GPU estimator keeps them for a deferred read (one buffer holding DETAIL_PARTS one after
 * another), for a batch of `runOffsets`. It takes `details` over: releasing it releases them.
 */
export function sampleDetailsRead(details: PendingRead<AdvantageResult>, runOffsets: Int32Array, runs: readonly number[]): PendingRead<AdvantageResult> {
  const B = runOffsets.length - 1;
  const S = runOffsets[B];
  const counts = DETAIL_PARTS.map(([, per]) => (per === 'step' ? S : B));
  const total = counts.reduce((s, n) => s + n, 0);
  const [buffer, count, base = 0] = details.sources.length === 1 ? details.sources[0] : [null, -1];
  if (!buffer || count !== total) {
    details.release();
    throw new Error(`sampleDetailsRead: the details must be kept in one buffer of ${total} values (${DETAIL_PARTS.map(([name]) => name).join(', ')})`);
  }
  const sources: ReadSource[] = [];
  let at = base;
  DETAIL_PARTS.forEach(([, per], k) => {
    for (const b of runs) sources.push(per === 'step' ? [buffer, runOffsets[b + 1] - runOffsets[b], at + runOffsets[b]] : [buffer, 1, at + b]);
    at += counts[k];
  });
  const n = runs.length;
  return pendingRead(
    details.device,
    sources,
    (values) => {
      const part = (k: number) => {
        const pieces = values.slice(k * n, (k + 1) * n);
        const out = new Float64Array(pieces.reduce((s, p) => s + p.length, 0));
        let to = 0;
        for (const p of pieces) {
          out.set(p, to);
          to += p.length;
        }
        return out;
      };
      return Object.fromEntries(DETAIL_PARTS.map(([name], k) => [name, part(k)])) as unknown as AdvantageResult;
    },
    () => details.release(),
  );
}
