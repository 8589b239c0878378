/**
 * The PPO update of docs/maths.md §4 as seven WGSL kernels per minibatch (shaders/ppo-*.wgsl), on one
 * GPUDevice: both towers' forward passes, the masked log-softmax, the clipped surrogate with the
 * entropy bonus and the k3 KL penalty, their backward pass, the weight-gradient reductions, the global
 * gradient norm with its statistics, and Adam with global-norm clipping. src/trainer/ppo.ts is the
 * reference (tfjs ops and autodiff); the values agree up to float32 rounding (a test checks).
 *
 *   1. ppo-forward                 (32 rows)     a1, h per minibatch row; g1, e per distinct candidate row
 *   2. ppo-step-loss               (32 rows)     logits, log-softmax, loss terms, dScore, dz2, dz1
 *   3. ppo-step-grads              (per tile)    dW1, db1, dW2, db2 summed per span of rows
 *   4. ppo-candidate-grads         (per chunk)   de as a segmented sum over the pairs grouped by row; the spans' sums added
 *   5. ppo-candidate-input-grads   (per tile)    de, du1; dV1, dc1, dV2, dc2 summed per tile of rows
 *   6. ppo-grad-norm               (1 workgroup) the tiles' sums, ‖g‖, the statistics, Adam's β^t
 *   7. ppo-adam                    (per weight)  clipped Adam step on the flat weights and moments
 *
 * The candidate embeddings' gradient is a segmented sum over the batch's (step, candidate) pairs
 * grouped by distinct row, so it costs the pairs × width, never steps × distinct rows: the update's
 * first minibatch groups them on its way (kernels 1–3 count, scan and place them; shaders/lib/
 * ppo_batch.wgsl groupOffsets), in pair order, so the update gives the same bits every run.
 *
 * With `lossKind: 'cloning'` kernel 2 differentiates behaviour cloning's cross-entropy instead
 * (docs/maths.md §9; src/trainer/cloning-fused.ts); the other six are the same for both losses.
 * Kernels 1, 3, 6 and 7, and the helpers below that copy the variables in and out, also run critic
 * PPO's value network (fused-critic.ts).
 *
 * The batch's per-step observations, actions and old log-probabilities come from the host, or are
 * gathered first, in one more dispatch, from where a GPU rollout left them (ppo-gather.ts); so do
 * its candidate rows, from the rollout's dictionary (candidate-dictionary.ts). The
 * minibatches are contiguous slices of every epoch's order of the steps, which the update either
 * gets from the host or draws, in one more dispatch, from a key (minibatch-permutation.ts: a
 * counter-based permutation with a CPU twin). The whole update (the gather, the permutation, every
 * minibatch of every epoch) is recorded into one command buffer and submitted once: each minibatch
 * has uniforms of its own (a runner per minibatch slot; the pipelines are compiled once per device
 * and shared, kernel.ts). The weights and Adam's moments are copied from the callers' buffers (the
 * tfjs variables') into flat buffers first and back after, GPU-side copies, not dispatches; a copy
 * of the weights from before the update is kept for `restoreWeights`.
 *
 * Every kernel has a seed axis (the grid's z, one Params per seed: kernel-spec.ts `seeds`): here one
 * seed runs alone, every base 0; a method's seeds on one GPU run as one update in fused-ppo-seeds.ts.
 */
import { CANDIDATE_ROWS, recordCandidateRows } from './candidate-dictionary.ts';
import { copyIn, copyOut, popScopes, pushScopes, sumOf } from './fused-flat-buffers.ts';
import { minibatchDispatch } from './fused-ppo-params.ts';
import { profileMinibatches } from './fused-ppo-profile.ts';
import { FusedRunners } from './fused-runners.ts';
import type { KernelRunner } from './kernel.ts';
import { MINIBATCH_PERMUTATION, recordPermutation } from './minibatch-permutation.ts';
import { PPO_GATHER, recordPpoGather } from './ppo-gather.ts';
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
import type { UpdateSeat } from './fused-ppo-seeds.ts';
import type { ShaderSources } from './shader-source.ts';
import { WORKGROUP, STATE_ROWS, FUSED_PPO_KERNELS, NO_SEED_BASES, rowGrouping } from './fused-ppo-kernels.ts';

export {
  type FusedMinibatch,
  type FusedPpoBatch,
  type FusedPpoSettings,
  type FusedPpoShape,
  type FusedPpoTargets,
  fusedPpoRefusal,
  variableSizes,
} from './fused-ppo-batch.ts';
import { COPY_DST, COPY_SRC, MAP_READ, STORAGE } from './buffer-usage.ts';
export { FUSED_PPO_KERNELS, FUSED_PPO_MAX_ACTIONS, FUSED_PPO_MAX_HIDDEN, FUSED_PPO_PARAMS, type LossKind } from './fused-ppo-kernels.ts';

