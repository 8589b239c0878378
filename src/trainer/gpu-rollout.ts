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
 * where its buffer would pass the binding limit. What comes back is small: each step's sampled
 * action, each episode's final record (length, success, milestones, graded outcome; gathered from the
 * episode records by one more dispatch, final-records.ts, which also scans the lengths into the run
 * offsets every kernel reading the records binds, on the GPU), the log-probabilities of the 8 runs
 * the check samples (copied out by the same dispatch), the weights the rollout acted with and the
 * dictionary's header, in one read-back of 4 · T · B + 32 · T + 20 · B bytes plus the policy's size
 * and 16 bytes. The other runs' log-probabilities stay on the GPU, where the fused update reads them
 * as π_old; an update that does not is given them by `completeLogProbs` (one read-back more).
 *
 * The rest of the batch (masks, state keys, milestone flags, the candidate rows and observations
 * again for the CPU's uses) is laid out by replaying those actions in the TypeScript environment
 * (rollout.ts `replay`), which the WGSL environments match exactly on the same actions (their parity
 * tests): a replay costs far less than reading back every step's candidate features (GridHouse long
 * at 4,096 runs: 864 MB), so the GPU rollout scales to every batch the settings allow. The replay
 * doubles as a check on every rollout: an action the TypeScript environment cannot take, a final
 * record that differs from the replay's, or a dictionary with another count of distinct rows than the
 * replay's, throws; and on a seeded sample of 8 runs every recorded log-probability is checked
 * against the policy at those weights (log-prob-check.ts), since the update takes them as π_old.
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
import { FINAL_FIELDS, FINAL_RECORDS, FINAL_SCAN_WIDTH, FINAL_WORDS, recordFinalRecords } from '../gpu/final-records.ts';
import { pendingRead, readTogether } from '../gpu/pending-read.ts';
import { GpuKernelError, KernelRunner } from '../gpu/kernel.ts';
import {
  CANDIDATE_RANKS,
  CANDIDATE_RANKS_WORKGROUP,
  DICTIONARY_HEADER_BYTES,
  DICTIONARY_SLOTS,
  dictionaryBytes,
  dictionaryRefusal,
  dictionaryTableBytes,
  readDictionaryHeader,
} from '../gpu/candidate-dictionary.ts';
import { injectKernelFault, takeGpuFault } from '../gpu/fault-injection.ts';
import { gatherWeights, policyLogitsParams, policyWeightCount } from '../gpu/policy-logits.ts';
import { EPISODE_ROLLOUT_WORKGROUP } from '../gpu/episode-rollout.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';
import { CHECKED_RUNS, checkedRuns, checkLogProbs } from './log-prob-check.ts';
import { checkMilestoneFlags, resetRecords, sampledLogProbs, splitMilestoneFlags } from './rollout-records.ts';
import { ReplayMismatchError, resetEpisodes, RolloutCollector, type Rollout } from './rollout.ts';
import { gpuRolloutRefusal, keptBytes, readBackSizes, type ReadBackName, type RecordName, recordSizes, stepBufferSizes } from './gpu-rollout-sizes.ts';

const STORAGE = 0x0080; // GPUBufferUsage.STORAGE
const COPY_SRC = 0x0004;
const COPY_DST = 0x0008;
const MAP_READ = 0x0001;

export class GpuRolloutCollector {
  private readonly kernel: GpuEnvKernel;
  /** Lays the batch out by replaying the GPU's actions in the TypeScript environment. */
  private readonly replayer: RolloutCollector;
  private runner: Promise<KernelRunner<string, string>> | null = null;
  private ranks: Promise<KernelRunner<string, string>> | null = null;
  private finals: Promise<KernelRunner<string, string>> | null = null;
  private buffers: Record<string, GPUBuffer> | null = null;
  private records: Record<RecordName, GPUBuffer> | null = null;
  /** Step-major observations, kept on the GPU for the update (4 bytes: none kept). */
  private obsRecord: GPUBuffer | null = null;
  /** The log-probabilities of the runs the check samples, copied out of the record by the final records' pass. */
  private sampleLogProbs: GPUBuffer | null = null;
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
  lastReplaySeconds = 0;
  /** The runs whose log-probabilities the last rollout checked against the policy (log-prob-check.ts). */
  lastCheckedRuns: number[] = [];
  /** Seconds that check took on the CPU (bench/rollout-gpu.ts prints it). */
  lastCheckSeconds = 0;
  /** Why the last rollout's batch takes the host's candidate layout instead of the GPU dictionary's, or null. */
  lastDictionaryRefusal: string | null = null;

