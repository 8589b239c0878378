/**
 * The advantage estimators of docs/maths.md §3–4 on the GPU: three WGSL dispatches on tfjs's own device.
 *
 *   1. segment-scan        (per run)   segment index, shaped reward r_t, K_i, per-segment partial sums
 *   2. group-reduce        (per group) A_traj with the tie rule; per-(group, k) segment baselines
 *   3. combine-advantages  (per step)  A_seg = r_t − b_k, A = A_traj + λ · A_seg
 *
 * Inputs are tfjs tensors (advantage-tensors.ts) read with `dataToGPU` (no trip through JavaScript);
 * the result is a float32 tensor wrapping the kernels' output buffer (`zeroCopy`), ready for the PPO
 * loss. The CPU reference in src/advantages/ defines the numbers; test/kernels.test.ts holds the two
 * together.
 *
 * `variant: "released"` (docs/maths.md §4, reference-code variants) runs the same three kernels: the
 * trajectory statistics over step rows, the stepMean baseline, and under meanStd each (group, segment
 * index) key's std + ε, by which combine-advantages divides A_seg.
 *
 * GiGPO (§7, `computeGigpo`) runs three dispatches too: step-returns (per run), group-reduce for the
 * episode term alone (per group), and step-group-reduce (per step group) for A_S and A, over a
 * step-group index the CPU builds once per batch (src/advantages/gigpo.ts).
 *
 * A seed trained side by side with others (`seat`, with the host's offsets) hands its batch to their
 * meeting instead, in either path: one set of the three dispatches for every seed
 * (seed-advantages.ts), its parts copied back into its own buffers.
 *
 * Intermediates live in slots indexed by step ranges, so no size has to be read back first: run i's
 * segment k uses slot runOffsets[i] + k − 1 and group g's baseline k uses runOffsets[first run of g]
 * + k − 1 (a run has at most as many segments as steps, a group at most as many segment indices as
 * its steps).
 */
import * as tf from '@tensorflow/tfjs-core';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import { flushTfjsQueue, getWebGpuBackend, TENSOR_BUFFER_USAGE, tensorGpuBuffer } from '../backend/webgpu-interop.ts';
import { anchorCoverage, type GigpoResult, type GigpoSettings, type StepGroupIndex } from '../advantages/gigpo.ts';
import type { AdvantageResult, AdvantageSettings, EstimatorSwitches } from '../advantages/types.ts';
import { ADVANTAGE_KEYS, checkSettings, GIGPO_KEYS } from '../config.ts';
import { type AdvantageTensors, checkIndex, checkTensors } from './advantage-tensors.ts';
import {
  createDualScaleRunners,
  createGigpoRunners,
  type DualScaleRunners,
  dualScaleDispatches,
  dualScaleScratch,
  gigpoDispatches,
  type GigpoRunners,
  gigpoScratch,
} from './advantage-dispatches.ts';
import { GpuBufferPool } from './buffer-pool.ts';
import { type KernelRunner, submitDispatches } from './kernel.ts';
import { keepForLater, type PendingRead, pendingRead, readTogether } from './pending-read.ts';
import type { AdvantageSeat, HostOffsets, SeedAdvantageParts } from './seed-advantages.ts';
import type { ShaderSources } from './shader-source.ts';

/**
 * The dual-scale details' arrays in the order their read holds them (one after another in the buffer
 * a deferred read keeps), each with one value per step or per run: a read of some runs' values cuts
 * them by this (src/trainer/sample-view.ts).
 */
export const DETAIL_PARTS = [
  ['advantages', 'step'],
  ['trajectoryAdvantages', 'run'],
  ['segmentAdvantages', 'step'],
  ['shapedRewards', 'step'],
] as const satisfies readonly (readonly [keyof AdvantageResult, 'step' | 'run'])[];

export interface GpuAdvantageOptions {
  /**
   * `true`: also read back A, A_traj, A_seg and r_t to the CPU now (for the CLI and tests), one
   * read-back of its own. `'deferred'`: keep a copy of them on the GPU and return it as a pending read
   * (`pendingDetails`), for the iteration's one joint read-back (pending-read.ts).
   */
  details?: boolean | 'deferred';
  /**
   * The host's copies of the batch's offsets: with them, a seed batched with others (`seat`) computes
   * its advantages in one set of dispatches with theirs (seed-advantages.ts); without, alone.
   */
  host?: HostOffsets;
}

export interface GpuAdvantages {
  /**
   * Per-step A, float32 [numSteps], wrapping the estimator's own GPU buffer. The caller disposes it;
   * the buffer is reused once the tensor (and every tensor sharing its data) is disposed.
   */
  advantages: tf.Tensor1D;
  /** With `details: true`: float32 values widened to the reference's Float64Array shape. */
  details?: AdvantageResult;
  /** With `details: 'deferred'`: the same, still on the GPU; the caller reads or releases it. */
  pendingDetails?: PendingRead<AdvantageResult>;
}

