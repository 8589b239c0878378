/**
 * One method's training loop, iteration by iteration: rollout → advantages → PPO update → metrics.
 *
 * The same class runs in Node (CLI, tests, study) and in the page. It assumes the tfjs backend is
 * already selected. Randomness comes from forks of one Rng seeded by `config.seed`, one stream per
 * consumer, so two trainers with the same seed see the same task stream, and a GRPO and a γ = 1 BEACON
 * trainer take identical steps.
 *
 * With `sftEpisodes` > 0 the policy starts from the SFT prior (sft-prior.ts), loaded before the first
 * rollout; every method of the seed gets the same one. A method learns by PPO on its advantages, or, for
 * the SFT baseline, by behaviour cloning on as many oracle steps as its rollout took (docs/maths.md §9).
 */
import * as tf from '@tensorflow/tfjs-core';
import { createEnv, type VecEnv } from '../../envs/index.ts';
import { createAdam } from '../backend/webgpu-adam.ts';
import { getWebGpuDevice } from '../backend/webgpu-interop.ts';
import type { AdvantageBatch } from '../advantages/types.ts';
import { advantageSettings, detectorOf, type TrainConfig } from '../config.ts';
import { methodSpec } from '../methods/registry.ts';
import type { CreditMetrics } from '../metrics/credit-metrics.ts';
import { GpuCreditMetrics } from '../gpu/credit-metrics.ts';
import { type PendingRead, readTogether } from '../gpu/pending-read.ts';
import type { Policy, PolicyWeights } from '../policy/policy.ts';
import { Rng } from '../prng.ts';
import { checkCombinedLimits } from '../setting-limits.ts';
import { cpuAdvantageEngine, type AdvantageEngine } from '../engine/advantage-engine.ts';
import { behaviourCloning } from './behaviour-cloning.ts';
import { createCollector, type Collector } from './collector-choice.ts';
import { IterationRoute, type PhaseRoute } from './iteration-path.ts';
import { FusedCriticUpdate } from './critic-fused.ts';
import { CriticLearner } from './critic-learner.ts';
import { collectDemonstrations, trainingTaskSeed } from './demonstrations.ts';
import type { IterationRecord } from './iteration-record.ts';
import { detailsOnCpu, isPendingDetails, type ReadBack, readIteration, releaseIteration, type UpdateStats } from './iteration-read-back.ts';
import { advantageBatchOf } from './advantage-batch.ts';
import { recordIteration } from './record-iteration.ts';
import { creditMetricsOnGpu, type IterationKernels, milestonesOnGpu, readsStepsOnGpu } from './gpu-batch-reads.ts';
import { MinibatchRows, ppoUpdate, ppoUpdateDeferred, readPpoStats, type PpoStats } from './ppo.ts';
import { FusedPpoUpdate } from './ppo-fused.ts';
import { rolloutSteps, type Rollout } from './rollout.ts';
import { priorEpisodes } from './prior-size.ts';
import { initialPolicy, priorKey, sftPrior } from './sft-prior.ts';
import { adamPart, StateError, variablesPart, type PartState, type StatePart } from './state-parts.ts';
import { disposePpoBatch, toPpoBatch } from './update-batch.ts';
import { type BatchView, LatestBatch } from './latest-batch.ts';
import { sampleDetailsRead } from './sample-view.ts';
import type { TrainerState } from './trainer-state.ts';

export type { TrainerState } from './trainer-state.ts';

const now = () => performance.now();

