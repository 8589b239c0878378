/**
 * One method's runs over several seeds (the page setting `seeds`), trained in lock-step by one worker:
 * each iteration steps seed 1's run, then seed 2's, … so every seed has completed the same iterations
 * whenever the worker takes a command, and the page's mean over seeds never waits for a straggler.
 *
 * Why one worker per method and not one per (method, seed): the page already gives every method a
 * worker (and its share of the cores), so methods keep their own pace as before and a fast method
 * never starves a slow one; k seeds just make each of a method's iterations k times the work. A worker
 * per seed would multiply tfjs backends, wasm instances and GPU devices by k on a machine that may have
 * two cores. Each seed is an ordinary `TrainingRun` (the one driver) with its own trainer, PRNG and
 * advantage engine, so seed s here gives the same records as a single-seed race of seed s.
 *
 * On webgpu the seeds' rollouts play as one (src/trainer/gpu-rollout-batch.ts): `step` starts every
 * seed's iteration at once, each trainer's rollout joins the batch, one dispatch plays every seed's
 * runs, and each trainer goes on with its own rollout; their advantages on the kernels meet again, and so
 * do their credit metrics (src/trainer/seed-meeting.ts: one set of dispatches for every seed); each
 * hands its update to one that runs every seed's through each kernel once (src/gpu/fused-ppo-seeds.ts),
 * and their end-of-iteration read-backs meet. Where the batch
 * cannot be made (`batchRefusal` says why) or on wasm and cpu, the seeds step one after the other.
 */
import * as tf from '@tensorflow/tfjs-core';
import { getWebGpuDevice } from '../backend/webgpu-interop.ts';
import type { TrainConfig } from '../config.ts';
import type { PolicyWeights } from '../policy/policy.ts';
import type { AdvantageEngine } from '../engine/advantage-engine.ts';
import type { RunState } from '../trainer/checkpoint.ts';
import type { IterationRecord } from '../trainer/iteration-record.ts';
import { type PendingRead, readTogether } from '../gpu/pending-read.ts';
import { SeedRolloutBatch } from '../trainer/gpu-rollout-batch.ts';
import { type SeedAdvantageCall, submitSeedAdvantages } from '../gpu/seed-advantages.ts';
import type { SeedMetricsCall } from '../gpu/credit-metrics.ts';
import { submitSeedMetrics } from '../gpu/seed-credit-metrics.ts';
import { SeedPpoUpdates, type SeedUpdateCall } from '../gpu/fused-ppo-seeds.ts';
import { SeedMeeting } from '../trainer/seed-meeting.ts';
import { Rendezvous } from '../trainer/rendezvous.ts';
import { GpuRolloutCollector } from '../trainer/gpu-rollout.ts';
import { TrainingRun } from '../trainer/run.ts';
import type { Trainer } from '../trainer/trainer.ts';

export interface SeedRecord {
  seed: number;
  record: IterationRecord;
}

/** Every seed's pending values in one read-back, handed back seed by seed. */
async function readEverySeed(lists: PendingRead<unknown>[][]): Promise<unknown[][]> {
  const values = await readTogether(lists.flat());
  let at = 0;
  return lists.map((list) => values.slice(at, (at += list.length)));
}

export class SeedRuns {
  /** The seeds' GPU rollouts played as one, or null (one seed, not on webgpu, or refused: `batchRefusal`). */
  private readonly batch: SeedRolloutBatch | null = null;
  /** Why the seeds' rollouts play one after the other on webgpu, or null. */
  readonly batchRefusal: string | null = null;
  /** Where the batched seeds' advantages on the kernels meet (seed-meeting.ts), or null: each seed's engine alone. */
  private readonly advantages: SeedMeeting<SeedAdvantageCall> | null = null;
  /** Where the batched seeds' credit metrics meet, or null: each seed's kernels alone. */
  private readonly metrics: SeedMeeting<SeedMetricsCall> | null = null;
  /** Where the batched seeds' fused updates meet: one set of dispatches and one submit for all (fused-ppo-seeds.ts), or null: each seed's alone. */
  private readonly updates: SeedMeeting<SeedUpdateCall> | null = null;
  /** The joined update's kernels and buffers (fused-ppo-seeds.ts), or null. */
  private readonly joinedUpdates: SeedPpoUpdates | null = null;
  /** Where the batched seeds' end-of-iteration read-backs meet: one read-back for all (iteration-read-back.ts). */
  private readonly reads = new Rendezvous<PendingRead<unknown>[], unknown[]>(readEverySeed);