const SCRATCH_USAGE = STORAGE | COPY_SRC | COPY_DST;
/**
 * What tfjs needs to wrap a buffer as a tensor (webgpu-interop.ts TENSOR_BUFFER_USAGE), and COPY_DST:
 * tfjs's `dataToGPU` copies a tensor into a buffer of its own buffer's usage.
 */
const STATS_USAGE = STORAGE | COPY_SRC | COPY_DST;

export class FusedPpoKernels {
  /** Compute dispatches per minibatch. */
  static readonly DISPATCHES_PER_MINIBATCH = FUSED_PPO_KERNELS.length;

  private readonly runners: FusedRunners;
  private disposed = false;
  /** When set (bench/profile-fused-update.ts), `update` submits each dispatch alone, timed here by kernel name. */
  profile: Map<string, number> | null = null;

  constructor(
    readonly device: GPUDevice,
    readonly shaders: ShaderSources,
  ) {
    this.runners = new FusedRunners(device, shaders, 'fused ppo', FUSED_PPO_KERNELS);
  }

  /** GPU buffers held now: the pool's and the runners'. */
  get liveBuffers(): number {
    return this.runners.liveBuffers;
  }

  private get pool() {
    return this.runners.pool;
  }

  /** Compiles the pipelines and makes the runners of `minibatches` slots (the trainer's warm-up). */
  async prepare(minibatches: number): Promise<void> {
    await Promise.all([
      this.runners.minibatches(minibatches),
      this.runners.single(MINIBATCH_PERMUTATION),
      this.runners.single(PPO_GATHER),
      this.runners.single(CANDIDATE_ROWS),
    ]);
  }

  /**
   * Records and submits the whole update: weights and moments copied in from `targets`, every
   * minibatch's seven dispatches, the results copied back into `targets`. Returns the buffer of the
   * update's statistics [policyLoss, entropy, approxKl, clipFraction, gradNorm] (the minibatches'
   * mean; when cloning [cross-entropy, accuracy, 0, 0, gradNorm]), lent until `released()` turns
   * true, and a promise that rejects naming a kernel that failed.
   */
  async update(
    shape: FusedPpoShape,
    batch: FusedPpoBatch,
    minibatches: readonly FusedMinibatch[],
    settings: FusedPpoSettings,
    targets: FusedPpoTargets,
    released: () => boolean,
  ): Promise<{ stats: GPUBuffer; errors: Promise<void> }> {
    const statsOver = settings.statsOver ?? minibatches.length;
    if (!(statsOver >= 1 && minibatches.length % statsOver === 0))
      throw new Error(`statsOver ${statsOver} does not divide the update's ${minibatches.length} minibatches`);
    const slots = await this.runners.minibatches(minibatches.length);
    const permutationRunner = batch.perm instanceof Uint32Array ? null : await this.runners.single(MINIBATCH_PERMUTATION);
    const gatherRunner = batch.records ? await this.runners.single(PPO_GATHER) : null;
    const rowsRunner = batch.records?.candidates ? await this.runners.single(CANDIDATE_ROWS) : null;
    const d = this.device;
    this.pool.reclaim();
    const stats = this.pool.acquireOutput(5 * 4, STATS_USAGE);
    this.pool.lend(stats, released);
    // Statistics rows repeat every `statsOver` minibatches: the last group's mean is the one left in `stats`.
    const recordUpdate = (encoder: GPUCommandEncoder, profile: boolean) => {
      const buffers = this.writeBatch(shape, batch, minibatches);
      const record = (p: GPUComputePassEncoder, j: number, only?: number) =>
        this.recordMinibatch(
          p,
          slots[j],
          shape,
          batch,
          minibatches[j],
          j % statsOver,
          statsOver,
          settings,
          { ...buffers, statsOut: stats },
          j === 0,
          true,
          only,
        );
      copyIn(encoder, targets, buffers, variableSizes(shape));
      encoder.copyBufferToBuffer(buffers.weights, 0, buffers.snapshot, 0, buffers.weightBytes);
      encoder.clearBuffer(buffers.groups);
      const pass = encoder.beginComputePass({ label: 'fused ppo update' });
      this.recordGathers(pass, gatherRunner, rowsRunner, shape, batch, buffers);
      if (permutationRunner && !(batch.perm instanceof Uint32Array))
        recordPermutation(pass, permutationRunner, WORKGROUP, batch.numSteps, batch.perm.epochs, batch.perm.key, buffers.perm);
      if (!profile) minibatches.forEach((_, j) => record(pass, j));
      pass.end();
      if (!profile) copyOut(encoder, targets, buffers, variableSizes(shape));
      return { buffers, record };
    };
    const alone = async () => {
      const scopes = pushScopes(d);
      const encoder = d.createCommandEncoder({ label: 'fused ppo update' });
      const { buffers, record } = recordUpdate(encoder, !!this.profile);
      d.queue.submit([encoder.finish()]);
      if (this.profile) {
        await profileMinibatches(this.device, this.profile, minibatches.length, record);
        const out = d.createCommandEncoder({ label: 'fused ppo update' });
        copyOut(out, targets, buffers, variableSizes(shape));
        d.queue.submit([out.finish()]);
      }
      return popScopes(d, scopes, 'fused ppo update');
    };
    // A seed among others hands its update to their one (fused-ppo-seeds.ts), which keeps its weights' snapshot where alone would.
    const seat = this.seat?.armed && !this.profile ? this.seat : null;
    if (!seat) return { stats, errors: alone() };
    const snapshot = this.pool.scratchBuffer('snapshot', 4 * sumOf(variableSizes(shape)), SCRATCH_USAGE);
    return { stats, errors: seat.join({ device: d, shaders: this.shaders, shape, batch, minibatches, settings, targets, stats, snapshot, alone }) };
  }