export interface GpuGigpoAdvantages {
  /** Per-step A = A_E + ω · A_S, float32 [numSteps], owned as in GpuAdvantages. */
  advantages: tf.Tensor1D;
  /** With `details: true`: the CPU reference's GigpoResult shape (float32 values widened). */
  details?: GigpoResult;
  /** With `details: 'deferred'`: the same, still on the GPU; the caller reads or releases it. */
  pendingDetails?: PendingRead<GigpoResult>;
}

export interface GpuAdvantageEstimatorOptions {
  /** Defaults to tfjs's current backend, which must be webgpu. */
  backend?: WebGPUBackend;
  /** Invocations per workgroup for all three kernels (default 64). */
  workgroupSize?: number;
}

export class GpuAdvantageEstimator {
  /** Compute dispatches per call (at most 4), BEACON/GRPO paper or released variant. */
  static readonly DISPATCHES = 3;
  /** Compute dispatches per GiGPO call. */
  static readonly GIGPO_DISPATCHES = 3;

  private readonly backend: WebGPUBackend;
  /** The tfjs backend's device, which the kernels share. */
  readonly device: GPUDevice;
  private readonly pool: GpuBufferPool;
  private readonly workgroupSize: number;
  private runners?: Promise<DualScaleRunners>;
  private gigpoRunners?: Promise<GigpoRunners>;
  private disposed = false;
  /** Where this seed meets the other seeds of its method (seed-advantages.ts), or null: alone. */
  seat: AdvantageSeat | null = null;

  constructor(
    private readonly shaders: ShaderSources,
    options: GpuAdvantageEstimatorOptions = {},
  ) {
    this.backend = options.backend ?? getWebGpuBackend();
    this.device = this.backend.device;
    this.workgroupSize = options.workgroupSize ?? 64;
    const wg = this.workgroupSize;
    if (!Number.isInteger(wg) || wg < 1 || wg > this.device.limits.maxComputeInvocationsPerWorkgroup) {
      throw new RangeError(`workgroupSize must be an integer in [1, ${this.device.limits.maxComputeInvocationsPerWorkgroup}], got ${wg}`);
    }
    this.pool = new GpuBufferPool(this.device, 'advantages');
  }

  /** GPU buffers this estimator holds now (uniforms, scratch, free and lent outputs). */
  get liveBuffers(): number {
    if (this.disposed) return this.pool.liveBuffers;
    return this.pool.liveBuffers + (this.runners ? 3 : 0) + (this.gigpoRunners ? 2 : 0);
  }

  /** Output buffers lent to advantage tensors that have not been disposed yet (as of the last call). */
  get lentBuffers(): number {
    return this.pool.lentBuffers;
  }

  private ready() {
    // Compiled once per device (kernel.ts caches pipelines); a failed compile is retried next call.
    this.runners ??= createDualScaleRunners(this.device, this.shaders, this.workgroupSize);
    this.runners.catch(() => (this.runners = undefined));
    return this.runners;
  }

  private readyGigpo() {
    this.gigpoRunners ??= createGigpoRunners(this.device, this.shaders, this.workgroupSize);
    this.gigpoRunners.catch(() => (this.gigpoRunners = undefined));
    return this.gigpoRunners;
  }