export class Trainer {
  readonly env: VecEnv;
  readonly policy: Policy;
  private config: TrainConfig;
  private readonly optimizer: tf.AdamOptimizer;
  readonly collector: Collector;
  /** The rollout's path, chosen once (collector-choice.ts), and why not the GPU's where it was asked for. */
  private readonly rolloutRoute: PhaseRoute<'rollout'>;
  /** The PPO update as WGSL kernels (ppo-fused.ts): on webgpu, when the engine carries the WGSL sources. */
  readonly fusedPpo: FusedPpoUpdate | null;
  /** The credit metrics on the GPU (credit-metrics.ts): on webgpu, when the engine carries the WGSL sources. */
  readonly gpuMetrics: GpuCreditMetrics | null;
  /** Which of the iteration's kernels this trainer has (gpu-batch-reads.ts). */
  private readonly kernels: IterationKernels;
  private readonly minibatchRows = new MinibatchRows();
  private readonly taskRng: Rng;
  private readonly rolloutRng: Rng;
  private readonly updateRng: Rng;
  private readonly segmentRng: Rng;
  private readonly demonstrationRng: Rng;
  private readonly evaluationRng: Rng;
  /** Milestone dropout's decisions, a stream of their own (docs/maths.md §6); null without dropout. */
  private readonly dropoutRng: Rng | null;
  /** False alarms' draws (docs/maths.md §6), a stream of their own; null without false alarms. */
  private readonly detectorRng: Rng | null;
  /** The sloppy teacher's slips (`demoNoise`), a stream of their own; null with an exact teacher. */
  private readonly teacherRng: Rng | null;
  /** Critic PPO's value network (docs/maths.md §8); null for the other methods. */
  private readonly critic: CriticLearner | null = null;
  private completed = 0;
  /** Resolves once the starting weights (random init or the SFT prior) are in place. */
  private started: Promise<void> | null = null;
  /** The latest batch, its advantage details possibly still on the GPU (`batchView` reads them). */
  private readonly latest = new LatestBatch();
  /**
   * Whether the batch of iteration `i` (1-based) will be viewed (`batchView`): its advantage details
   * are then read with the iteration's other values. Where the metrics are computed on the GPU they
   * need not be read at all, so an iteration nobody views leaves them there (the page's worker says
   * which it will draw, src/worker/snapshot-pacer.ts); `batchView` still reads them, one read-back more.
   */
  batchViewWanted: (iteration: number) => boolean = () => false;
  /**
   * What a checkpoint saves besides the streams: the policy and its optimiser. A learner with state of
   * its own (a critic network and its optimiser) adds its parts here in the constructor.
   */
  protected readonly parts: Record<string, StatePart>;
  /** Reads the iteration's values (a seed batch's rollout and read-back join its seeds': src/worker/seed-runs.ts). */
  readBack: ReadBack = readTogether;

  /** `prior`: the SFT prior's weights when the caller already has them (else they are computed). */
  constructor(
    config: TrainConfig,
    private readonly engine: AdvantageEngine = cpuAdvantageEngine,
    private readonly prior?: PolicyWeights,
  ) {
    this.config = config;
    checkCombinedLimits(config); // settings too big together are refused here, not deep in the env
    const root = new Rng(config.seed);
    this.taskRng = root.fork('tasks');
    this.rolloutRng = root.fork('rollout');
    this.updateRng = root.fork('update');
    this.segmentRng = root.fork('segments');
    this.demonstrationRng = root.fork('demonstrations');
    this.evaluationRng = root.fork('evaluation');
    // Its own stream, so a run with dropout plays the same task and action streams as one without.
    this.dropoutRng = config.milestoneDropout > 0 ? root.fork('dropout') : null;
    // Likewise the detector settings' and the teacher's draws: none at the defaults.
    this.detectorRng = config.milestoneFalseAlarms > 0 ? root.fork('detector') : null;
    this.teacherRng = config.demoNoise > 0 ? root.fork('teacher') : null;
    this.env = createEnv(config.env, {
      horizon: config.horizon,
      batchSize: config.tasksPerIteration * config.groupSize,
      milestoneDropout: config.milestoneDropout,
      detector: detectorOf(config),
    });
    this.policy = initialPolicy(config, this.env.obsDim, this.env.actionDim);
    this.optimizer = createAdam(config.learningRate);
    const fused = tf.getBackend() === 'webgpu' && engine.shaders ? { shaders: engine.shaders, device: getWebGpuDevice() } : null;
    if (methodSpec(config.method).learner.critic) {
      this.critic = new CriticLearner(
        this.env.obsDim,
        config,
        root.fork('critic-init'),
        root.fork('critic'),
        fused && new FusedCriticUpdate(fused.shaders, fused.device),
      );
    }
    ({ collector: this.collector, route: this.rolloutRoute } = createCollector(this.env, this.policy, engine));
    // createAdam gives the fused Adam exactly on webgpu (tfjs optimisers answer instanceof structurally).
    this.fusedPpo = fused && new FusedPpoUpdate(fused.shaders, fused.device);
    this.gpuMetrics = fused && new GpuCreditMetrics(fused.device, fused.shaders);
    this.kernels = { update: !!this.fusedPpo, metrics: !!this.gpuMetrics, critic: !!this.critic, deferredAdvantages: !!engine.computeDeferred };
    this.parts = { policy: variablesPart(this.policy.variables, 'policy'), optimizer: adamPart(this.optimizer, 'optimizer'), ...engine.parts };
    if (this.critic) {
      this.parts.critic = variablesPart(this.critic.net.variables, 'critic');
      this.parts.criticOptimizer = adamPart(this.critic.optimizer, 'criticOptimizer');
    }
  }