  /** Where this seed's update meets the other seeds' of its method (fused-ppo-seeds.ts), or null: alone. */
  seat: UpdateSeat | null = null;

  /**
   * One minibatch's gradients (kernels 1–6, no clipping, no Adam step) at the weights in
   * `weights`, read back as one flat array in `Policy.variables` order: for tests against autodiff.
   */
  async gradients(
    shape: FusedPpoShape,
    batch: FusedPpoBatch,
    minibatch: FusedMinibatch,
    settings: FusedPpoSettings,
    weights: GPUBuffer[],
  ): Promise<Float32Array> {
    const [slot] = await this.runners.minibatches(1);
    const permutationRunner = batch.perm instanceof Uint32Array ? null : await this.runners.single(MINIBATCH_PERMUTATION);
    const gatherRunner = batch.records ? await this.runners.single(PPO_GATHER) : null;
    const rowsRunner = batch.records?.candidates ? await this.runners.single(CANDIDATE_ROWS) : null;
    const d = this.device;
    const sizes = variableSizes(shape);
    const buffers = this.writeBatch(shape, batch, [minibatch]);
    const bytes = buffers.weightBytes;
    const staging = d.createBuffer({ label: 'fused ppo gradients', size: bytes, usage: MAP_READ | COPY_DST });
    try {
      const scopes = pushScopes(d);
      const encoder = d.createCommandEncoder({ label: 'fused ppo gradients' });
      let offset = 0;
      weights.forEach((w, i) => {
        encoder.copyBufferToBuffer(w, 0, buffers.weights, offset, sizes[i] * 4);
        offset += sizes[i] * 4;
      });
      encoder.clearBuffer(buffers.groups);
      const pass = encoder.beginComputePass({ label: 'fused ppo gradients' });
      this.recordGathers(pass, gatherRunner, rowsRunner, shape, batch, buffers);
      if (permutationRunner && !(batch.perm instanceof Uint32Array))
        recordPermutation(pass, permutationRunner, WORKGROUP, batch.numSteps, batch.perm.epochs, batch.perm.key, buffers.perm);
      const statsOut = this.pool.scratchBuffer('gradientStats', 5 * 4, SCRATCH_USAGE);
      this.recordMinibatch(pass, slot, shape, batch, minibatch, 0, 1, settings, { ...buffers, statsOut }, true, false);
      pass.end();
      encoder.copyBufferToBuffer(buffers.grads, 0, staging, 0, bytes);
      d.queue.submit([encoder.finish()]);
      await popScopes(d, scopes, 'fused ppo gradients');
      await staging.mapAsync(MAP_READ);
      return new Float32Array(staging.getMappedRange().slice(0));
    } finally {
      staging.destroy();
    }
  }

  /** Copies the weights from before the last `update` back into `weights` (a non-finite loss). */
  restoreWeights(shape: FusedPpoShape, weights: GPUBuffer[]): void {
    const snapshot = this.pool.scratchBuffer('snapshot', 4 * sumOf(variableSizes(shape)), SCRATCH_USAGE);
    const encoder = this.device.createCommandEncoder({ label: 'fused ppo restore' });
    let offset = 0;
    variableSizes(shape).forEach((n, i) => {
      encoder.copyBufferToBuffer(snapshot, offset, weights[i], 0, n * 4);
      offset += n * 4;
    });
    this.device.queue.submit([encoder.finish()]);
  }

