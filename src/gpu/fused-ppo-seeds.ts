/**
 * Several seeds' fused PPO updates (fused-ppo.ts) as one: the seeds of one method hand their updates
 * to a meeting (src/trainer/seed-meeting.ts; src/worker/seed-runs.ts arms it), and `SeedPpoUpdates.submit` runs each
 * of the update's kernels once for all of them, with a seed axis (the grid's z: kernel-spec.ts
 * `seeds`), in one submit: the gather, the candidate rows, the permutation, and per minibatch slot the
 * seven kernels, so an iteration's dispatches do not grow with its seeds.
 *
 * Why this is each seed's own update: every seed's weights, Adam's moments and β^t, gradients, work,
 * groups, pieces, partial sums, state and statistics, its steps' rows and its distinct candidate rows
 * lie in a part of their own of joined buffers, at bases its uniforms give (shaders/lib/ppo_batch.wgsl
 * Params); each workgroup computes for the seed of its z alone, from its own key, minibatches and
 * settings, in the order it computes alone. So a seed's weights and statistics are bit for bit those
 * of its update alone (a test checks). Its inputs are copied in (GPU-side copies, not dispatches) from
 * where its rollout, estimator and variables left them, and its results copied out into its variables
 * and its own statistics buffer. A seed with fewer minibatches than another (fewer steps than
 * minibatches) has batchSize 0 in the slots it lacks, where every kernel returns at once.
 */
import { bindableBytes } from './buffer-pool.ts';
import { COPY_DST, COPY_SRC, STORAGE } from './buffer-usage.ts';
import { CANDIDATE_ROWS, type CandidateRowsPart, recordCandidateRowParts } from './candidate-dictionary.ts';
import { copyIn, copyOut, popScopes, pushScopes, sumOf } from './fused-flat-buffers.ts';
import {
  type FusedMinibatch,
  type FusedPpoBatch,
  type FusedPpoSettings,
  type FusedPpoShape,
  type FusedPpoTargets,
  variableSizes,
  workFloats,
  writeHostRows,
} from './fused-ppo-batch.ts';
import { FUSED_PPO_KERNELS, rowGrouping, type SeedBaseName, STATE_ROWS, WORKGROUP } from './fused-ppo-kernels.ts';
import { minibatchDispatch } from './fused-ppo-params.ts';
import { FusedRunners } from './fused-runners.ts';
import type { KernelRunner } from './kernel.ts';
import { MINIBATCH_PERMUTATION, type PermutationDraw, recordPermutations } from './minibatch-permutation.ts';
import { type GatherPart, PPO_GATHER, recordPpoGathers } from './ppo-gather.ts';
import type { ShaderSources } from './shader-source.ts';

/** One seed's update, as its FusedPpoKernels would record it alone. */
export interface SeedUpdateCall {
  device: GPUDevice;
  shaders: ShaderSources;
  shape: FusedPpoShape;
  batch: FusedPpoBatch;
  minibatches: readonly FusedMinibatch[];
  settings: FusedPpoSettings;
  targets: FusedPpoTargets;
  /** The seed's own statistics buffer (5 floats), lent by its update. */
  stats: GPUBuffer;
  /** Where the seed's weights from before the update are kept, flat (its `restoreWeights` reads them). */
  snapshot: GPUBuffer;
  /** The seed's update on its own kernels and buffers in a submit of its own, where the seeds cannot be joined. */
  alone: () => Promise<void>;
}

/** Where a seed's update meets the others' (seed-meeting.ts): armed only while its seeds step together. */
export interface UpdateSeat {
  readonly armed: boolean;
  join(call: SeedUpdateCall): Promise<void>;
  leave(): void;
}

/** One seed's place in the joined buffers: its bases (elements) and its layout's sizes. */
interface SeedPart {
  call: SeedUpdateCall;
  bases: Record<SeedBaseName, number>;
  permBase: number;
  offsetBase: number;
  slotBase: number;
  tableBase: number;
  /** Record slots copied (the most that each of its record buffers holds). */
  recordSlots: number;
}

const JOINED_USAGE = STORAGE | COPY_SRC | COPY_DST;

