/**
 * The one training driver: a method's run from its first iteration to its budget.
 *
 * Every caller trains through it: the train command, the study's workers, the training bench and the
 * page's worker. It owns the trainer (and disposes it), counts the budget, turns a non-finite loss into
 * a halted run with the weights of the last good update and a message that says so, and answers stop,
 * pause and resume requests between iterations (never inside one). Callers take records one step at a
 * time (`step`, for the page's interleaving of several methods), through a callback (`run`) or as an
 * async iterator (`records`).
 *
 * `state()` / `restore()` are the seam for checkpoints: the driver is the only place that knows where
 * one iteration ends and the next begins, so a snapshot of a run is taken and restored here, always
 * between two iterations. A run restored from the state of another, taken after k iterations, produces
 * the same records from k + 1 on as the other would have (timings aside): the state holds every input
 * of the next iteration. `save()` / `TrainingRun.open()` add the portable file format (checkpoint.ts).
 */
import * as tf from '@tensorflow/tfjs-core';
import { releaseFreeGpuBuffers } from '../backend/webgpu-interop.ts';
import { CONFIG_FIELDS, type TrainConfig } from '../config.ts';
import type { PolicyWeights } from '../policy/policy.ts';
import type { AdvantageEngine } from '../engine/advantage-engine.ts';
import type { IterationRecord } from './iteration-record.ts';
import { decodeCheckpoint, encodeCheckpoint, type RunState } from './checkpoint.ts';
import { NonFiniteLossError } from './ppo.ts';
import { StateError } from './state-parts.ts';
import { Trainer } from './trainer.ts';

export type { RunState };

/** Settings that shape the trainer: a state restores only into a run that agrees on them. */
const SHAPING_KEYS = CONFIG_FIELDS.filter((f) => f.restart && f.key !== 'backend').map((f) => f.key);
/** Live settings that size the fused update's buffers (its permutation, its minibatches' work and runners). */
const UPDATE_SIZES = ['epochs', 'minibatches'] as const;

export type RunStatus = 'completed' | 'stopped' | 'diverged';

export interface RunResult {
  status: RunStatus;
  /** Completed iterations. */
  iterations: number;
  /** Why the run halted (diverged), else absent. */
  message?: string;
}

export class TrainingRun {
  readonly trainer: Trainer;
  private budget: number;
  private haltMessage: string | null = null;
  private stopRequested = false;
  private resumeGate: { promise: Promise<void>; open: () => void } | null = null;
  private disposed = false;
  /** Settings that size the update's buffers changed: the next step lets the old ones go first. */
  private trimDue = false;
  private readonly history: IterationRecord[] = [];
  /** The iteration in progress (a state waits for it: it is only ever taken between iterations). */
  private inFlight: Promise<unknown> = Promise.resolve();

  /** `prior`: the SFT prior's weights, when the caller shares one prior among several runs. */
  constructor(config: TrainConfig, engine: AdvantageEngine, options: { prior?: PolicyWeights } = {}) {
    this.trainer = new Trainer(config, engine, options.prior);
    this.budget = config.iters;
  }

  /** Completed iterations. */
  get iteration(): number {
    return this.trainer.iteration;
  }

  /** Every record so far, in order (restored runs include those before the checkpoint). */
  get recordHistory(): readonly IterationRecord[] {
    return this.history;
  }

  /** Why the run halted (a non-finite loss), or null while it can go on. */
  get halted(): string | null {
    return this.haltMessage;
  }

  /** True once the budget is spent or the run halted. */
  get finished(): boolean {
    return this.haltMessage !== null || this.trainer.iteration >= this.budget;
  }

  /**
   * Applies settings that take effect from the next iteration; a new `iters` moves the budget. New
   * epochs or minibatches resize the update's buffers: the next step first lets the old ones go (`trim`).
   */
  updateSettings(changes: Partial<TrainConfig>): void {
    const current = this.trainer.settings;
    if (UPDATE_SIZES.some((k) => changes[k] !== undefined && changes[k] !== current[k])) this.trimDue = true;
    this.trainer.updateSettings(changes);
    if (changes.iters !== undefined) this.budget = changes.iters;
  }

  /**
   * Lets go of the GPU memory the next iteration would make again (Trainer.trim) and of the buffers
   * tfjs pooled, after any step in progress: for a race that ended. The weights stay, and a later
   * `step` (a budget raised) runs as it would have.
   */
  trim(): Promise<void> {
    return this.exclusive(async () => {
      if (!this.disposed) this.release();
    });
  }

  private release(): void {
    this.trimDue = false;
    this.trainer.trim();
    if (tf.getBackend() === 'webgpu') releaseFreeGpuBuffers();
  }

