/**
 * The paper's credit-assignment metrics (docs/maths.md §5) computed on the GPU from a GPU rollout's
 * records and the advantages tensor (shaders/credit-metrics-steps.wgsl, then credit-metrics-keys.wgsl;
 * their shared part in shaders/lib/credit_metrics.wgsl), so that an iteration reads back a few dozen
 * bytes of totals instead of every step's advantage for `creditMetrics` (src/metrics/credit-metrics.ts)
 * to sum on the CPU. The contradictory ratio's keys (group, action, state key) go into a hash table on
 * the GPU; its sums are 64-bit fixed point (FIXED_SCALE units per 1), so the totals do not depend on the
 * order the invocations run in and match the CPU's float64 sums to within one unit per step.
 *
 * Only for a batch whose milestone flags are the rollout's (the CCR's milestone steps are read from the
 * action records: the trainer decides, as for the advantages reading them there).
 */
import { flushTfjsQueue } from '../backend/webgpu-interop.ts';
import type { CreditMetrics } from '../metrics/credit-metrics.ts';
import { FINAL_FIELDS, FINAL_WORDS } from './final-records.ts';
import { defineKernel, GpuKernelError, KernelRunner, submitDispatches } from './kernel.ts';
import { keepForLater, pendingRead, type PendingRead } from './pending-read.ts';
import type { ShaderSources } from './shader-source.ts';
import { uniformFields } from './uniforms.ts';
import { COPY_DST, COPY_SRC, STORAGE } from './buffer-usage.ts';

const PARAMS = uniformFields([
  ['numSteps', 'u32'],
  ['numRuns', 'u32'],
  ['groupSize', 'u32'],
  ['keysAt', 'u32'],
  ['tableSlots', 'u32'],
  ['finalWords', 'u32'],
  ['successWord', 'u32'],
  ['reachedWord', 'u32'],
  /** Seeds side by side (seed-credit-metrics.ts): each seed's workgroups, and its blocks' strides (0: one seed). */
  ['workgroupsPerSeed', 'u32'],
  ['stepStride', 'u32'],
  ['recordStride', 'u32'],
  /** Seeds side by side (1: one batch); workgroups past the last seed's count nothing. */
  ['numSeeds', 'u32'],
]);

export const CREDIT_METRICS_STEPS = defineKernel({
  name: 'credit-metrics-steps',
  params: PARAMS,
  storage: [
    ['runOffsets', 'read'],
    ['advantages', 'read'],
    ['actionRecord', 'read'],
    ['keyTable', 'read_write'],
    ['runSignal', 'read_write'],
    ['totals', 'read_write'],
  ],
});

export const CREDIT_METRICS_KEYS = defineKernel({
  name: 'credit-metrics-keys',
  params: PARAMS,
  storage: [
    ['finals', 'read'],
    ['keyTable', 'read_write'],
    ['runSignal', 'read_write'],
    ['totals', 'read_write'],
  ],
});

/** Fixed-point units per 1 of the GPU's sums (FIXED_SCALE in the WGSL). */
export const FIXED_SCALE = 2 ** 24;
/** u32 words per slot of the key table (KEY_WORDS in the WGSL). */
export const KEY_WORDS = 6;
/** The totals' words (T_* in the WGSL); a sum takes two, low word first. */
export const TOTALS = {
  zeroSteps: 0,
  milestoneSteps: 1,
  otherSteps: 2,
  milestoneAbs: 3,
  otherAbs: 5,
  solved: 7,
  partial: 8,
  utilised: 9,
  shared: 10,
  signed: 11,
  contradictory: 12,
  net: 13,
  gross: 15,
  overflow: 17,
} as const;
/** The totals' words of one batch (TOTAL_WORDS in the WGSL). */
export const TOTAL_WORDS = 18;

/** Invocations per workgroup of both passes. */
export const WORKGROUP = 64;

/** What the metrics read of a GPU rollout's records (src/trainer/gpu-rollout.ts). */
export interface CreditMetricsRecords {
  /** Step-major actions with their milestone flags, then from `stateKeysAt` the state keys. */
  actions: GPUBuffer;
  stateKeysAt: number;
  /** B + 1 run offsets of the run-major batch. */
  offsets: GPUBuffer;
  /** FINAL_WORDS words per run (final-records.ts). */
  finals: GPUBuffer;
}

/** Slots of the key table for `numSteps` steps: a power of two at least twice the steps (a load of at most one half). */
export function keyTableSlots(numSteps: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(WORKGROUP, 2 * numSteps)));
}

/** Why the metrics of `numSteps` steps cannot be computed on `device` (the key table over its limits), or null. */
export function creditMetricsRefusal(numSteps: number, device: GPUDevice): string | null {
  const bytes = 4 * KEY_WORDS * keyTableSlots(numSteps);
  const limit = Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize);
  return bytes > limit ? `the credit metrics' key table (${bytes} bytes) is over the adapter's binding limit (${limit} bytes)` : null;
}

