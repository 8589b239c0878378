/**
 * Several seeds' credit metrics (docs/maths.md §5) in one pass of each kernel and one submit: the
 * seeds of one method, each with its own GpuCreditMetrics, hand their batches to a meeting
 * (src/trainer/seed-meeting.ts), and `submitSeedMetrics` counts them all at once.
 *
 * Why this is each seed's own count: each seed's run offsets, advantages, action record and final
 * records are copied into a block of its own in joined buffers, and each workgroup of both passes
 * counts one seed's steps, runs or key-table slots (shaders/lib/credit_metrics.wgsl `seedPlace`), in
 * that seed's key table and into its own block of totals. The totals are sums of integers, which do
 * not depend on the order they are added in, so a seed's metrics are those it gets alone; its totals
 * are copied into its own buffer, whose read its GpuCreditMetrics keeps as before.
 */
import { flushTfjsQueue } from '../backend/webgpu-interop.ts';
import type { GpuBufferPool } from './buffer-pool.ts';
import { creditMetricsParams, KEY_WORDS, keyTableSlots, type SeedMetricsCall, TOTAL_WORDS, WORKGROUP } from './credit-metrics.ts';
import { FINAL_WORDS } from './final-records.ts';
import { submitDispatches } from './kernel.ts';
import { COPY_DST, COPY_SRC, STORAGE } from './buffer-usage.ts';

/** The calls' metrics, seed after seed in joined buffers from `pool`: two dispatches, the copies in and out, one submit. */
export function submitSeedMetrics(calls: readonly SeedMetricsCall[], pool: GpuBufferPool): Promise<void> {
  const [first] = calls;
  const { device, numRuns, groupSize } = first;
  const keysAt = first.records.stateKeysAt;
  const odd = calls.find((c) => c.numRuns !== numRuns || c.groupSize !== groupSize || c.records.stateKeysAt !== keysAt);
  if (odd)
    throw new Error(
      `seed metrics: seeds batched together must share their runs, groups and record layout (${numRuns}, ${groupSize}, ${keysAt}; got ${odd.numRuns}, ${odd.groupSize}, ${odd.records.stateKeysAt})`,
    );
  const K = calls.length;
  const stepStride = Math.max(...calls.map((c) => c.numSteps));
  const recordStride = Math.max(...calls.map((c) => c.records.actions.size / 4));
  const tableSlots = keyTableSlots(stepStride);
  const offsetWords = numRuns + 1;
  const finalWords = numRuns * FINAL_WORDS;
  const limit = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
  if (Math.max(K * tableSlots * KEY_WORDS, K * recordStride) * 4 > limit) return Promise.all(calls.map((c) => c.alone())).then(() => undefined);
  const input = STORAGE | COPY_DST;
  const work = STORAGE | COPY_SRC | COPY_DST;
  const buffer = (name: string, words: number, usage: number) => pool.scratchBuffer(name, 4 * Math.max(1, words), usage);
  const joined = {
    runOffsets: buffer('runOffsets', K * offsetWords, input),
    advantages: buffer('advantages', K * stepStride, input),
    actionRecord: buffer('actionRecord', K * recordStride, input),
    finals: buffer('finals', K * finalWords, input),
    keyTable: buffer('keyTable', K * tableSlots * KEY_WORDS, work),
    runSignal: buffer('runSignal', K * numRuns, work),
    totals: buffer('totals', K * TOTAL_WORDS, work),
  };
  const stepWorkgroups = Math.ceil(stepStride / WORKGROUP);
  const keyWorkgroups = Math.ceil(Math.max(tableSlots, numRuns) / WORKGROUP);
  const params = creditMetricsParams(keysAt, numRuns, groupSize, tableSlots, K, stepStride, recordStride);
  const [steps, keys] = first.runners;
  flushTfjsQueue(); // whatever tfjs queued that writes a seed's advantages runs first
  return submitDispatches(
    device,
    'seed credit metrics',
    [
      {
        runner: steps,
        buffers: {
          runOffsets: joined.runOffsets,
          advantages: joined.advantages,
          actionRecord: joined.actionRecord,
          keyTable: joined.keyTable,
          runSignal: joined.runSignal,
          totals: joined.totals,
        },
        params: { ...params, numSteps: stepStride, workgroupsPerSeed: stepWorkgroups },
        workgroups: K * stepWorkgroups,
      },
      {
        runner: keys,
        buffers: { finals: joined.finals, keyTable: joined.keyTable, runSignal: joined.runSignal, totals: joined.totals },
        params: { ...params, numSteps: stepStride, workgroupsPerSeed: keyWorkgroups },
        workgroups: K * keyWorkgroups,
      },
    ],
    (encoder) => {
      calls.forEach((c, s) => {
        encoder.copyBufferToBuffer(joined.totals, 4 * s * TOTAL_WORDS, c.totals, 0, 4 * TOTAL_WORDS);
        c.after(encoder);
      });
      // Zeroed again for the next round (new buffers start zeroed).
      for (const b of [joined.keyTable, joined.runSignal, joined.totals]) encoder.clearBuffer(b);
    },
    (encoder) => {
      calls.forEach((c, s) => {
        encoder.copyBufferToBuffer(c.records.offsets, 0, joined.runOffsets, 4 * s * offsetWords, 4 * offsetWords);
        encoder.copyBufferToBuffer(c.advantages, 0, joined.advantages, 4 * s * stepStride, 4 * c.numSteps);
        encoder.copyBufferToBuffer(c.records.actions, 0, joined.actionRecord, 4 * s * recordStride, c.records.actions.size);
        encoder.copyBufferToBuffer(c.records.finals, 0, joined.finals, 4 * s * finalWords, 4 * finalWords);
      });
    },
  );
}