  /**
   * One iteration, or null when there is nothing to do (finished) or the iteration diverged: then the
   * policy keeps the weights of the last good update and `halted` says why. Other errors propagate.
   */
  step(): Promise<IterationRecord | null> {
    return this.exclusive(async () => {
      if (this.finished) return null;
      if (this.trimDue) this.release();
      try {
        const record = await this.trainer.step();
        this.history.push(record);
        // Between iterations nothing of the last one is pending: give back the GPU buffers tfjs pooled.
        if (tf.getBackend() === 'webgpu') releaseFreeGpuBuffers();
        return record;
      } catch (e) {
        if (!(e instanceof NonFiniteLossError)) throw e;
        this.haltMessage = `training stopped at iteration ${this.trainer.iteration + 1}: ${e.message}`;
        return null;
      }
    });
  }

  /** Iteration 0: the starting policy measured on the evaluation stream, no update (Trainer.evaluate). */
  evaluateStart(): Promise<IterationRecord> {
    return this.exclusive(async () => {
      const record = await this.trainer.evaluate();
      this.history.push(record);
      return record;
    });
  }

  /** Runs `fn` after whatever step, state or restore is in progress, so none of them interleave. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.inFlight.then(fn);
    this.inFlight = next.catch(() => {});
    return next;
  }

  /** Iterates until the budget is spent, the run diverges or `stop()` is called, honouring pauses. */
  async *records(): AsyncGenerator<IterationRecord, RunResult> {
    this.stopRequested = false;
    for (;;) {
      if (this.resumeGate) await this.resumeGate.promise;
      if (this.stopRequested || this.finished) break;
      const record = await this.step();
      if (record) yield record;
    }
    return this.result();
  }

  /** Runs like `records()`, handing each record to `onRecord` (awaited, so it may write or post). */
  async run(onRecord: (record: IterationRecord) => void | Promise<void> = () => {}): Promise<RunResult> {
    const it = this.records();
    for (;;) {
      const next = await it.next();
      if (next.done) return next.value;
      await onRecord(next.value);
    }
  }

  /** Ends `run()` / `records()` after the iteration in progress. */
  stop(): void {
    this.stopRequested = true;
    this.resume();
  }

  /** Holds `run()` / `records()` before their next iteration until `resume()`. */
  pause(): void {
    if (this.resumeGate) return;
    let open!: () => void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    this.resumeGate = { promise, open };
  }

  resume(): void {
    const gate = this.resumeGate;
    this.resumeGate = null;
    gate?.open();
  }

  /** A copy of the run's state, taken after the iteration in progress (if any) ends. */
  state(): Promise<RunState> {
    return this.exclusive(async () => ({
      ...(await this.trainer.saveState()),
      records: this.history.map((r) => structuredClone(r)),
      halted: this.haltMessage,
    }));
  }

  /**
   * Continues from `state` (after the iteration in progress, if any). The run must agree with it on
   * every setting that shapes the trainer (the backend aside: weights move between backends); the
   * state's config and budget replace this run's. Throws a StateError naming what does not fit.
   */
  restore(state: RunState): Promise<void> {
    return this.exclusive(async () => {
      const mine = this.trainer.settings;
      for (const key of SHAPING_KEYS) {
        if (state.config[key] !== mine[key])
          throw new StateError(`the checkpoint's ${key} is ${String(state.config[key])}, this run's is ${String(mine[key])}`);
      }
      await this.trainer.loadState(state);
      this.budget = state.config.iters;
      this.history.length = 0;
      this.history.push(...state.records.map((r) => structuredClone(r)));
      this.haltMessage = state.halted;
    });
  }

  /** The run's state as a checkpoint file's bytes (checkpoint.ts). */
  async save(): Promise<ArrayBuffer> {
    return encodeCheckpoint(await this.state());
  }

  /**
   * A run continued from a checkpoint file's bytes, with the checkpoint's config. Throws a
   * CheckpointError saying what is wrong with a damaged or foreign file, before any tensor is made.
   */
  static async open(bytes: ArrayBuffer, engine: AdvantageEngine): Promise<TrainingRun> {
    const state = await decodeCheckpoint(bytes);
    const run = new TrainingRun(state.config, engine);
    try {
      await run.restore(state);
      return run;
    } catch (e) {
      run.dispose();
      throw e;
    }
  }

  /** Frees the trainer's tensors; safe to call twice, and after a device loss. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.trainer.dispose();
    // The disposed weights' buffers go back to tfjs's pool; give them back to the device as `step` does.
    if (tf.getBackend() === 'webgpu') releaseFreeGpuBuffers();
  }

  private result(): RunResult {
    if (this.haltMessage !== null) return { status: 'diverged', iterations: this.iteration, message: this.haltMessage };
    return { status: this.trainer.iteration >= this.budget ? 'completed' : 'stopped', iterations: this.iteration };
  }
}