/** The metrics from the totals' words (`runs` runs, `steps` steps), as `creditMetrics` defines them. */
export function decodeTotals(words: Uint32Array, runs: number, steps: number): CreditMetrics {
  if (words[TOTALS.overflow] !== 0) throw new GpuKernelError('credit-metrics-steps', 'the key table overflowed');
  const wide = (at: number) => (words[at + 1] * 2 ** 32 + words[at]) / FIXED_SCALE;
  const count = (name: keyof typeof TOTALS) => words[TOTALS[name]];
  const solved = count('solved');
  const partial = count('partial');
  const shared = count('shared');
  const signed = count('signed');
  const contradictory = count('contradictory');
  const gross = wide(TOTALS.gross);
  const milestoneSteps = count('milestoneSteps');
  const otherSteps = count('otherSteps');
  const otherAbs = wide(TOTALS.otherAbs);
  return {
    success: solved / runs,
    partial: partial / runs,
    failure: (runs - solved - partial) / runs,
    sampleUtilization: count('utilised') / runs,
    zeroAdvantageRatio: count('zeroSteps') / steps,
    contradictoryRatio: shared > 0 ? contradictory / shared : NaN,
    contradictoryRatioSigned: signed > 0 ? contradictory / signed : NaN,
    signalRetention: gross > 0 ? wide(TOTALS.net) / gross : NaN,
    ccr: milestoneSteps === 0 || otherSteps === 0 || otherAbs === 0 ? NaN : wide(TOTALS.milestoneAbs) / milestoneSteps / (otherAbs / otherSteps),
  };
}

/** The two passes' runners: credit-metrics-steps, credit-metrics-keys. */
export type CreditMetricsRunners = [KernelRunner<string, string>, KernelRunner<string, string>];

/** One seed's call: its batch, its own totals buffer, and what its GpuCreditMetrics adds to the submit. */
export interface SeedMetricsCall {
  device: GPUDevice;
  runners: CreditMetricsRunners;
  records: CreditMetricsRecords;
  advantages: GPUBuffer;
  numSteps: number;
  numRuns: number;
  groupSize: number;
  /** The seed's own totals (COPY_DST), into which its block is copied. */
  totals: GPUBuffer;
  /** Recorded after the copies out (the totals' deferred read). */
  after: (encoder: GPUCommandEncoder) => void;
  /** The seed's metrics on its own kernels and buffers, where the joined ones would be over the device's limits. */
  alone: () => Promise<void>;
}

/** Where a seed's metrics meet the others' (src/trainer/seed-meeting.ts; seed-credit-metrics.ts joins them): armed only while its seeds step together. */
export interface MetricsSeat {
  readonly armed: boolean;
  join(call: SeedMetricsCall): Promise<void>;
  leave(): void;
}

/** The uniforms both passes share (numSteps and workgroupsPerSeed aside); one seed's strides are never read. */
export function creditMetricsParams(keysAt: number, numRuns: number, groupSize: number, tableSlots: number, numSeeds = 1, stepStride = 0, recordStride = 0) {
  return {
    numSeeds,
    numRuns,
    groupSize,
    keysAt,
    tableSlots,
    finalWords: FINAL_WORDS,
    successWord: FINAL_FIELDS.indexOf('success'),
    reachedWord: FINAL_FIELDS.indexOf('milestonesReached'),
    stepStride,
    recordStride,
  };
}

export class GpuCreditMetrics {
  private runners: Promise<CreditMetricsRunners> | null = null;
  private buffers: { keyTable: GPUBuffer; runSignal: GPUBuffer; totals: GPUBuffer } | null = null;
  /** Live GPU buffers this object owns (tests check that it does not grow). */
  liveBuffers = 0;

  constructor(
    readonly device: GPUDevice,
    private readonly shaders: ShaderSources,
  ) {}

  private ready() {
    this.runners ??= Promise.all([
      KernelRunner.create(this.device, CREDIT_METRICS_STEPS, this.shaders[CREDIT_METRICS_STEPS.name], WORKGROUP),
      KernelRunner.create(this.device, CREDIT_METRICS_KEYS, this.shaders[CREDIT_METRICS_KEYS.name], WORKGROUP),
    ]);
    return this.runners;
  }

  /** The table and per-run buffers, grown when a batch needs more; new buffers start zeroed (WebGPU). */
  private allocate(tableSlots: number, numRuns: number) {
    const b = this.buffers;
    if (b && b.keyTable.size >= 4 * KEY_WORDS * tableSlots && b.runSignal.size >= 4 * numRuns) return b;
    this.destroyBuffers();
    const make = (label: string, bytes: number) => {
      this.liveBuffers++;
      return this.device.createBuffer({ label: `credit metrics ${label}`, size: bytes, usage: STORAGE | COPY_SRC | COPY_DST });
    };
    this.buffers = {
      keyTable: make('key table', 4 * KEY_WORDS * tableSlots),
      runSignal: make('run signal', 4 * Math.max(1, numRuns)),
      totals: make('totals', 4 * TOTAL_WORDS),
    };
    return this.buffers;
  }