  constructor(
    private readonly env: VecEnv,
    private readonly policy: Policy,
    private readonly shaders: ShaderSources,
    private device: GPUDevice = getWebGpuDevice(),
  ) {
    const refusal = gpuRolloutRefusal(env, policy.shape.hiddenSize, device);
    if (refusal) throw new RangeError(`GPU rollout: ${refusal}`);
    this.kernel = gpuEnvKernel(env)!;
    this.replayer = new RolloutCollector(env, policy);
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
    this.obsRecord = this.create('observation record', keptBytes(4 * env.maxSteps * env.batchSize * env.obsDim, this.device), STORAGE | COPY_SRC);
    this.runOffsets = this.create('run offsets', 4 * (env.batchSize + 1), io);
    this.sampleLogProbs = this.create('sampled log-probabilities', readBackSizes(env).sampleLogProbs, STORAGE | COPY_SRC);
    this.dictionary = {
      table: this.create(
        'candidate dictionary',
        keptBytes(dictionaryBytes(env.actionDim, env.maxSteps * env.batchSize * env.maxActions), this.device),
        STORAGE | COPY_SRC | COPY_DST,
      ),
      features: this.create('candidate rows', 4 * DICTIONARY_SLOTS * env.actionDim, STORAGE | COPY_SRC),
    };
    // What comes back of the records, then the weights the rollout acted with (for the log-probability check), then the dictionary's header.
    const recordBytes = Object.values(readBackSizes(env)).reduce((s, n) => s + n, 0);
    this.staging = this.create('read-back', recordBytes + buffers.weights.size + DICTIONARY_HEADER_BYTES, MAP_READ | COPY_DST);
  }