  /**
   * Every random stream of the trainer, by name, for checkpoints. A new stream must be listed here
   * (test/trainer/checkpoint.test.ts fails on an Rng field that is not).
   */
  private streams(): Record<string, Rng> {
    return {
      tasks: this.taskRng,
      rollout: this.rolloutRng,
      update: this.updateRng,
      segments: this.segmentRng,
      demonstrations: this.demonstrationRng,
      evaluation: this.evaluationRng,
      ...(this.critic ? { critic: this.critic.rng } : {}),
      ...(this.dropoutRng ? { dropout: this.dropoutRng } : {}),
      ...(this.detectorRng ? { detector: this.detectorRng } : {}),
      ...(this.teacherRng ? { teacher: this.teacherRng } : {}),
    };
  }

  /** Resolves once the starting weights are in place (a state taken before that would miss the prior). */
  ready(): Promise<void> {
    return this.start();
  }

  /** A copy of the trainer's state; call between iterations (TrainingRun sees to it). */
  async saveState(): Promise<TrainerState> {
    await this.start();
    const streams = Object.fromEntries(Object.entries(this.streams()).map(([k, rng]) => [k, rng.state()]));
    const parts: Record<string, PartState> = {};
    for (const [name, part] of Object.entries(this.parts)) parts[name] = await part.save();
    return { iteration: this.completed, config: { ...this.config }, priorKey: priorEpisodes(this.config) === 0 ? null : priorKey(this.config), streams, parts };
  }

  /**
   * Continues from `state`, taken from a trainer of the same config (the caller builds this trainer with
   * `state.config`). The prior is not trained again: its effect is in the saved weights. Throws a
   * StateError naming the first stream or part that does not fit.
   */
  async loadState(state: TrainerState): Promise<void> {
    const streams = this.streams();
    const names = (o: object) => Object.keys(o).sort().join(', ');
    if (names(state.streams) !== names(streams))
      throw new StateError(`the checkpoint's random streams (${names(state.streams)}) are not this trainer's (${names(streams)})`);
    if (names(state.parts) !== names(this.parts))
      throw new StateError(`the checkpoint's parts (${names(state.parts)}) are not this method's (${names(this.parts)})`);
    for (const [k, rng] of Object.entries(streams)) {
      try {
        rng.setState(state.streams[k]);
      } catch (e) {
        throw new StateError(`random stream ${k}: ${(e as Error).message}`);
      }
    }
    for (const [name, part] of Object.entries(this.parts)) await part.load(state.parts[name]);
    this.started = Promise.resolve();
    this.completed = state.iteration;
    this.updateSettings(state.config);
  }

  /** Puts the starting weights in place once: the SFT prior's when `sftEpisodes` > 0. */
  private start(): Promise<void> {
    this.started ??= (async () => {
      const prior = this.prior ?? (await sftPrior(this.config, this.engine.shaders));
      if (prior) this.policy.setWeights(prior);
    })();
    return this.started;
  }

  get iteration(): number {
    return this.completed;
  }

  /** The latest batch where its advantage details are on the CPU (else null: `batchView` reads them). */
  get lastBatch(): BatchView | null {
    return this.latest.onCpu;
  }

  /** The latest batch, for the episode viewer and the credit view: its advantage details read from the GPU if they were left there. */
  batchView(): Promise<BatchView | null> {
    return this.latest.read();
  }

  get settings(): Readonly<TrainConfig> {
    return this.config;
  }

  /** Applies settings that take effect from the next iteration (those with `restart: false`). */
  updateSettings(changes: Partial<TrainConfig>): void {
    this.config = { ...this.config, ...changes };
    // tfjs's Adam reads its learning rate on every step; the field is not exposed in the typings.
    for (const o of [this.optimizer, this.critic?.optimizer]) if (o) (o as unknown as { learningRate: number }).learningRate = this.config.learningRate;
  }