  /**
   * The metrics of the batch of `numSteps` steps in `records` (`numRuns` runs in groups of `groupSize`)
   * with the per-step advantages in `advantages` (run-major float32): submitted now, read later with
   * the iteration's other values (the caller passes the result to `readTogether`, or releases it).
   * `advantages` must hold its values until this resolves (the submit comes first).
   */
  async compute(
    records: CreditMetricsRecords,
    advantages: GPUBuffer,
    numSteps: number,
    numRuns: number,
    groupSize: number,
  ): Promise<PendingRead<CreditMetrics>> {
    const refusal = creditMetricsRefusal(numSteps, this.device);
    if (refusal) throw new RangeError(`GPU credit metrics: ${refusal}`);
    const runners = await this.ready();
    const seat = this.seat?.armed ? this.seat : null;
    // Sized for this batch alone, which a seed batched with others falls back to where the joined buffers are over the limits.
    const { totals } = this.allocate(keyTableSlots(numSteps), numRuns);
    const totalsRead = pendingRead(this.device, [[totals, TOTAL_WORDS]], ([values]) =>
      decodeTotals(new Uint32Array(values.buffer, values.byteOffset, TOTAL_WORDS), numRuns, numSteps),
    );
    let kept: PendingRead<CreditMetrics> | undefined;
    const keep = (encoder: GPUCommandEncoder) => {
      kept = keepForLater(totalsRead, 'credit metrics', encoder);
    };
    const alone = () => this.submit(runners, records, advantages, numSteps, numRuns, groupSize, keep);
    const submitted = seat
      ? seat.join({ device: this.device, runners, records, advantages, numSteps, numRuns, groupSize, totals, after: keep, alone })
      : alone();
    await submitted.catch((e) => {
      kept?.release();
      throw e;
    });
    return kept!;
  }

  /** This batch alone: both passes, the totals kept for the read-back, the buffers zeroed again; one submit. */
  private submit(
    [steps, keys]: CreditMetricsRunners,
    records: CreditMetricsRecords,
    advantages: GPUBuffer,
    numSteps: number,
    numRuns: number,
    groupSize: number,
    keep: (encoder: GPUCommandEncoder) => void,
  ): Promise<void> {
    const tableSlots = keyTableSlots(numSteps);
    const { keyTable, runSignal, totals } = this.allocate(tableSlots, numRuns);
    const stepWorkgroups = Math.ceil(numSteps / WORKGROUP);
    const keyWorkgroups = Math.ceil(Math.max(tableSlots, numRuns) / WORKGROUP);
    const params = creditMetricsParams(records.stateKeysAt, numRuns, groupSize, tableSlots);
    flushTfjsQueue(); // whatever tfjs queued that writes the advantages runs first
    return submitDispatches(
      this.device,
      'credit metrics',
      [
        {
          runner: steps,
          buffers: { runOffsets: records.offsets, advantages, actionRecord: records.actions, keyTable, runSignal, totals },
          params: { ...params, numSteps, workgroupsPerSeed: stepWorkgroups },
          workgroups: stepWorkgroups,
        },
        {
          runner: keys,
          buffers: { finals: records.finals, keyTable, runSignal, totals },
          params: { ...params, numSteps, workgroupsPerSeed: keyWorkgroups },
          workgroups: keyWorkgroups,
        },
      ],
      (encoder) => {
        keep(encoder);
        encoder.clearBuffer(keyTable, 0, 4 * KEY_WORDS * tableSlots);
        encoder.clearBuffer(runSignal);
        encoder.clearBuffer(totals);
      },
    );
  }

  /** Where this seed's metrics meet the other seeds' of its method (seed-credit-metrics.ts), or null: alone. */
  seat: MetricsSeat | null = null;

  /** This seed's step computes no metrics on the GPU this iteration: the others do not wait for it. */
  pass(): void {
    this.seat?.leave();
  }

  private destroyBuffers(): void {
    if (!this.buffers) return;
    for (const buffer of Object.values(this.buffers)) buffer.destroy();
    this.liveBuffers -= 3;
    this.buffers = null;
  }

  /** Lets go of the table and per-run buffers between batches (the next `compute` makes them again); the runners stay. */
  trim(): void {
    this.destroyBuffers();
  }

  dispose(): void {
    this.destroyBuffers();
    void this.runners?.then(
      (rs) => rs.forEach((r) => r.destroy()),
      () => {},
    );
    this.runners = null;
  }
}