/** Whether these calls can run as one: policies of one shape, and batches all gathered on the GPU or all written by the host (else each runs alone). */
function joinable(calls: readonly SeedUpdateCall[]): boolean {
  const [first] = calls;
  const same = (a: FusedPpoShape, b: FusedPpoShape) =>
    a.obsDim === b.obsDim && a.actionDim === b.actionDim && a.hiddenSize === b.hiddenSize && a.numActions === b.numActions;
  const gathered = (c: SeedUpdateCall) => `${!!c.batch.records}/${!!c.batch.records?.candidates}/${c.batch.perm instanceof Uint32Array}`;
  return calls.every((c) => same(c.shape, first.shape) && gathered(c) === gathered(first));
}

export class SeedPpoUpdates {
  private runners: FusedRunners | null = null;

  /** GPU buffers held: the joined buffers and the runners' uniforms. */
  get liveBuffers(): number {
    return this.runners?.liveBuffers ?? 0;
  }

  /** The calls' updates in one submit, each of the update's kernels dispatched once for every seed. */
  async submit(calls: readonly SeedUpdateCall[]): Promise<void> {
    if (calls.length === 1 || !joinable(calls)) {
      for (const c of calls) await c.alone();
      return;
    }
    const { device, shaders, shape } = calls[0];
    if (this.runners?.device !== device) {
      this.runners?.dispose();
      this.runners = new FusedRunners(device, shaders, 'fused ppo seeds', FUSED_PPO_KERNELS);
    }
    const runners = this.runners;
    const layout = this.layout(calls);
    const limit = bindableBytes(device.limits);
    if (Object.values(layout.floats).some((n) => 4 * n > limit)) {
      for (const c of calls) await c.alone();
      return;
    }
    const slots = await runners.minibatches(layout.slots);
    const [gather, rows, permutation] = await Promise.all([runners.single(PPO_GATHER), runners.single(CANDIDATE_ROWS), runners.single(MINIBATCH_PERMUTATION)]);
    const buffers = Object.fromEntries(
      Object.entries(layout.floats).map(([name, n]) => [name, runners.pool.scratchBuffer(`seeds ${name}`, 4 * Math.max(1, n), JOINED_USAGE)]),
    ) as Record<keyof typeof layout.floats, GPUBuffer>;
    for (const { call, bases, permBase } of layout.parts) writeHostRows(device.queue, shape, call.batch, buffers, bases.stepBase, permBase);
    const scopes = pushScopes(device);
    let errors: Promise<void>;
    try {
      const encoder = device.createCommandEncoder({ label: `fused ppo update (${calls.length} seeds)` });
      for (const part of layout.parts) copyPartIn(encoder, part, buffers, shape);
      encoder.clearBuffer(buffers.groups);
      const pass = encoder.beginComputePass({ label: `fused ppo update (${calls.length} seeds)` });
      const { parts } = layout;
      const batch0 = calls[0].batch;
      if (batch0.records) {
        const gatherParts: GatherPart[] = parts.map((p) => ({
          numSteps: p.call.batch.numSteps,
          numRuns: p.call.batch.records!.runOffsets.length - 1,
          offsetBase: p.offsetBase,
          slotBase: p.slotBase,
          stepBase: p.bases.stepBase,
        }));
        const bound = {
          runOffsets: buffers.runOffsets,
          obsRecord: buffers.obsRecord,
          actionRecord: buffers.actionRecord,
          logProbRecord: buffers.logProbRecord,
          obs: buffers.obs,
          actions: buffers.actions,
          oldLogProbs: buffers.oldLogProbs,
        };
        recordPpoGathers(pass, gather, WORKGROUP, shape.obsDim, bound, gatherParts);
      }
      if (batch0.records?.candidates) {
        const rowParts: CandidateRowsPart[] = parts.map((p) => ({
          numSteps: p.call.batch.numSteps,
          numRuns: p.call.batch.records!.runOffsets.length - 1,
          numCandidates: shape.numActions,
          actionDim: shape.actionDim,
          offsetBase: p.offsetBase,
          tableBase: p.tableBase,
          stepBase: p.bases.stepBase,
        }));
        recordCandidateRowParts(
          pass,
          rows,
          WORKGROUP,
          { runOffsets: buffers.runOffsets, candidateTable: buffers.candidateTable, rows: buffers.rows },
          rowParts,
        );
      }
      if (!(batch0.perm instanceof Uint32Array)) {
        const draws: PermutationDraw[] = parts.map((p) => {
          const perm = p.call.batch.perm as { key: PermutationDraw['key']; epochs: number };
          return { numSteps: p.call.batch.numSteps, epochs: perm.epochs, key: perm.key, permBase: p.permBase };
        });
        recordPermutations(pass, permutation, WORKGROUP, draws, buffers.perm);
      }
      for (let j = 0; j < layout.slots; j++) this.recordSlot(pass, slots[j], j, parts, buffers);
      pass.end();
      for (const part of parts) copyPartOut(encoder, part, buffers, shape);
      device.queue.submit([encoder.finish()]);
    } finally {
      errors = popScopes(device, scopes, `fused ppo update (${calls.length} seeds)`);
    }
    return errors;
  }

