/**
 * The rollout on the GPU (webgpu backend) in three dispatches: the environment's whole-episode kernel
 * (src/gpu/episode-rollout.ts, `GpuEnvKernel.episodeKernel`) gives each run a workgroup that plays its
 * episode to the end, the policy's acting pass shared by the workgroup, the action drawn from the
 * counter-based generator (src/gpu/counter-rng.ts), the environment stepped in WGSL by the same function
 * its per-step parity kernel calls. The weights are copied from the variables' buffers in the same
 * command buffer, so a rollout is three dispatches (the episodes, the dictionary's numbering, the
 * final records) and one submit whatever the horizon, and no read-back until the end.
 *
 * Each step's observation stays on the GPU with its action and log-probability, step-major, for the
 * fused update to gather its rows from (ppo-gather.ts), and so does the dictionary of the rollout's
 * candidate rows, which the kernel builds as it plays and one more dispatch numbers in order of first
 * use (candidate-dictionary.ts): the update reads each (step, candidate)'s row there. Neither is kept
 * where its buffer would pass the binding limit. What comes back is small: each episode's final
 * record packed in a word (length, success, milestones; a second word for a graded outcome; gathered
 * from the episode records by one more dispatch, final-records.ts, which also scans the lengths into
 * the run offsets every kernel reading the records binds, on the GPU), the steps of the 8 runs the
 * check samples (log-probability, action and state key; copied out by the same dispatch), the weights
 * the rollout acted with and the dictionary's header: 4 · B (8 · B graded) + 96 · T bytes plus the
 * policy's size and 16 bytes. The other runs' log-probabilities stay on the GPU, where the fused
 * update reads them as π_old; an update that does not is given them by `completeLogProbs` (one
 * read-back more).
 *
 * By default every step's action comes back too (4 · T · B bytes), and the rest of the batch (masks,
 * state keys, milestone flags, the candidate rows and observations again for the CPU's uses) is laid
 * out by replaying those actions in the TypeScript environment (rollout.ts `replay`), which the WGSL
 * environments match exactly on the same actions (their parity tests): a replay costs far less than
 * reading back every step's candidate features (GridHouse long at 4,096 runs: 864 MB). The replay
 * doubles as a check on every rollout: an action the TypeScript environment cannot take, a final
 * record that differs from the replay's, or a dictionary with another count of distinct rows than the
 * replay's, throws; and on a seeded sample of 8 runs every recorded log-probability is checked
 * against the policy at those weights (log-prob-check.ts), since the update takes them as π_old.
 *
 * Where the caller reads the batch on the GPU alone (`CollectOptions.replay` 'sample': the trainer's
 * iterations nobody views), the replay becomes that check alone: only the 8 sampled runs are replayed,
 * in a twin environment, and compared step by step (sample-replay.ts); the host resets one run per
 * group and knows the other runs by their final records, so its work does not grow with T × B. The
 * per-step arrays are then laid out only if something asks (`Rollout.completeReplay`: the page's views,
 * a batch over a kernel's limits).
 *
 * A run's workgroup leaves its loop when the episode ends; step slots after a run's end are never read
 * (the replay stops there).
 *
 * Reproducibility: the task layouts and dropout decisions come from the environment's seeded CPU reset,
 * drawn from `rng` exactly as the CPU rollout draws them; the actions from Philox keyed by (the stream's
 * seed, one word drawn from the stream after the reset), counter (run, step). The same seed therefore
 * gives the same rollouts on a given adapter, and a checkpoint (which saves the stream's position)
 * resumes them exactly. The cpu/wasm rollout (rollout.ts `collect`) is untouched.
 */
