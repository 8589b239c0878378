/**
 * The host's side of a GPU rollout after its read-back (gpu-rollout.ts): the batch laid out by
 * replaying the GPU's actions in the TypeScript environment, or only the checked sample's runs
 * (sample-replay.ts), every check of that replay (final records, milestone flags, the dictionary's
 * count of rows, the sampled log-probabilities against the policy), and the records left on the GPU
 * for the update, the metrics and a later `completeReplay` or `completeLogProbs`.
 */
import type { VecEnv } from '../../envs/types.ts';
import { DICTIONARY_HEADER_BYTES, dictionaryRefusal, readDictionaryHeader } from '../gpu/candidate-dictionary.ts';
import type { GpuEnvKernel } from '../gpu/gpu-envs.ts';
import { GpuKernelError } from '../gpu/kernel.ts';
import { takeGpuFault } from '../gpu/fault-injection.ts';
import { pendingRead, readTogether } from '../gpu/pending-read.ts';
import { policyWeightCount } from '../gpu/policy-logits.ts';
import type { Policy } from '../policy/policy.ts';
import { Rng } from '../prng.ts';
import type { ReadLayout, RolloutStart } from './gpu-rollout-parts.ts';
import { readBackSizes, type ReadBackName, type RecordName } from './gpu-rollout-sizes.ts';
import { checkedRuns, checkLogProbs } from './log-prob-check.ts';
import { checkFinalRecord, checkMilestoneFlags, sampledLogProbs, splitMilestoneFlags } from './rollout-records.ts';
import { groupOffsetsOf, ReplayMismatchError, resetEpisodes, RolloutCollector, type Rollout, type StepArrays, stepsOnDemand } from './rollout.ts';
import { finalsOf, type RecordedSample, runsFromFinals, SampleReplay } from './sample-replay.ts';

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

/** The collector's records a finished rollout leaves on the GPU, and whether a rollout is still the latest. */
export interface KeptRecords {
  device: GPUDevice;
  records: Record<RecordName, GPUBuffer>;
  obsRecord: GPUBuffer;
  runOffsets: GPUBuffer;
  dictionary: { table: GPUBuffer; features: GPUBuffer };
  isLatest(generation: number): boolean;
}

export class RolloutFinish {
  /** Lays the batch out by replaying the GPU's actions in the TypeScript environment. */
  private readonly replayer: RolloutCollector;
  /** Replays and checks the sample where the host replays no other run. */
  private readonly sampleReplay: SampleReplay;
  private kept: KeptRecords | null = null;
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
    private readonly kernel: GpuEnvKernel,
  ) {
    this.replayer = new RolloutCollector(env, policy);
    this.sampleReplay = new SampleReplay(env, policy);
  }

  /**
   * The rollout from what came back (`bytes`, laid out as `read` says): the batch laid out by replaying
   * the actions in the TypeScript environment (or only the sample's runs), checked against the GPU's
   * final records, flags, dictionary and log-probabilities; the records left on the GPU for the update.
   */
  async finish(start: RolloutStart, bytes: ArrayBuffer, read: ReadLayout, kept: KeptRecords): Promise<Rollout> {
    const { env, kernel } = this;
    this.kept = kept;
    const B = env.batchSize;
    const { sample, sampleOnly, taskSeeds, groupSize, episodeSeeds, generation } = start;
    const sizes = readBackSizes(env);
    const copy = <C extends Uint32Array | Int32Array>(name: ReadBackName, Ctor: new (b: ArrayBuffer) => C) =>
      new Ctor(bytes.slice(read.at[name], read.at[name] + sizes[name]));
    const hostFinals = copy('finals', Uint32Array);
    const recordedSample: RecordedSample = { runs: sample.runs, maxSteps: env.maxSteps, key: sample.key, words: copy('sample', Uint32Array) };
    const actions = sampleOnly ? null : copy('actions', Int32Array);
    const { obsDim, actionDim, hiddenSize } = this.policy.shape;
    const weights = new Float32Array(bytes.slice(read.weightsAt, read.weightsAt + 4 * policyWeightCount(obsDim, actionDim, hiddenSize)));
    const keepsDictionary = kept.dictionary.table.size > 4;
    const header = keepsDictionary ? new Uint32Array(bytes.slice(read.headerAt, read.headerAt + DICTIONARY_HEADER_BYTES)) : new Uint32Array(0);
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
    if (kept.obsRecord.size > 4) this.keepRecords(rollout, start, header);
    rollout.completeLogProbs = () => this.completeLogProbs(rollout, generation);
    return rollout;
  }

  /** The records left on the GPU for the update and the metrics, and the dictionary where the batch takes it. */
  private keepRecords(rollout: Rollout, start: RolloutStart, header: Uint32Array): void {
    const { records, dictionary } = this.kept!;
    const keepsDictionary = dictionary.table.size > 4;
    rollout.gpuRecords = {
      obs: this.kept!.obsRecord,
      actions: records.actions,
      logProbs: records.logProbs,
      runOffsets: rollout.runOffsets,
      offsets: this.kept!.runOffsets,
      milestones: start.flagsAreTheBatch,
      credit: { finals: records.finals, stateKeysAt: this.env.maxSteps * this.env.batchSize },
    };
    const dictionaryHeader = readDictionaryHeader(header);
    this.lastDictionaryRefusal = keepsDictionary ? dictionaryRefusal(dictionaryHeader) : 'the candidate dictionary would be over the binding limit';
    if (this.lastDictionaryRefusal === null) {
      // Laid out, every live step's candidates are in both dictionaries: a merge of two rows on the GPU shows here.
      if (!rollout.completeReplay) checkDictionaryCount(dictionaryHeader.count, rollout, this.env.actionDim);
      rollout.gpuRecords.candidates = { ...dictionary, numRows: dictionaryHeader.count };
    }
  }

  /**
   * Every step's recorded log-probability into `rollout.logProbs` (run-major), read from the record
   * while it is still that rollout's: one read-back of 4 · T · B bytes, for an update that does not
   * gather them on the GPU (a batch over the fused kernels' limits, or records not kept).
   */
  private async completeLogProbs(rollout: Rollout, generation: number): Promise<void> {
    await rollout.completeReplay?.();
    if (!this.kept?.isLatest(generation)) throw new Error('GpuRolloutCollector: a rollout’s log-probabilities asked for after the next rollout');
    const B = this.env.batchSize;
    const [record] = await readTogether([pendingRead(this.kept.device, [[this.kept.records.logProbs, B * this.env.maxSteps]], ([values]) => values.slice())]);
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
    if (!this.kept?.isLatest(generation)) throw new Error('GpuRolloutCollector: a rollout’s steps asked for after the next rollout');
    const B = this.env.batchSize;
    const [actions] = await readTogether([
      pendingRead(this.kept.device, [[this.kept.records.actions, B * this.env.maxSteps]], ([values]) => new Int32Array(values.slice().buffer)),
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
}
