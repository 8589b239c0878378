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
import { FINAL_RECORDS, FINAL_SCAN_WIDTH, recordFinalRecords } from '../gpu/final-records.ts';
import { pendingRead, readTogether } from '../gpu/pending-read.ts';
import { GpuKernelError, KernelRunner } from '../gpu/kernel.ts';
import {
  CANDIDATE_RANKS,
  CANDIDATE_RANKS_WORKGROUP,
  DICTIONARY_HEADER_BYTES,
  DICTIONARY_SLOTS,
  clearDictionary,
  dictionaryRefusal,
  readDictionaryHeader,
} from '../gpu/candidate-dictionary.ts';
import { injectKernelFault, takeGpuFault } from '../gpu/fault-injection.ts';
import { gatherWeights, policyLogitsParams, policyWeightCount } from '../gpu/policy-logits.ts';
import { EPISODE_ROLLOUT_WORKGROUP } from '../gpu/episode-rollout.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import type { Policy } from '../policy/policy.ts';
import { Rng } from '../prng.ts';
import { CHECKED_RUNS, checkedRuns, checkLogProbs } from './log-prob-check.ts';
import { checkFinalRecord, checkMilestoneFlags, RunStarts, sampledLogProbs, splitMilestoneFlags } from './rollout-records.ts';
import {
  type CollectOptions,
  groupOffsetsOf,
  ReplayMismatchError,
  resetEpisodes,
  RolloutCollector,
  type Rollout,
  type StepArrays,
  stepsOnDemand,
} from './rollout.ts';
import { finalsOf, type RecordedSample, runsFromFinals, SampleReplay } from './sample-replay.ts';
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

/** What a rollout's steps are laid out from, besides its actions. */
interface LaidOutFrom {
  taskSeeds: Uint32Array;
  groupSize: number;
  episodeSeeds: Uint32Array;
  recordedSample: RecordedSample;
  hostFinals: Uint32Array;
  graded: boolean;
}