import type { VecEnv } from '../../envs/types.ts';
import { getWebGpuDevice } from '../backend/webgpu-interop.ts';
import { gpuEnvKernel, type GpuEnvKernel } from '../gpu/gpu-envs.ts';
import { FINAL_RECORDS, FINAL_SCAN_WIDTH } from '../gpu/final-records.ts';
import { KernelRunner } from '../gpu/kernel.ts';
import { CANDIDATE_RANKS, CANDIDATE_RANKS_WORKGROUP, DICTIONARY_HEADER_BYTES, DICTIONARY_SLOTS, clearDictionary } from '../gpu/candidate-dictionary.ts';
import { gatherWeights } from '../gpu/policy-logits.ts';
import { EPISODE_ROLLOUT_WORKGROUP } from '../gpu/episode-rollout.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';
import { CHECKED_RUNS } from './log-prob-check.ts';
import { RunStarts } from './rollout-records.ts';
import type { CollectOptions, Rollout } from './rollout.ts';
import { RolloutFinish } from './gpu-rollout-finish.ts';
import {
  type CollectorParts,
  computePass,
  episodeUniforms,
  type NumberingBuffers,
  type ReadLayout,
  recordNumbering,
  type RolloutStart,
  submitChecked,
  writeStarts,
} from './gpu-rollout-parts.ts';
import {
  dictionarySize,
  gpuRolloutRefusal,
  keptBytes,
  readBackSizes,
  type ReadBackName,
  type RecordName,
  recordSizes,
  stepBufferSizes,
} from './gpu-rollout-sizes.ts';
import { COPY_DST, COPY_SRC, MAP_READ, STORAGE } from '../gpu/buffer-usage.ts';

/** Where a collector's rollout is played beside other seeds' (gpu-rollout-batch.ts `SeedRolloutBatch`). */
export interface RolloutBatch {
  /** Whether the next rollouts go through the batch (else each collector plays its own). */
  readonly armed: boolean;
  join(collector: GpuRolloutCollector, start: RolloutStart): Promise<Rollout>;
}

export class GpuRolloutCollector {
  readonly kernel: GpuEnvKernel;
  /** The host's side after the read-back: the replay, its checks and the records kept (gpu-rollout-finish.ts). */
  private readonly finisher: RolloutFinish;
  /** The seed batch this collector's rollouts join when it is armed (gpu-rollout-batch.ts), or null. */
  batch: RolloutBatch | null = null;
  private kernels: { runner: KernelRunner<string, string>; ranks: KernelRunner<string, string>; finals: KernelRunner<string, string> } | null = null;
  private runner: Promise<KernelRunner<string, string>> | null = null;
  private ranks: Promise<KernelRunner<string, string>> | null = null;
  private finals: Promise<KernelRunner<string, string>> | null = null;
  private buffers: Record<string, GPUBuffer> | null = null;
  private records: Record<RecordName, GPUBuffer> | null = null;
  /** Step-major observations, kept on the GPU for the update (4 bytes: none kept). */
  private obsRecord: GPUBuffer | null = null;
  /** The steps of the runs the check samples, copied out of the records by the final records' pass. */
  private sampleRecord: GPUBuffer | null = null;
  /** The final records packed for the host, written by the same pass. */
  private hostFinals: GPUBuffer | null = null;
  /** The batch's reset, and what the kernel starts its runs from. */
  private readonly starts: RunStarts;
  /** Rollouts collected so far: a rollout's `completeLogProbs` reads the records only while they are its own. */
  private collected = 0;
  /** The run-major batch's B + 1 step offsets, written by the final records' pass. */
  private runOffsets: GPUBuffer | null = null;
  /** The rollout's candidate dictionary (4 bytes: none kept) and its rows in order of first use. */
  private dictionary: { table: GPUBuffer; features: GPUBuffer } | null = null;
  private staging: GPUBuffer | null = null;
  /** Live GPU buffers this collector owns (tests check that it does not grow). */
  liveBuffers = 0;
  /** Seconds the last rollout's replay on the CPU took (bench/rollout-gpu.ts prints it). */
  get lastReplaySeconds(): number {
    return this.finisher.lastReplaySeconds;
  }
  /** The runs whose log-probabilities the last rollout checked against the policy (log-prob-check.ts). */
  get lastCheckedRuns(): number[] {
    return this.finisher.lastCheckedRuns;
  }
  set lastCheckedRuns(runs: number[]) {
    this.finisher.lastCheckedRuns = runs;
  }
  /** Seconds that check took on the CPU (bench/rollout-gpu.ts prints it). */
  get lastCheckSeconds(): number {
    return this.finisher.lastCheckSeconds;
  }
  /** Why the last rollout's batch takes the host's candidate layout instead of the GPU dictionary's, or null. */
  get lastDictionaryRefusal(): string | null {
    return this.finisher.lastDictionaryRefusal;
  }