  /** Lets go of the joined buffers and the runners' uniforms (a race that ended); the next submit makes them again. */
  trim(): void {
    this.runners?.trim();
  }

  dispose(): void {
    this.runners?.dispose();
    this.runners = null;
  }

  /** Minibatch slot j of every seed: each kernel once, seed s's uniforms its own (batchSize 0 where it has no minibatch j). */
  private recordSlot(
    pass: GPUComputePassEncoder,
    runners: readonly KernelRunner<string, string>[],
    j: number,
    parts: readonly SeedPart[],
    buffers: Record<string, GPUBuffer>,
  ): void {
    const dispatches = parts.map(({ call, bases, permBase }) => {
      const { minibatches, settings } = call;
      const statsOver = settings.statsOver ?? minibatches.length;
      const mb = minibatches[Math.min(j, minibatches.length - 1)];
      const d = minibatchDispatch(call.shape, call.batch, { offset: permBase + mb.offset, size: mb.size }, j % statsOver, statsOver, settings, j === 0, bases);
      if (j >= minibatches.length) d.params.batchSize = 0;
      return d;
    });
    const active = dispatches.filter((d) => d.params.batchSize > 0);
    FUSED_PPO_KERNELS.forEach((_, k) => {
      const runner = runners[k];
      const group = runner.prepareSeeds(
        Object.fromEntries(runner.spec.storage.map(([name]) => [name, buffers[name]])),
        dispatches.map((d) => d.params),
      );
      runner.record(pass, group, Math.max(...active.map((d) => d.workgroups[k])), parts.length);
    });
  }