  private constructor(
    private readonly runs: readonly TrainingRun[],
    engines: readonly AdvantageEngine[],
  ) {
    const collectors = runs.map((r) => r.trainer.collector);
    if (runs.length < 2 || tf.getBackend() !== 'webgpu') return;
    if (!collectors.every((c) => c instanceof GpuRolloutCollector)) {
      this.batchRefusal = 'the seeds roll out on the CPU';
      return;
    }
    const batch = SeedRolloutBatch.create(collectors, getWebGpuDevice());
    if (typeof batch === 'string') {
      this.batchRefusal = batch;
      return;
    }
    this.batch = batch;
    runs.forEach((r, i) => (r.trainer.readBack = (reads) => this.reads.join(i, reads)));
    if (engines.every((e) => e.seatAdvantages)) {
      const advantages = new SeedMeeting('seed advantages', submitSeedAdvantages);
      engines.forEach((e, i) => e.seatAdvantages!(advantages.seat(i)));
      this.advantages = advantages;
    }
    const fused = runs.map((r) => r.trainer.fusedPpo?.kernels ?? null);
    if (fused.every((k) => k !== null)) {
      const joined = new SeedPpoUpdates();
      this.joinedUpdates = joined;
      const updates = new SeedMeeting<SeedUpdateCall>('seed updates', (calls) => joined.submit(calls));
      fused.forEach((k, i) => (k!.seat = updates.seat(i)));
      this.updates = updates;
    }
    const gpuMetrics = runs.map((r) => r.trainer.gpuMetrics);
    if (gpuMetrics.every((m) => m !== null)) {
      const metrics = new SeedMeeting('seed credit metrics', submitSeedMetrics);
      gpuMetrics.forEach((m, i) => (m.seat = metrics.seat(i)));
      this.metrics = metrics;
    }
  }

  /** The seeds' advantages' meeting (tests count its rounds), or null. */
  get advantageBatch(): SeedMeeting<SeedAdvantageCall> | null {
    return this.advantages;
  }

  /** The seeds' credit metrics' meeting (tests count its rounds), or null. */
  get metricsBatch(): SeedMeeting<SeedMetricsCall> | null {
    return this.metrics;
  }

  /** The seeds' updates' meeting (tests count its rounds), or null. */
  get updateBatch(): SeedMeeting<SeedUpdateCall> | null {
    return this.updates;
  }

  /** The seeds' rollout batch (tests count its rounds), or null. */
  get rolloutBatch(): SeedRolloutBatch | null {
    return this.batch;
  }

  /**
   * The runs of `configs` (one per seed, in seed order), each from its prior (null or absent: the
   * trainer computes its own) on an engine of its own. Returns null, with nothing left allocated, when
   * `superseded()` turns true while an engine is being prepared.
   */
  static async create(
    configs: readonly TrainConfig[],
    priors: readonly (PolicyWeights | null | undefined)[],
    engine: (index: number) => Promise<AdvantageEngine>,
    superseded: () => boolean,
  ): Promise<SeedRuns | null> {
    const runs: TrainingRun[] = [];
    const engines: AdvantageEngine[] = [];
    try {
      for (const [i, config] of configs.entries()) {
        const e = await engine(i);
        if (superseded()) {
          e.dispose();
          runs.forEach((r) => r.dispose());
          return null;
        }
        const prior = priors[i];
        engines.push(e);
        runs.push(new TrainingRun(config, e, prior ? { prior } : {}));
      }
    } catch (err) {
      runs.forEach((r) => r.dispose());
      throw err;
    }
    return new SeedRuns(runs, engines);
  }

  get seeds(): number[] {
    return this.runs.map((r) => r.trainer.settings.seed);
  }

  /** Iterations every seed has completed. */
  get iteration(): number {
    return Math.min(...this.runs.map((r) => r.iteration));
  }

  /** The first seed's trainer: its batches are the ones the page replays. */
  get trainer(): Trainer {
    return this.runs[0].trainer;
  }