  constructor(
    readonly env: VecEnv,
    readonly policy: Policy,
    private readonly shaders: ShaderSources,
    private device: GPUDevice = getWebGpuDevice(),
  ) {
    const refusal = gpuRolloutRefusal(env, policy.shape.hiddenSize, device);
    if (refusal) throw new RangeError(`GPU rollout: ${refusal}`);
    this.kernel = gpuEnvKernel(env)!;
    this.finisher = new RolloutFinish(env, policy, this.kernel);
    this.starts = new RunStarts(env, this.kernel);
  }

  private ready(): Promise<KernelRunner<string, string>[]> {
    const { spec } = this.kernel.episodeKernel;
    this.runner ??= KernelRunner.create(this.device, spec, this.shaders[spec.name], EPISODE_ROLLOUT_WORKGROUP);
    this.ranks ??= KernelRunner.create(this.device, CANDIDATE_RANKS, this.shaders[CANDIDATE_RANKS.name], CANDIDATE_RANKS_WORKGROUP);
    this.finals ??= KernelRunner.create(this.device, FINAL_RECORDS, this.shaders[FINAL_RECORDS.name], FINAL_SCAN_WIDTH);
    return Promise.all([this.runner, this.ranks, this.finals]);
  }

  private create(label: string, bytes: number, usage: number): GPUBuffer {
    this.liveBuffers++;
    return this.device.createBuffer({ label: `gpu rollout ${label}`, size: Math.max(4, Math.ceil(bytes / 4) * 4), usage });
  }

  /** The per-step buffers the kernels share, and the records, made once per collector. */
  private allocate(): void {
    if (this.buffers) return;
    const { env, kernel } = this;
    const io = STORAGE | COPY_SRC | COPY_DST;
    const buffers = Object.fromEntries(
      Object.entries(stepBufferSizes(env, this.policy.shape.hiddenSize, kernel.recordWords)).map(([name, bytes]) => [name, this.create(name, bytes, io)]),
    );
    this.buffers = buffers;
    const sizes = recordSizes(env);
    // The whole-episode kernel writes the records itself.
    this.records = Object.fromEntries(Object.entries(sizes).map(([name, bytes]) => [name, this.create(`${name} record`, bytes, io)])) as Record<
      RecordName,
      GPUBuffer
    >;
    this.obsRecord = this.create('observation record', keptBytes(4 * env.maxSteps * env.batchSize * env.obsDim, this.device), STORAGE | COPY_SRC | COPY_DST);
    this.runOffsets = this.create('run offsets', 4 * (env.batchSize + 1), io);
    this.sampleRecord = this.create('sampled steps', readBackSizes(env).sample, STORAGE | COPY_SRC | COPY_DST);
    this.hostFinals = this.create('final records for the host', 2 * 4 * env.batchSize, STORAGE | COPY_SRC | COPY_DST);
    this.dictionary = {
      table: this.create('candidate dictionary', dictionarySize(env, this.policy.shape.hiddenSize, this.device), STORAGE | COPY_SRC | COPY_DST),
      features: this.create('candidate rows', 4 * DICTIONARY_SLOTS * env.actionDim, STORAGE | COPY_SRC | COPY_DST),
    };
    // What comes back of the records, then the weights the rollout acted with (for the log-probability check), then the dictionary's header.
    const recordBytes = Object.values(readBackSizes(env)).reduce((s, n) => s + n, 0);
    this.staging = this.create('read-back', recordBytes + buffers.weights.size + DICTIONARY_HEADER_BYTES, MAP_READ | COPY_DST);
  }