  /**
   * Plays one batch to the end on the GPU. `taskSeeds` has one seed per group; `dropoutRng` draws the
   * dropout decisions (in the environment's reset, as on the CPU) and `rng` one word of the action key.
   */
  async collect(taskSeeds: Uint32Array, groupSize: number, rng: Rng, dropoutRng: Rng = rng): Promise<Rollout> {
    const { env, kernel } = this;
    const B = env.batchSize;
    const A = env.maxActions;
    // src/backend re-initialises tfjs on a new device after a device loss: start over on that one.
    const current = getWebGpuDevice();
    if (current !== this.device) {
      this.dispose();
      this.device = current;
    }
    const device = this.device;
    const [runner, ranks, finals] = await this.ready();
    this.allocate();
    const generation = ++this.collected;
    const buffers = this.buffers!;
    const dictionary = this.dictionary!;
    const keepsDictionary = dictionary.table.size > 4;
    const records = this.records!;
    const staging = this.staging!;

    const episodeSeeds = resetEpisodes(env, taskSeeds, groupSize, dropoutRng);
    const key = { seed: rng.seed, iteration: rng.nextUint32() };
    // The runs the log-probability check may take (checkedRuns: the first of this permutation), whose log-probabilities come back.
    const sample = { runs: Math.min(CHECKED_RUNS, B), maxSteps: env.maxSteps, key: { key0: key.seed, key1: key.iteration } };
    const { episodes, table } = kernel.upload(env);
    const tableBuffer = this.create(table.name, table.data.byteLength, STORAGE | COPY_DST);
    device.queue.writeBuffer(tableBuffer, 0, table.data);
    device.queue.writeBuffer(buffers.episodes, 4 * B * kernel.recordWords, resetRecords(episodes, B, kernel.recordWords));

    const envBuffers = { ...buffers, [table.name]: tableBuffer };
    const { scale } = policyLogitsParams(B, env.obsDim, env.actionDim, A, this.policy.shape.hiddenSize);
    const sizes = readBackSizes(env);
    const at = {} as Record<ReadBackName, number>;
    let weightsAt = 0;
    let headerAt = 0;
    try {
      const encoder = device.createCommandEncoder({ label: 'gpu rollout' });
      gatherWeights(encoder, this.policy.variables, buffers.weights);
      if (keepsDictionary) encoder.clearBuffer(dictionary.table, 0, dictionaryTableBytes(env.actionDim));
      const pass = (record: (p: GPUComputePassEncoder) => void) => {
        const p = encoder.beginComputePass({ label: 'gpu rollout' });
        record(p);
        p.end();
      };
      device.pushErrorScope('out-of-memory');
      device.pushErrorScope('internal');
      device.pushErrorScope('validation');
      let errors: Promise<(GPUError | null)[]>;
      try {
        injectKernelFault(device);
        // One workgroup per run plays its whole episode, writing the action and log-probability records.
        const bindings = {
          ...envBuffers,
          actionRecord: records.actions,
          logProbRecord: records.logProbs,
          obsRecord: this.obsRecord!,
          candidateTable: dictionary.table,
        };
        const uniforms = {
          numEpisodes: B,
          hiddenSize: this.policy.shape.hiddenSize,
          scale,
          ...key,
          ...kernel.episodeKernel.params(env),
          obsDim: env.obsDim,
          actionDim: env.actionDim,
          numCandidates: A,
        };
        const group = runner.prepare(bindings, uniforms);
        pass((p) => runner.record(p, group, B));
        // The dictionary numbered in order of first use (one workgroup), for the update to read.
        if (keepsDictionary)
          pass((p) => ranks.record(p, ranks.prepare({ candidateTable: dictionary.table, features: dictionary.features }, { actionDim: env.actionDim }), 1));
        pass((p) =>
          recordFinalRecords(p, finals, B, kernel.recordWords, kernel.fields, sample, {
            episodes: buffers.episodes,
            finals: records.finals,
            runOffsets: this.runOffsets!,
            logProbRecord: records.logProbs,
            sampleLogProbs: this.sampleLogProbs!,
          }),
        );
        const readBack: Record<ReadBackName, GPUBuffer> = { actions: records.actions, sampleLogProbs: this.sampleLogProbs!, finals: records.finals };
        let offset = 0;
        for (const name of Object.keys(sizes) as ReadBackName[]) {
          at[name] = offset;
          encoder.copyBufferToBuffer(readBack[name], 0, staging, offset, sizes[name]);
          offset += sizes[name];
        }
        weightsAt = offset;
        encoder.copyBufferToBuffer(buffers.weights, 0, staging, offset, buffers.weights.size);
        headerAt = offset + buffers.weights.size;
        if (keepsDictionary) encoder.copyBufferToBuffer(dictionary.table, 0, staging, headerAt, DICTIONARY_HEADER_BYTES);
        device.queue.submit([encoder.finish()]);
      } finally {
        errors = Promise.all([device.popErrorScope(), device.popErrorScope(), device.popErrorScope()]);
      }
      const error = (await errors).find((e) => e !== null);
      if (error) throw new GpuKernelError('gpu rollout', error.message);
      await staging.mapAsync(MAP_READ);
      let recorded: { actions: Int32Array; logProbs: Float32Array; finals: Uint32Array };
      let weights: Float32Array;
      let header: Uint32Array;
      let milestoneFlags: Uint8Array;
      try {
        const bytes = staging.getMappedRange();
        const copy = <C extends Float32Array | Uint32Array | Int32Array>(name: ReadBackName, Ctor: new (b: ArrayBuffer) => C) =>
          new Ctor(bytes.slice(at[name], at[name] + sizes[name]));
        const logProbs = sampledLogProbs(copy('sampleLogProbs', Float32Array), sample, B);
        recorded = { actions: copy('actions', Int32Array), logProbs, finals: copy('finals', Uint32Array) };
        milestoneFlags = splitMilestoneFlags(recorded.actions);
        const { obsDim, actionDim, hiddenSize } = this.policy.shape;
        weights = new Float32Array(bytes.slice(weightsAt, weightsAt + 4 * policyWeightCount(obsDim, actionDim, hiddenSize)));
        header = new Uint32Array(bytes.slice(headerAt, headerAt + DICTIONARY_HEADER_BYTES));
      } finally {
        staging.unmap();
      }
      // Test hook (gpu/fault-injection.ts): a log-probability off by 0.01, as a diverged acting pass would record.
      const faulty = takeGpuFault('logProb');
      const rollout = await this.layOut(taskSeeds, groupSize, episodeSeeds, recorded);
      // The WGSL environments detect with the task's detector: under another, the replay's flags are that detector's.
      const flagsAreTheBatch = env.detector === 'task';
      if (flagsAreTheBatch) checkMilestoneFlags(rollout, milestoneFlags);
      const checked = checkedRuns(rollout.runOffsets, sample.key, this.policy.shape);
      if (faulty) rollout.logProbs[rollout.runOffsets[checked[0]]] += 0.01;
      this.lastCheckedRuns = checked;
      const t0 = performance.now();
      checkLogProbs(rollout, weights, this.policy.shape, checked);
      this.lastCheckSeconds = (performance.now() - t0) / 1000;
      // The records stay on the GPU for the update, until the next rollout writes them again.
      if (this.obsRecord!.size > 4) {
        rollout.gpuRecords = {
          obs: this.obsRecord!,
          actions: records.actions,
          logProbs: records.logProbs,
          runOffsets: rollout.runOffsets,
          offsets: this.runOffsets!,
          milestones: flagsAreTheBatch,
          credit: { finals: records.finals, stateKeysAt: env.maxSteps * B },
        };
        const dictionaryHeader = readDictionaryHeader(header);
        this.lastDictionaryRefusal = keepsDictionary ? dictionaryRefusal(dictionaryHeader) : 'the candidate dictionary would be over the binding limit';
        if (this.lastDictionaryRefusal === null) {
          // Every live step's candidates are in both dictionaries: a merge of two rows on the GPU shows here.
          const replayed = rollout.candidates.length / env.actionDim;
          if (dictionaryHeader.count !== replayed)
            throw new GpuKernelError('gpu rollout', `the GPU's candidate dictionary holds ${dictionaryHeader.count} distinct rows, the replay's ${replayed}`);
          rollout.gpuRecords.candidates = { ...dictionary, numRows: dictionaryHeader.count };
        }
      }
      rollout.completeLogProbs = () => this.completeLogProbs(rollout, generation);
      return rollout;
    } finally {
      // Queue order keeps the table alive for the work already submitted.
      tableBuffer.destroy();
      this.liveBuffers--;
    }
  }