  /** Why the method stopped (a seed's run diverged; the method stops with it), or null. */
  get halted(): string | null {
    const run = this.runs.find((r) => r.halted !== null);
    if (!run) return null;
    return this.runs.length > 1 ? `seed ${run.trainer.settings.seed}: ${run.halted}` : run.halted;
  }

  /** Every seed reached the budget, or one halted. */
  get finished(): boolean {
    return this.halted !== null || this.runs.every((r) => r.finished);
  }

  updateSettings(changes: Partial<TrainConfig>): void {
    for (const r of this.runs) r.updateSettings(changes);
  }

  /** Iteration 0 of every seed. */
  async evaluateStart(): Promise<SeedRecord[]> {
    const out: SeedRecord[] = [];
    for (const r of this.runs) out.push({ seed: r.trainer.settings.seed, record: await r.evaluateStart() });
    return out;
  }

  /**
   * One iteration of every seed, in seed order; the records of those that ran. Fewer than one per seed
   * only when a seed diverged (then `halted` says which) or the budget was reached.
   */
  async step(): Promise<SeedRecord[]> {
    if (this.batch) return this.stepTogether(this.batch);
    const out: SeedRecord[] = [];
    for (const r of this.runs) {
      const record = await r.step();
      if (record) out.push({ seed: r.trainer.settings.seed, record });
      if (r.halted !== null) break;
    }
    return out;
  }

  /**
   * One iteration of every seed still training, their rollouts in one batch: the trainers run at once
   * and meet in the batch, then each goes on with its own iteration. Every seed completes the iteration
   * (a seed that diverges does not stop the others' iteration in flight); an error is thrown once all
   * have settled.
   */
  private async stepTogether(batch: SeedRolloutBatch): Promise<SeedRecord[]> {
    const running = this.runs.filter((r) => !r.finished);
    batch.arm(running.length);
    this.reads.arm(running.length);
    this.advantages?.arm(running.length);
    this.metrics?.arm(running.length);
    this.updates?.arm(running.length);
    const settled = await Promise.allSettled(
      running.map((r) =>
        r.step().finally(() => {
          batch.leave(r.trainer.collector as GpuRolloutCollector);
          this.reads.leave(this.runs.indexOf(r));
          this.advantages?.leave(this.runs.indexOf(r));
          this.metrics?.leave(this.runs.indexOf(r));
          this.updates?.leave(this.runs.indexOf(r));
        }),
      ),
    );
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const out: SeedRecord[] = [];
    settled.forEach((s, i) => {
      if (s.status === 'fulfilled' && s.value) out.push({ seed: running[i].trainer.settings.seed, record: s.value });
    });
    return out;
  }

  /** Every seed's state (checkpoint.ts), in seed order: taken between two iterations, as the driver's. */
  async state(): Promise<RunState[]> {
    const out: RunState[] = [];
    for (const r of this.runs) out.push(await r.state());
    return out;
  }

  /**
   * Continues every seed from its saved state (in seed order). A StateError or RangeError names what
   * does not fit: another number of seeds, or a state of another seed or setting.
   */
  async restore(states: readonly RunState[]): Promise<void> {
    if (states.length !== this.runs.length) throw new RangeError(`the saved state holds ${states.length} seed(s), this race trains ${this.runs.length}`);
    for (const [i, r] of this.runs.entries()) await r.restore(states[i]);
  }

  /** Every seed's records so far, iteration by iteration (seeds in order within one), as `step` posts them. */
  get recordHistory(): SeedRecord[] {
    const out: SeedRecord[] = [];
    const longest = Math.max(...this.runs.map((r) => r.recordHistory.length));
    for (let i = 0; i < longest; i++) {
      for (const r of this.runs) {
        const record = r.recordHistory[i];
        if (record) out.push({ seed: r.trainer.settings.seed, record });
      }
    }
    return out;
  }

  /** Every seed's run lets go of the GPU memory its next iteration would make again (TrainingRun.trim). */
  async trim(): Promise<void> {
    this.batch?.trim();
    this.advantages?.trim();
    this.metrics?.trim();
    this.updates?.trim();
    this.joinedUpdates?.trim();
    for (const r of this.runs) await r.trim();
  }

  dispose(): void {
    this.batch?.dispose();
    this.advantages?.dispose();
    this.metrics?.dispose();
    this.updates?.dispose();
    this.joinedUpdates?.dispose();
    for (const r of this.runs) r.dispose();
  }
}