  /**
   * Plays one batch to the end on the GPU. `taskSeeds` has one seed per group; `dropoutRng` draws the
   * dropout decisions (in the environment's reset, as on the CPU) and `rng` one word of the action key.
   * With `options.replay` 'sample' the host replays only the check's sample (sample-replay.ts) where it
   * can (the observations kept on the GPU for the update, the flags the task detector's; a batch with
   * milestone dropout is refused); else, and by default, every run. Where a seed batch is armed
   * (gpu-rollout-batch.ts) the rollout is played there, beside the other seeds' rollouts.
   */
  async collect(taskSeeds: Uint32Array, groupSize: number, rng: Rng, dropoutRng: Rng = rng, options: CollectOptions = {}): Promise<Rollout> {
    const start = await this.begin(taskSeeds, groupSize, rng, dropoutRng, options);
    if (this.batch?.armed) return this.batch.join(this, start);
    const staging = this.staging!;
    let read: ReadLayout | null = null;
    const tableBuffer = this.create(start.table.name, start.table.data.byteLength, STORAGE | COPY_DST);
    try {
      await submitChecked(this.device, 'gpu rollout', (encoder) => {
        this.recordEpisodes(encoder, start, tableBuffer);
        const { ranks, finals } = this.kernels!;
        recordNumbering(encoder, { ranks, finals }, this.env, this.kernel, start.sample, this.numbered, 1);
        read = this.recordReadBack(encoder, start, staging, 0);
      });
      const layout = read!;
      // Only what was copied: the staging buffer has room for the whole batch's actions.
      await staging.mapAsync(MAP_READ, 0, layout.bytes);
      let bytes: ArrayBuffer;
      try {
        bytes = staging.getMappedRange(0, layout.bytes).slice(0);
      } finally {
        staging.unmap();
      }
      return await this.finish(start, bytes, layout);
    } finally {
      // Queue order keeps the table alive for the work already submitted.
      tableBuffer.destroy();
      this.liveBuffers--;
    }
  }

  /**
   * The host's side of a rollout before its dispatch: the device checked (src/backend re-initialises
   * tfjs on a new device after a device loss: start over on that one), the kernels and buffers made,
   * the runs reset and their starting records packed, the draw key drawn from `rng`.
   */
  async begin(taskSeeds: Uint32Array, groupSize: number, rng: Rng, dropoutRng: Rng, options: CollectOptions): Promise<RolloutStart> {
    const current = getWebGpuDevice();
    if (current !== this.device) {
      this.dispose();
      this.device = current;
    }
    const [runner, ranks, finals] = await this.ready();
    this.kernels = { runner, ranks, finals };
    this.allocate();
    const generation = ++this.collected;
    // The WGSL environments detect with the task's detector: under another, the replay's flags are that detector's.
    const flagsAreTheBatch = this.env.detector === 'task';
    const sampleOnly = options.replay === 'sample' && flagsAreTheBatch && this.obsRecord!.size > 4;
    const { episodeSeeds, starts, table } = sampleOnly ? this.starts.perGroup(taskSeeds, groupSize) : this.starts.everyRun(taskSeeds, groupSize, dropoutRng);
    const key = { seed: rng.seed, iteration: rng.nextUint32() };
    // The runs the check samples (checkedRuns: the first of this permutation), whose steps come back.
    const sample = { runs: Math.min(CHECKED_RUNS, this.env.batchSize), maxSteps: this.env.maxSteps, key: { key0: key.seed, key1: key.iteration } };
    return { taskSeeds, groupSize, generation, sampleOnly, flagsAreTheBatch, episodeSeeds, starts, table, key, sample };
  }

  /** This collector's buffers, kernels and shape, for a seed batch that plays its rollout (gpu-rollout-batch.ts). */
  get parts(): CollectorParts {
    return {
      env: this.env,
      policy: this.policy,
      kernel: this.kernel,
      device: this.device,
      ...this.kernels!,
      numbered: this.numbered,
      buffers: this.buffers!,
      records: this.records!,
      obsRecord: this.obsRecord!,
      dictionary: this.dictionary!,
    };
  }

  /**
   * Records the rollout of this collector alone into `encoder`: the weights gathered, the dictionary
   * zeroed, the starting records and the draw key uploaded, one workgroup per run playing its whole
   * episode, writing the action and log-probability records.
   */
  private recordEpisodes(encoder: GPUCommandEncoder, start: RolloutStart, tableBuffer: GPUBuffer): void {
    const { env, kernel, device } = this;
    const B = env.batchSize;
    const buffers = this.buffers!;
    const dictionary = this.dictionary!;
    device.queue.writeBuffer(tableBuffer, 0, start.table.data);
    writeStarts(device, buffers.episodes, B, kernel.recordWords, start.starts, [start.key]);
    gatherWeights(encoder, this.policy.variables, buffers.weights);
    clearDictionary(encoder, dictionary.table, env.actionDim, env.maxSteps * B * env.maxActions);
    const bindings = {
      ...buffers,
      [start.table.name]: tableBuffer,
      actionRecord: this.records!.actions,
      logProbRecord: this.records!.logProbs,
      obsRecord: this.obsRecord!,
      candidateTable: dictionary.table,
    };
    const { runner } = this.kernels!;
    const group = runner.prepare(bindings, episodeUniforms(env, kernel, this.policy.shape.hiddenSize, 1));
    computePass(encoder, (p) => runner.record(p, group, B));
  }