  /** `switches`: the method's (its spec's `switches`, docs/maths.md §4): which terms the kernels compute. */
  async compute(batch: AdvantageTensors, settings: AdvantageSettings, switches: EstimatorSwitches, options: GpuAdvantageOptions = {}): Promise<GpuAdvantages> {
    if (this.disposed) throw new Error('GpuAdvantageEstimator: compute() after dispose()');
    const { numGroups, numRuns, numSteps } = checkTensors(batch);
    checkSettings(settings, ADVANTAGE_KEYS);
    const runners = await this.ready();

    // From here to the submit nothing awaits, so concurrent calls cannot interleave on the shared
    // scratch buffers. The inputs are read in place (the caller keeps `batch` alive until this call
    // returns, after the submit). tfjs's pending commands, which include the copies that upload
    // inputs still on the CPU, are submitted before the kernels: they must also run before any output
    // buffer of a disposed tensor is written again (reclaim below).
    let output: GPUBuffer | undefined;
    let advantages: tf.Tensor1D | undefined;
    let details: Promise<AdvantageResult> | undefined;
    let pendingDetails: PendingRead<AdvantageResult> | undefined;
    let errors: Promise<void>[];
    try {
      const [groupOffsets, runOffsets, milestones, rewards] = [batch.groupOffsets, batch.runOffsets, batch.milestones, batch.rewards].map(tensorGpuBuffer);
      flushTfjsQueue();
      this.pool.reclaim();
      const seat = this.seat?.armed && options.host ? this.seat : null;
      // Intermediates are bound as storage and copied out for `details`; a seed batched with others
      // gets its parts copied in from the joined buffers (seed-advantages.ts).
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | (seat ? GPUBufferUsage.COPY_DST : 0);
      const scratch = (name: string, elements: number, bytes = 4) => this.pool.scratchBuffer(name, elements * bytes, usage);
      output = this.pool.acquireOutput(numSteps * 4, TENSOR_BUFFER_USAGE | (seat ? GPUBufferUsage.COPY_DST : 0));
      const intermediates = seat ? null : { ...dualScaleScratch(scratch, numRuns, numSteps), advantages: output };
      const partBuffers: SeedAdvantageParts = intermediates ?? {
        advantages: output,
        trajectoryAdvantages: scratch('trajectoryAdvantages', numRuns),
        segmentAdvantages: scratch('segmentAdvantages', numSteps),
        shapedRewards: scratch('shapedRewards', numSteps),
      };
      const parts = pendingRead(
        this.device,
        DETAIL_PARTS.map(([name, per]) => [partBuffers[name], per === 'step' ? numSteps : numRuns] as const),
        (values) => Object.fromEntries(DETAIL_PARTS.map(([name], i) => [name, widen(values[i])])) as unknown as AdvantageResult,
      );
      // For deferred details, their copy for the iteration's read-back, in the kernels' submit.
      const after = (encoder: GPUCommandEncoder) => {
        if (options.details === 'deferred') pendingDetails = keepForLater(parts, 'advantage details', encoder);
      };
      const milestoneRecord = !!batch.milestoneRecord;
      if (intermediates) {
        const shape = { numGroups, numRuns, numSteps, milestoneRecord, runsPerSeed: numRuns, seedStride: 0 };
        const inputs = { groupOffsets, runOffsets, milestones, rewards };
        errors = [
          submitDispatches(
            this.device,
            'advantages',
            dualScaleDispatches(runners, inputs, intermediates, shape, settings, switches, this.workgroupSize),
            after,
          ),
        ];
      } else {
        const { host } = options as { host: HostOffsets };
        errors = [
          seat!.join({
            kind: 'dualScale',
            device: this.device,
            runners,
            workgroupSize: this.workgroupSize,
            numGroups,
            numRuns,
            numSteps,
            host,
            milestones,
            milestoneRecord,
            rewards,
            settings,
            switches,
            own: partBuffers,
            after,
          }),
        ];
      }
      // Read once the kernels are submitted: a batched seed's, once its seeds have met.
      if (options.details && options.details !== 'deferred')
        details = (seat ? errors[0] : Promise.resolve()).then(() => readTogether([parts])).then(([r]) => r);
      advantages = tf.tensor({ buffer: output, zeroCopy: true }, [numSteps], 'float32') as tf.Tensor1D;
      const { dataId } = advantages;
      this.pool.lend(output, () => this.backend.refCount(dataId) === 0);
    } finally {
      if (output && !advantages) this.pool.lend(output, () => true); // failed before the tensor existed
    }

    const result = advantages!; // the try block above either assigned it or threw
    try {
      await Promise.all(errors);
      if (pendingDetails) return { advantages: result, pendingDetails };
      return details ? { advantages: result, details: await details } : { advantages: result };
    } catch (e) {
      result.dispose();
      pendingDetails?.release();
      await details?.catch(() => undefined);
      throw e;
    }
  }