/** Throws unless the GPU's dictionary holds as many distinct candidate rows as the replay's (a merge of two rows on the GPU shows here). */
function checkDictionaryCount(count: number, rollout: Pick<Rollout, 'candidates'>, actionDim: number): void {
  const replayed = rollout.candidates.length / actionDim;
  if (count !== replayed) throw new GpuKernelError('gpu rollout', `the GPU's candidate dictionary holds ${count} distinct rows, the replay's ${replayed}`);
}

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
  /** The steps of the runs the check samples, copied out of the records by the final records' pass. */
  private sampleRecord: GPUBuffer | null = null;
  /** The final records packed for the host, written by the same pass. */
  private hostFinals: GPUBuffer | null = null;
  /** Replays and checks the sample where the host replays no other run. */
  private readonly sampleReplay: SampleReplay;
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
    this.sampleReplay = new SampleReplay(env, policy);
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
    this.obsRecord = this.create('observation record', keptBytes(4 * env.maxSteps * env.batchSize * env.obsDim, this.device), STORAGE | COPY_SRC);
    this.runOffsets = this.create('run offsets', 4 * (env.batchSize + 1), io);
    this.sampleRecord = this.create('sampled steps', readBackSizes(env).sample, STORAGE | COPY_SRC);
    this.hostFinals = this.create('final records for the host', 2 * 4 * env.batchSize, STORAGE | COPY_SRC);
    this.dictionary = {
      table: this.create('candidate dictionary', dictionarySize(env, this.policy.shape.hiddenSize, this.device), STORAGE | COPY_SRC | COPY_DST),
      features: this.create('candidate rows', 4 * DICTIONARY_SLOTS * env.actionDim, STORAGE | COPY_SRC),
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
   * milestone dropout is refused); else, and by default, every run.
   */
  async collect(taskSeeds: Uint32Array, groupSize: number, rng: Rng, dropoutRng: Rng = rng, options: CollectOptions = {}): Promise<Rollout> {
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

    // The WGSL environments detect with the task's detector: under another, the replay's flags are that detector's.
    const flagsAreTheBatch = env.detector === 'task';
    const sampleOnly = options.replay === 'sample' && flagsAreTheBatch && this.obsRecord!.size > 4;
    const { episodeSeeds, starts, table } = sampleOnly ? this.starts.perGroup(taskSeeds, groupSize) : this.starts.everyRun(taskSeeds, groupSize, dropoutRng);
    const key = { seed: rng.seed, iteration: rng.nextUint32() };
    // The runs the check samples (checkedRuns: the first of this permutation), whose steps come back.
    const sample = { runs: Math.min(CHECKED_RUNS, B), maxSteps: env.maxSteps, key: { key0: key.seed, key1: key.iteration } };
    const tableBuffer = this.create(table.name, table.data.byteLength, STORAGE | COPY_DST);
    device.queue.writeBuffer(tableBuffer, 0, table.data);
    device.queue.writeBuffer(buffers.episodes, 4 * B * kernel.recordWords, starts);

    const envBuffers = { ...buffers, [table.name]: tableBuffer };
    const { scale } = policyLogitsParams(B, env.obsDim, env.actionDim, A, this.policy.shape.hiddenSize);
    const sizes = readBackSizes(env);
    const copied: ReadBackName[] = sampleOnly ? ['finals', 'sample'] : ['finals', 'sample', 'actions'];
    const at = {} as Record<ReadBackName, number>;
    let weightsAt = 0;
    let headerAt = 0;
    let readBytes = 0;
    try {
      const encoder = device.createCommandEncoder({ label: 'gpu rollout' });
      gatherWeights(encoder, this.policy.variables, buffers.weights);
      clearDictionary(encoder, dictionary.table, env.actionDim, env.maxSteps * B * A);
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
            actionRecord: records.actions,
            sampleSteps: this.sampleRecord!,
            hostFinals: this.hostFinals!,
          }),
        );
        const readBack: Record<ReadBackName, GPUBuffer> = { finals: this.hostFinals!, sample: this.sampleRecord!, actions: records.actions };
        for (const name of copied) {
          at[name] = readBytes;
          encoder.copyBufferToBuffer(readBack[name], 0, staging, readBytes, sizes[name]);
          readBytes += sizes[name];
        }
        weightsAt = readBytes;
        encoder.copyBufferToBuffer(buffers.weights, 0, staging, readBytes, buffers.weights.size);
        headerAt = readBytes + buffers.weights.size;
        readBytes = headerAt;
        if (keepsDictionary) {
          encoder.copyBufferToBuffer(dictionary.table, 0, staging, headerAt, DICTIONARY_HEADER_BYTES);
          readBytes += DICTIONARY_HEADER_BYTES;
        }
        device.queue.submit([encoder.finish()]);
      } finally {
        errors = Promise.all([device.popErrorScope(), device.popErrorScope(), device.popErrorScope()]);
      }
      const error = (await errors).find((e) => e !== null);
      if (error) throw new GpuKernelError('gpu rollout', error.message);
      // Only what was copied: the staging buffer has room for the whole batch's actions.
      await staging.mapAsync(MAP_READ, 0, readBytes);
      let hostFinals: Uint32Array;
      let recordedSample: RecordedSample;
      let actions: Int32Array | null = null;
      let weights: Float32Array;
      let header: Uint32Array;
      try {
        const bytes = staging.getMappedRange(0, readBytes);
        const copy = <C extends Uint32Array | Int32Array>(name: ReadBackName, Ctor: new (b: ArrayBuffer) => C) =>
          new Ctor(bytes.slice(at[name], at[name] + sizes[name]));
        hostFinals = copy('finals', Uint32Array);
        recordedSample = { runs: sample.runs, maxSteps: env.maxSteps, key: sample.key, words: copy('sample', Uint32Array) };
        if (!sampleOnly) actions = copy('actions', Int32Array);
        const { obsDim, actionDim, hiddenSize } = this.policy.shape;
        weights = new Float32Array(bytes.slice(weightsAt, weightsAt + 4 * policyWeightCount(obsDim, actionDim, hiddenSize)));
        header = keepsDictionary ? new Uint32Array(bytes.slice(headerAt, headerAt + DICTIONARY_HEADER_BYTES)) : new Uint32Array(0);
      } finally {
        staging.unmap();
      }
      const graded = kernel.fields.outcome !== undefined;
      const laidOut = { taskSeeds, groupSize, episodeSeeds, recordedSample, hostFinals, graded };
      // Test hooks (gpu/fault-injection.ts): an action no environment admits, as a diverged GPU env would
      // record; a log-probability off by 0.01, as a diverged acting pass would.
      const faultyAction = takeGpuFault('replay');
      const faultyLogProb = takeGpuFault('logProb');
      const t0 = performance.now();
      let rollout: Rollout;
      // The steps whose log-probabilities are checked: runs of `checkedIn`, named by the batch's run.
      let checkedIn: Rollout;
      let checked: number[];
      const batchRuns = (runOffsets: Int32Array) => checkedRuns(runOffsets, sample.key, this.policy.shape);
      if (sampleOnly) {
        const replayed = await this.sampleReplay.replay(episodeSeeds, recordedSample, hostFinals, graded, faultyAction);
        const runs = runsFromFinals(hostFinals, B, graded);
        rollout = stepsOnDemand(
          { numRuns: B, groupSize, groupOffsets: groupOffsetsOf(taskSeeds.length, groupSize), taskSeeds: episodeSeeds, ...runs, sample: replayed },
          () => this.layOutAll(rollout, generation, laidOut),
        );
        // The checked runs are the sample's first (both follow the same permutation): the twin's runs 0, 1, ….
        const names = batchRuns(rollout.runOffsets);
        [checkedIn, checked, this.lastCheckedRuns] = [replayed.rollout, names.map((_, i) => i), names];
      } else {
        if (faultyAction) actions![0] = -1;
        rollout = await this.layOut({ ...laidOut, actions: actions! });
        const names = batchRuns(rollout.runOffsets);
        [checkedIn, checked, this.lastCheckedRuns] = [rollout, names, names];
      }
      this.lastReplaySeconds = (performance.now() - t0) / 1000;
      if (faultyLogProb) checkedIn.logProbs[checkedIn.runOffsets[checked[0]]] += 0.01;
      const t1 = performance.now();
      const batchRun = this.lastCheckedRuns;
      checkLogProbs(checkedIn, weights, this.policy.shape, checked, (i) => batchRun[checked.indexOf(i)]);
      this.lastCheckSeconds = (performance.now() - t1) / 1000;
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
          // Laid out, every live step's candidates are in both dictionaries: a merge of two rows on the GPU shows here.
          if (!rollout.completeReplay) checkDictionaryCount(dictionaryHeader.count, rollout, env.actionDim);
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
    await rollout.completeReplay?.();
    if (generation !== this.collected || !this.records) throw new Error('GpuRolloutCollector: a rollout’s log-probabilities asked for after the next rollout');
    const B = this.env.batchSize;
    const [record] = await readTogether([pendingRead(this.device, [[this.records.logProbs, B * this.env.maxSteps]], ([values]) => values.slice())]);
    const { runOffsets, logProbs } = rollout;
    for (let b = 0; b < B; b++) for (let s = runOffsets[b]; s < runOffsets[b + 1]; s++) logProbs[s] = record[(s - runOffsets[b]) * B + b];
    rollout.completeLogProbs = undefined;
  }

  /**
   * The per-step arrays of a rollout that replayed only its sample (`stepsOnDemand`), while its records
   * are still its own: every step's action read back (one read-back of 4 · T · B bytes) and replayed
   * in the environment, reset again as the rollout found it (no dropout was drawn), with every check
   * of a whole replay.
   */
  private async layOutAll(rollout: Rollout, generation: number, laidOut: LaidOutFrom): Promise<StepArrays> {
    if (generation !== this.collected || !this.records) throw new Error('GpuRolloutCollector: a rollout’s steps asked for after the next rollout');
    const B = this.env.batchSize;
    const [actions] = await readTogether([
      pendingRead(this.device, [[this.records.actions, B * this.env.maxSteps]], ([values]) => new Int32Array(values.slice().buffer)),
    ]);
    resetEpisodes(this.env, laidOut.taskSeeds, laidOut.groupSize, new Rng(0));
    const whole = await this.layOut({ ...laidOut, actions });
    const numRows = rollout.gpuRecords?.candidates?.numRows;
    if (numRows !== undefined) checkDictionaryCount(numRows, whole, this.env.actionDim);
    return whole;
  }

  /**
   * The run-major `Rollout` of every run: the GPU's actions (step-major action words, their milestone
   * flags taken out) replayed in the TypeScript environment (reset above, not stepped since), then each
   * run's final record and each step's flag checked against the replay's. The log-probabilities are
   * the sample's (NaN elsewhere until `completeLogProbs`).
   */
  private async layOut(from: LaidOutFrom & { actions: Int32Array }): Promise<Rollout> {
    const { taskSeeds, groupSize, episodeSeeds, recordedSample, hostFinals, graded, actions } = from;
    const B = this.env.batchSize;
    const flags = splitMilestoneFlags(actions);
    const logProbs = sampledLogProbs(new Float32Array(recordedSample.words.buffer, 0, recordedSample.runs * recordedSample.maxSteps), recordedSample, B);
    let rollout: Rollout;
    try {
      rollout = await this.replayer.replay(taskSeeds, groupSize, episodeSeeds, { actions, logProbs });
    } catch (e) {
      if (e instanceof ReplayMismatchError) throw new GpuKernelError('gpu rollout', `the GPU environment left the TypeScript one: ${e.message}`);
      throw e;
    }
    const finalOf = finalsOf(hostFinals, B, graded);
    for (let b = 0; b < rollout.numRuns; b++) checkFinalRecord(b, finalOf(b), rollout, b);
    if (this.env.detector === 'task') checkMilestoneFlags(rollout, flags);
    return rollout;
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