  /** The buffers the dictionary's numbering and the final records' pass read and write (gpu-rollout-parts.ts). */
  private get numbered(): NumberingBuffers {
    const records = this.records!;
    return {
      episodes: this.buffers!.episodes,
      table: this.dictionary!.table,
      features: this.dictionary!.features,
      finals: records.finals,
      runOffsets: this.runOffsets!,
      logProbs: records.logProbs,
      actions: records.actions,
      sample: this.sampleRecord!,
      hostFinals: this.hostFinals!,
    };
  }

  /**
   * Records the copies of what comes back into `staging` from byte `base`: the final records, the
   * sample (and every action where the host replays every run), the weights the rollout acted with
   * and the dictionary's header.
   */
  recordReadBack(encoder: GPUCommandEncoder, start: RolloutStart, staging: GPUBuffer, base: number): ReadLayout {
    const { env } = this;
    const buffers = this.buffers!;
    const dictionary = this.dictionary!;
    const records = this.records!;
    const keepsDictionary = dictionary.table.size > 4;
    const sizes = readBackSizes(env);
    const copied: ReadBackName[] = start.sampleOnly ? ['finals', 'sample'] : ['finals', 'sample', 'actions'];
    const readBack: Record<ReadBackName, GPUBuffer> = { finals: this.hostFinals!, sample: this.sampleRecord!, actions: records.actions };
    const at = {} as Record<ReadBackName, number>;
    let bytes = 0;
    for (const name of copied) {
      at[name] = bytes;
      encoder.copyBufferToBuffer(readBack[name], 0, staging, base + bytes, sizes[name]);
      bytes += sizes[name];
    }
    const weightsAt = bytes;
    encoder.copyBufferToBuffer(buffers.weights, 0, staging, base + bytes, buffers.weights.size);
    const headerAt = bytes + buffers.weights.size;
    bytes = headerAt;
    if (keepsDictionary) {
      encoder.copyBufferToBuffer(dictionary.table, 0, staging, base + headerAt, DICTIONARY_HEADER_BYTES);
      bytes += DICTIONARY_HEADER_BYTES;
    }
    return { at, weightsAt, headerAt, bytes };
  }

  /** The rollout from what came back (`bytes`, laid out as `read` says): gpu-rollout-finish.ts. */
  finish(start: RolloutStart, bytes: ArrayBuffer, read: ReadLayout): Promise<Rollout> {
    const kept = {
      device: this.device,
      records: this.records!,
      obsRecord: this.obsRecord!,
      runOffsets: this.runOffsets!,
      dictionary: this.dictionary!,
      isLatest: (generation: number) => generation === this.collected && this.records !== null,
    };
    return this.finisher.finish(start, bytes, read, kept);
  }

  /** Bytes this collector's rollout may read back (its staging buffer's size). */
  get readBackBytes(): number {
    return this.staging!.size;
  }

  /** Lets go of every buffer and runner between rollouts: the next `collect` makes them again, as after a device loss. */
  trim(): void {
    this.dispose();
  }

  dispose(): void {
    const owned = [
      ...Object.values(this.buffers ?? {}),
      ...Object.values(this.records ?? {}),
      ...Object.values(this.dictionary ?? {}),
      ...[this.staging, this.obsRecord, this.runOffsets, this.sampleRecord, this.hostFinals].filter((b) => b !== null),
    ];
    for (const buffer of owned) buffer.destroy();
    this.liveBuffers -= owned.length;
    this.buffers = this.records = this.staging = this.obsRecord = this.runOffsets = this.sampleRecord = this.hostFinals = this.dictionary = null;
    for (const runner of [this.runner, this.ranks, this.finals])
      void runner?.then(
        (k) => k.destroy(),
        () => {},
      );
    this.runner = this.ranks = this.finals = null;
  }
}