  /**
   * GiGPO's advantages (docs/maths.md §7) for `batch` (its milestones are not used), given the
   * step-group index the CPU built for this batch and its state keys (`buildStepGroupIndex`). Three
   * dispatches; the result tensor and `details` have the same ownership and shape rules as `compute`.
   */
  async computeGigpo(batch: AdvantageTensors, index: StepGroupIndex, settings: GigpoSettings, options: GpuAdvantageOptions = {}): Promise<GpuGigpoAdvantages> {
    if (this.disposed) throw new Error('GpuAdvantageEstimator: computeGigpo() after dispose()');
    const { numGroups, numRuns, numSteps } = checkTensors(batch);
    checkSettings(settings, GIGPO_KEYS);
    checkIndex(index, numSteps);
    const [[, reduce], gigpoRunners] = await Promise.all([this.ready(), this.readyGigpo()]);

    // As in compute(): nothing awaits from here to the submit; tfjs's pending commands go first.
    let output: GPUBuffer | undefined;
    let advantages: tf.Tensor1D | undefined;
    let details: Promise<GigpoResult> | undefined;
    let pendingDetails: PendingRead<GigpoResult> | undefined;
    let errors: Promise<void>[];
    try {
      const [groupOffsets, runOffsets, rewards] = [batch.groupOffsets, batch.runOffsets, batch.rewards].map(tensorGpuBuffer);
      flushTfjsQueue();
      this.pool.reclaim();
      const seat = this.seat?.armed && options.host ? this.seat : null;
      const copyIn = seat ? GPUBufferUsage.COPY_DST : 0; // a batched seed's parts are copied in (seed-advantages.ts)
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | copyIn;
      const scratch = (name: string, elements: number, bytes = 4) => this.pool.scratchBuffer(name, elements * bytes, usage);
      output = this.pool.acquireOutput(numSteps * 4, TENSOR_BUFFER_USAGE | copyIn);
      const buffers = { ...gigpoScratch(scratch, numRuns, numSteps), advantages: output };
      const coverage = anchorCoverage(index);
      const parts = pendingRead(
        this.device,
        [
          [output, numSteps],
          [buffers.episodeAdvantages, numRuns],
          [buffers.stepAdvantages, numSteps],
          [buffers.stepReturns, numSteps],
        ],
        ([a, aE, aS, returns]): GigpoResult => ({
          advantages: widen(a),
          episodeAdvantages: widen(aE),
          stepAdvantages: widen(aS),
          stepReturns: widen(returns),
          anchorCoverage: coverage,
        }),
      );
      const after = (encoder: GPUCommandEncoder) => {
        if (options.details === 'deferred') pendingDetails = keepForLater(parts, 'GiGPO details', encoder);
      };
      if (seat) {
        const { host } = options as { host: HostOffsets };
        const own = {
          advantages: output,
          trajectoryAdvantages: buffers.episodeAdvantages,
          segmentAdvantages: buffers.stepAdvantages,
          shapedRewards: buffers.stepReturns,
        };
        const common = { device: this.device, workgroupSize: this.workgroupSize, numGroups, numRuns, numSteps, host, rewards, own, after };
        errors = [seat.join({ ...common, kind: 'gigpo', runners: gigpoRunners, reduce, index, settings })];
      } else {
        // The CPU's step-group index, uploaded once per call into buffers of its own.
        const upload = (name: string, data: Int32Array) => {
          const buffer = this.pool.scratchBuffer(name, data.byteLength, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST);
          this.device.queue.writeBuffer(buffer, 0, data);
          return buffer;
        };
        const inputs = {
          groupOffsets,
          runOffsets,
          rewards,
          stepGroupOffsets: upload('stepGroupOffsets', index.offsets),
          stepGroupMembers: upload('stepGroupMembers', index.members),
        };
        const dispatches = gigpoDispatches(
          gigpoRunners,
          reduce,
          inputs,
          buffers,
          { numGroups, numRuns, numStepGroups: index.numStepGroups },
          settings,
          this.workgroupSize,
        );
        errors = [submitDispatches(this.device, 'GiGPO advantages', dispatches, after)];
      }
      if (options.details && options.details !== 'deferred')
        details = (seat ? errors[0] : Promise.resolve()).then(() => readTogether([parts])).then(([r]) => r);
      advantages = tf.tensor({ buffer: output, zeroCopy: true }, [numSteps], 'float32') as tf.Tensor1D;
      const { dataId } = advantages;
      this.pool.lend(output, () => this.backend.refCount(dataId) === 0);
    } finally {
      if (output && !advantages) this.pool.lend(output, () => true);
    }

    const result = advantages!;
    try {
      await Promise.all(errors);
      if (pendingDetails) return { advantages: result, pendingDetails };
      return details ? { advantages: result, details: await details } : { advantages: result };
    } catch (e) {
      result.dispose();
      pendingDetails?.release();
      await details?.catch(() => undefined);
      throw e;
    }
  }

  /** Lets go of the scratch and free outputs between batches (buffer-pool.ts `trim`); lent outputs stay with their tensors. */
  trim(): void {
    if (!this.disposed) this.pool.trim();
  }

  /** Frees every GPU buffer; advantage tensors still alive become invalid, so dispose them first. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.pool.destroy();
    for (const runners of [this.runners, this.gigpoRunners]) void runners?.then(destroyRunners, () => undefined);
  }
}

const destroyRunners = (runners: readonly KernelRunner<string, string>[]) => runners.forEach((r) => r.destroy());

/** A float32 part of a read-back widened to the reference's Float64Array. */
const widen = (values: Float32Array): Float64Array => Float64Array.from(values);