  async step(): Promise<IterationRecord> {
    await this.start();
    this.latest.release(); // details left on the GPU are not read after the next rollout
    const c = this.config;
    const t0 = now();
    const route = new IterationRoute(this.rolloutRoute);
    const taskSeeds = Uint32Array.from({ length: c.tasksPerIteration }, () => trainingTaskSeed(this.taskRng));
    const replay = readsStepsOnGpu(c, this.kernels) ? 'sample' : 'all';
    const rollout = await this.collector.collect(taskSeeds, c.groupSize, this.rolloutRng, this.dropoutRng ?? this.rolloutRng, { replay });
    const t1 = now();
    const values = this.critic ? await this.critic.values(rollout, c) : undefined;
    const tc = now();
    const batch = this.advantageBatch(rollout, values);
    const settings = advantageSettings(c);
    // Without a critic (whose update needs r_t first) the details may wait on the GPU for the iteration's
    // one read-back, with the PPO statistics (iteration-read-back.ts).
    const records = milestonesOnGpu(rollout, c);
    const {
      tensor: advantages,
      details,
      anchorCoverage,
    } = !this.critic && this.engine.computeDeferred
      ? await this.engine.computeDeferred(batch, settings, records)
      : await this.engine.compute(batch, settings, records).then(({ tensor, result }) => ({ tensor, details: result, anchorCoverage: result.anchorCoverage }));
    const t2 = now();
    let metrics: PendingRead<CreditMetrics> | undefined;
    try {
      const onGpu = await creditMetricsOnGpu(this.gpuMetrics, c, rollout, records, advantages, details, anchorCoverage);
      route.note('metrics', { path: onGpu.metrics ? 'gpu' : 'host', fallback: onGpu.fallback });
      metrics = onGpu.metrics;
      // The CPU computes the metrics from the steps (a batch over the metric kernels' limits).
      if (!metrics) await rollout.completeReplay?.();
    } catch (e) {
      advantages.dispose();
      releaseIteration(details);
      throw e;
    }
    // The method's learner picks the policy update; each update takes the advantages tensor over and disposes it.
    const update = methodSpec(c.method).learner.policyUpdate<() => Promise<UpdateStats>>({
      clippedSurrogate: () => this.reinforce(rollout, advantages, route, isPendingDetails(details)),
      behaviourCloning: () => this.clone(rolloutSteps(rollout), advantages, route),
    });
    let pending: UpdateStats;
    try {
      pending = await update().finally(() => this.fusedPpo?.kernels.seat?.leave()); // a seed on the ops: the others go on
    } catch (e) {
      releaseIteration(details);
      metrics?.release();
      throw e;
    }
    const wanted = this.batchViewWanted(this.completed + 1);
    const leaveDetails = metrics !== undefined && !wanted;
    // Steps still laid out for the checked sample alone: the views draw that sample, and read only its details.
    const sample = rollout.completeReplay && rollout.sample ? { ...rollout.sample, batch: this.advantageBatch(rollout.sample.rollout, undefined) } : undefined;
    const toRead = sample && wanted && isPendingDetails(details) ? sampleDetailsRead(details, rollout.runOffsets, sample.runs) : details;
    const read = await readIteration(toRead, pending, metrics, leaveDetails, this.readBack);
    const { stats } = read;
    const result = read.details;
    const t3 = now();
    // The critic's iterations compute their advantages with the details on the CPU (no metrics on the GPU).
    const valueLoss = this.critic ? await this.critic.update(rollout, detailsOnCpu(result, 'the critic').shapedRewards, this.config) : undefined;
    const t4 = now();
    this.completed++;
    this.latest.keep(rollout, batch, result, sample);
    const ms = { rollout: t1 - t0, advantage: t2 - tc, update: t3 - t2, ...(this.critic ? { critic: tc - t1 + (t4 - t3) } : {}) };
    return recordIteration(
      this.completed,
      c.method,
      rollout,
      batch,
      result,
      { ...stats, ...(valueLoss === undefined ? {} : { valueLoss }) },
      ms,
      route,
      read.metrics,
      anchorCoverage,
    );
  }