  /** Every seed's bases, and each joined buffer's size in floats (or words). */
  private layout(calls: readonly SeedUpdateCall[]) {
    const { shape } = calls[0];
    const { obsDim: D, actionDim: F, hiddenSize: H, numActions: A } = shape;
    const weightCount = sumOf(variableSizes(shape));
    const slots = Math.max(...calls.map((c) => c.minibatches.length));
    const stateStride = STATE_ROWS + 5 * slots;
    const at = { work: 0, groups: 0, pieces: 0, partials: 0, steps: 0, rows: 0, perm: 0, offsets: 0, slots: 0, table: 0 };
    const parts: SeedPart[] = calls.map((call, s) => {
      const { batch } = call;
      const largest = Math.max(...call.minibatches.map((m) => m.size));
      const grouping = rowGrouping(batch.numSteps, A, batch.numRows, H, F, D, largest);
      const records = batch.records;
      const recordSlots = records ? Math.floor(Math.min(records.obs.size / (4 * D), records.actions.size / 4, records.logProbs.size / 4)) : 0;
      const part: SeedPart = {
        call,
        bases: {
          weightBase: s * weightCount,
          workBase: at.work,
          groupBase: at.groups,
          pieceBase: at.pieces,
          partialBase: at.partials,
          stepBase: at.steps,
          rowBase: at.rows,
          stateBase: s * stateStride,
          statsBase: s * 5,
        },
        permBase: at.perm,
        offsetBase: at.offsets,
        slotBase: at.slots,
        tableBase: at.table,
        recordSlots,
      };
      at.work += workFloats(largest, batch.numRows, H, A);
      at.groups += grouping.groupWords;
      at.pieces += grouping.pieceFloats;
      at.partials += grouping.partialFloats;
      at.steps += batch.numSteps;
      at.rows += batch.numRows;
      at.perm += batch.perm instanceof Uint32Array ? batch.perm.length : batch.numSteps * batch.perm.epochs;
      at.offsets += records ? records.runOffsets.length : 0;
      at.slots += recordSlots;
      at.table += records?.candidates ? records.candidates.table.size / 4 : 0;
      return part;
    });
    const seeds = calls.length;
    const floats = {
      weights: seeds * weightCount,
      firstMoment: seeds * weightCount,
      secondMoment: seeds * weightCount,
      grads: seeds * weightCount,
      state: seeds * stateStride,
      statsOut: seeds * 5,
      work: at.work,
      groups: at.groups,
      pieces: at.pieces,
      partials: at.partials,
      obs: at.steps * D,
      rows: at.steps * A,
      actions: at.steps,
      oldLogProbs: at.steps,
      advantages: at.steps,
      features: at.rows * F,
      perm: at.perm,
      runOffsets: at.offsets,
      obsRecord: at.slots * D,
      actionRecord: at.slots,
      logProbRecord: at.slots,
      candidateTable: at.table,
    };
    return { parts, slots, floats };
  }
}

/** A seed's weights, moments and β^t, its batch's advantages, candidate rows and rollout records into its parts of the joined buffers. */
function copyPartIn(encoder: GPUCommandEncoder, part: SeedPart, b: Record<string, GPUBuffer>, shape: FusedPpoShape): void {
  const { call, bases } = part;
  const { targets, batch } = call;
  const sizes = variableSizes(shape);
  copyIn(encoder, targets, { weights: b.weights, firstMoment: b.firstMoment, secondMoment: b.secondMoment, state: b.state }, sizes, bases);
  encoder.copyBufferToBuffer(b.weights, 4 * bases.weightBase, call.snapshot, 0, 4 * sumOf(sizes));
  // Behaviour cloning reads no advantages (docs/maths.md §9).
  if (call.settings.lossKind !== 'cloning') encoder.copyBufferToBuffer(batch.advantages, 0, b.advantages, 4 * bases.stepBase, 4 * batch.numSteps);
  if (batch.numRows > 0) encoder.copyBufferToBuffer(batch.features, 0, b.features, 4 * bases.rowBase * shape.actionDim, 4 * batch.numRows * shape.actionDim);
  const records = batch.records;
  if (!records) return;
  encoder.copyBufferToBuffer(records.offsets, 0, b.runOffsets, 4 * part.offsetBase, 4 * records.runOffsets.length);
  encoder.copyBufferToBuffer(records.obs, 0, b.obsRecord, 4 * part.slotBase * shape.obsDim, 4 * part.recordSlots * shape.obsDim);
  encoder.copyBufferToBuffer(records.actions, 0, b.actionRecord, 4 * part.slotBase, 4 * part.recordSlots);
  encoder.copyBufferToBuffer(records.logProbs, 0, b.logProbRecord, 4 * part.slotBase, 4 * part.recordSlots);
  if (records.candidates) encoder.copyBufferToBuffer(records.candidates.table, 0, b.candidateTable, 4 * part.tableBase, records.candidates.table.size);
}

/** A seed's updated weights, moments and β^t back into its variables, its statistics into its own buffer. */
function copyPartOut(encoder: GPUCommandEncoder, part: SeedPart, b: Record<string, GPUBuffer>, shape: FusedPpoShape): void {
  const { bases, call } = part;
  copyOut(encoder, call.targets, { weights: b.weights, firstMoment: b.firstMoment, secondMoment: b.secondMoment, state: b.state }, variableSizes(shape), bases);
  encoder.copyBufferToBuffer(b.statsOut, 4 * bases.statsBase, call.stats, 0, 20);
}