  /**
   * Every step's recorded log-probability into `rollout.logProbs` (run-major), read from the record
   * while it is still that rollout's: one read-back of 4 · T · B bytes, for an update that does not
   * gather them on the GPU (a batch over the fused kernels' limits, or records not kept).
   */
  private async completeLogProbs(rollout: Rollout, generation: number): Promise<void> {
    if (generation !== this.collected || !this.records) throw new Error('GpuRolloutCollector: a rollout’s log-probabilities asked for after the next rollout');
    const B = this.env.batchSize;
    const [record] = await readTogether([pendingRead(this.device, [[this.records.logProbs, B * this.env.maxSteps]], ([values]) => values.slice())]);
    const { runOffsets, logProbs } = rollout;
    for (let b = 0; b < B; b++) for (let s = runOffsets[b]; s < runOffsets[b + 1]; s++) logProbs[s] = record[(s - runOffsets[b]) * B + b];
    rollout.completeLogProbs = undefined;
  }

  /**
   * The run-major `Rollout`: the GPU's actions replayed in the TypeScript environment (reset above, not
   * stepped since), then each run's final record checked against the replay's.
   */
  private async layOut(
    taskSeeds: Uint32Array,
    groupSize: number,
    episodeSeeds: Uint32Array,
    recorded: { actions: Int32Array; logProbs: Float32Array; finals: Uint32Array },
  ): Promise<Rollout> {
    let rollout: Rollout;
    const t0 = performance.now();
    // Test hook (gpu/fault-injection.ts): an action no environment admits, as a diverged GPU env would record.
    if (takeGpuFault('replay')) recorded.actions[0] = -1;
    try {
      rollout = await this.replayer.replay(taskSeeds, groupSize, episodeSeeds, recorded);
      this.lastReplaySeconds = (performance.now() - t0) / 1000;
    } catch (e) {
      if (e instanceof ReplayMismatchError) throw new GpuKernelError('gpu rollout', `the GPU environment left the TypeScript one: ${e.message}`);
      throw e;
    }
    // A graded outcome is stored as its f32 bits in the record.
    const finalFloats = new Float32Array(recorded.finals.buffer);
    for (let b = 0; b < rollout.numRuns; b++) {
      const gpu = (field: (typeof FINAL_FIELDS)[number]) => recorded.finals[b * FINAL_WORDS + FINAL_FIELDS.indexOf(field)];
      const checks: [string, number, number][] = [
        ['length', gpu('steps'), rollout.runOffsets[b + 1] - rollout.runOffsets[b]],
        ['success', gpu('success'), rollout.success[b]],
        ['milestones reached', gpu('milestonesReached'), rollout.milestonesReached[b]],
        ['milestones', gpu('numMilestones'), rollout.numMilestones[b]],
        ...(rollout.outcome
          ? [['graded outcome', finalFloats[b * FINAL_WORDS + FINAL_FIELDS.indexOf('outcome')], rollout.outcome[b]] as [string, number, number]]
          : []),
      ];
      for (const [what, onGpu, replayed] of checks)
        if (onGpu !== replayed)
          throw new GpuKernelError(
            'gpu rollout',
            `the GPU environment left the TypeScript one: run ${b}'s ${what} is ${onGpu} on the GPU, ${replayed} in the replay`,
          );
    }
    return rollout;
  }

  dispose(): void {
    const owned = [
      ...Object.values(this.buffers ?? {}),
      ...Object.values(this.records ?? {}),
      ...Object.values(this.dictionary ?? {}),
      ...[this.staging, this.obsRecord, this.runOffsets, this.sampleLogProbs].filter((b) => b !== null),
    ];
    for (const buffer of owned) buffer.destroy();
    this.liveBuffers -= owned.length;
    this.buffers = this.records = this.staging = this.obsRecord = this.runOffsets = this.sampleLogProbs = this.dictionary = null;
    for (const runner of [this.runner, this.ranks, this.finals])
      void runner?.then(
        (k) => k.destroy(),
        () => {},
      );
    this.runner = this.ranks = this.finals = null;
  }
}