  /** Lets go of the buffers the next update makes again (fused-runners.ts `trim`); the weights' snapshot goes too. */
  trim(): void {
    if (!this.disposed) this.runners.trim();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.runners.dispose();
  }

  /**
   * The batch's rows gathered where the GPU rollout left them: observations, actions and old
   * log-probabilities (ppo-gather.ts), and the candidate rows from its dictionary
   * (candidate-dictionary.ts).
   */
  private recordGathers(
    pass: GPUComputePassEncoder,
    gatherRunner: KernelRunner<string, string> | null,
    rowsRunner: KernelRunner<string, string> | null,
    shape: FusedPpoShape,
    batch: FusedPpoBatch,
    buffers: { obs: GPUBuffer; actions: GPUBuffer; oldLogProbs: GPUBuffer; rows: GPUBuffer },
  ): void {
    const records = batch.records;
    if (!records) return;
    const numSteps = batch.numSteps;
    if (gatherRunner) recordPpoGather(pass, gatherRunner, WORKGROUP, records, numSteps, shape.obsDim, buffers);
    if (rowsRunner && records.candidates) {
      const { numActions: numCandidates, actionDim } = shape;
      recordCandidateRows(
        pass,
        rowsRunner,
        WORKGROUP,
        records.candidates,
        { numSteps, numRuns: records.runOffsets.length - 1, numCandidates, actionDim },
        records.offsets,
        buffers,
      );
    }
  }

  /** The update's own buffers, with the batch's host arrays written into them. */
  private writeBatch(shape: FusedPpoShape, batch: FusedPpoBatch, minibatches: readonly FusedMinibatch[]) {
    const weightFloats = sumOf(variableSizes(shape));
    const largest = Math.max(...minibatches.map((m) => m.size));
    const scratch = (name: string, floats: number) => this.pool.scratchBuffer(name, 4 * Math.max(1, floats), SCRATCH_USAGE);
    const grouping = rowGrouping(batch.numSteps, shape.numActions, batch.numRows, shape.hiddenSize, shape.actionDim, shape.obsDim, largest);
    const buffers = {
      weightBytes: 4 * weightFloats,
      weights: scratch('weights', weightFloats),
      firstMoment: scratch('firstMoment', weightFloats),
      secondMoment: scratch('secondMoment', weightFloats),
      snapshot: scratch('snapshot', weightFloats),
      grads: scratch('grads', weightFloats),
      state: scratch('state', STATE_ROWS + 5 * minibatches.length),
      work: scratch('work', workFloats(largest, batch.numRows, shape.hiddenSize, shape.numActions)),
      groups: scratch('groups', grouping.groupWords),
      pieces: scratch('pieces', grouping.pieceFloats),
      partials: scratch('partials', grouping.partialFloats),
      obs: scratch('obs', batch.numSteps * shape.obsDim),
      rows: scratch('rows', batch.numSteps * shape.numActions),
      actions: scratch('actions', batch.numSteps),
      oldLogProbs: scratch('oldLogProbs', batch.numSteps),
      perm: scratch('perm', batch.perm instanceof Uint32Array ? batch.perm.length : batch.numSteps * batch.perm.epochs),
      features: batch.features,
      advantages: batch.advantages,
    };
    writeHostRows(this.device.queue, shape, batch, buffers);
    return buffers;
  }

  private recordMinibatch(
    pass: GPUComputePassEncoder,
    runners: KernelRunner<string, string>[],
    shape: FusedPpoShape,
    batch: FusedPpoBatch,
    mb: FusedMinibatch,
    row: number,
    rows: number,
    s: FusedPpoSettings,
    buffers: Record<string, GPUBuffer | number>,
    groupRows: boolean,
    step: boolean,
    only?: number,
  ): void {
    const { params, workgroups } = minibatchDispatch(shape, batch, mb, row, rows, s, groupRows, NO_SEED_BASES);
    const kernels = step ? FUSED_PPO_KERNELS.length : 6;
    for (let k = 0; k < kernels; k++) {
      if (only !== undefined && k !== only) continue;
      const runner = runners[k];
      const bound = Object.fromEntries(runner.spec.storage.map(([name]) => [name, buffers[name] as GPUBuffer]));
      runner.record(pass, runner.prepare(bound, params), workgroups[k]);
    }
  }
}