  /**
   * Iteration 0: the starting policy (the SFT prior, or random init) measured on one batch of the
   * evaluation stream, with no update. Training streams are untouched, so it may be called or not
   * without changing the records that follow.
   */
  async evaluate(): Promise<IterationRecord> {
    await this.start();
    const c = this.config;
    const t0 = now();
    const taskSeeds = Uint32Array.from({ length: c.tasksPerIteration }, () => trainingTaskSeed(this.evaluationRng));
    const rollout = await this.collector.collect(taskSeeds, c.groupSize, this.evaluationRng, this.dropoutRng ?? this.evaluationRng);
    const t1 = now();
    // False alarms draw from the evaluation stream here, so the detector stream is the training batches' alone.
    const batch = this.advantageBatch(rollout, this.critic ? await this.critic.values(rollout, c) : undefined, this.detectorRng && this.evaluationRng);
    const { tensor, result } = await this.engine.compute(batch, advantageSettings(c));
    tensor.dispose();
    const t2 = now();
    const none = { policyLoss: NaN, entropy: NaN, approxKl: NaN, clipFraction: NaN, gradNorm: NaN };
    const route = new IterationRoute(this.rolloutRoute); // no update, the metrics from the details on the host
    return recordIteration(0, c.method, rollout, batch, result, none, { rollout: t1 - t0, advantage: t2 - t1, update: 0 }, route);
  }

  /** The batch the advantages take from a rollout (advantage-batch.ts). */
  private advantageBatch(rollout: Rollout, values: Float32Array | undefined, detectorRng = this.detectorRng): AdvantageBatch {
    return advantageBatchOf(rollout, values, this.config, detectorRng, this.segmentRng);
  }

  /**
   * PPO on the rollout's per-step advantages (the batch takes `advantages` over). With `defer` the
   * statistics are left pending, to be read with the advantage details (iteration-read-back.ts). On
   * webgpu the fused kernels run it (ppo-fused.ts), unless the batch is over their limits: then the
   * tfjs ops do, cut into chunks where needed (update-chunks.ts), and `route` keeps the refusal's reason.
   */
  private async reinforce(rollout: Rollout, advantages: tf.Tensor1D, route: IterationRoute, defer = false): Promise<UpdateStats> {
    // Without the GPU's candidate dictionary the update numbers the host's rows: they need the steps.
    if (!rollout.gpuRecords?.candidates) await rollout.completeReplay?.();
    const batch = toPpoBatch(rollout, this.env, advantages, this.minibatchRows);
    try {
      const refusal = this.fusedPpo?.refusal(this.policy, batch, this.config) ?? null;
      const fused = refusal === null ? this.fusedPpo : null;
      route.note('update', { path: fused ? 'fused' : 'ops', fallback: refusal });
      // A GPU rollout brought back only its checked runs' log-probabilities (and maybe steps): an update
      // that does not gather its batch on the GPU reads the rest first (into the arrays the batch holds).
      if (!(fused && batch.records)) await rollout.completeLogProbs?.();
      if (fused) {
        const pending = await fused.updateDeferred(this.policy, this.optimizer, batch, this.config, this.updateRng);
        return defer ? pending : await readPpoStats(pending);
      }
      if (defer) return ppoUpdateDeferred(this.policy, this.optimizer, batch, this.config, this.updateRng);
      return await ppoUpdate(this.policy, this.optimizer, batch, this.config, this.updateRng);
    } finally {
      disposePpoBatch(batch);
    }
  }

  /** The SFT baseline's update: behaviour cloning on `steps` fresh oracle steps (docs/maths.md §9). */
  private async clone(steps: number, advantages: tf.Tensor1D, route: IterationRoute): Promise<PpoStats> {
    advantages.dispose(); // reported in the metrics, never used by cloning
    const teacher = this.teacherRng ? { noise: this.config.demoNoise, rng: this.teacherRng } : undefined;
    const demos = collectDemonstrations(this.env, this.demonstrationRng, { minSteps: steps }, teacher);
    const { loss, path, fallback } = await behaviourCloning(this.policy, this.optimizer, demos, this.config, this.updateRng, this.fusedPpo?.kernels);
    route.note('update', { path, fallback });
    return { policyLoss: loss, entropy: NaN, approxKl: NaN, clipFraction: NaN, gradNorm: NaN };
  }

  /** Lets go of the GPU buffers the next iteration makes again (a race that ended): the latest batch stays only if read to the host. */
  trim(): void {
    if (!this.latest.onCpu) this.latest.release();
    for (const part of [this.collector, this.fusedPpo, this.gpuMetrics, this.critic, this.engine]) part?.trim?.();
  }

  dispose(): void {
    this.latest.release();
    for (const part of [this.collector, this.fusedPpo, this.gpuMetrics, this.critic, this.engine]) part?.dispose?.();
    this.policy.dispose();
    this.optimizer.dispose();
  }
}
