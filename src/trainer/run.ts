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
 * one iteration ends and the next begins, so a snapshot of a run is taken and restored here.
 */
import type { TrainConfig } from '../config.ts';
import type { PolicyWeights } from '../policy/policy.ts';
import type { AdvantageEngine } from './advantage-engine.ts';
import type { IterationRecord } from './iteration-record.ts';
import { NonFiniteLossError } from './ppo.ts';
import { Trainer } from './trainer.ts';

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

  /** `prior`: the SFT prior's weights, when the caller shares one prior among several runs. */
  constructor(config: TrainConfig, engine: AdvantageEngine, options: { prior?: PolicyWeights } = {}) {
    this.trainer = new Trainer(config, engine, options.prior);
    this.budget = config.iters;
  }

  /** Completed iterations. */
  get iteration(): number {
    return this.trainer.iteration;
  }

  /** Why the run halted (a non-finite loss), or null while it can go on. */
  get halted(): string | null {
    return this.haltMessage;
  }

  /** True once the budget is spent or the run halted. */
  get finished(): boolean {
    return this.haltMessage !== null || this.trainer.iteration >= this.budget;
  }

  /** Applies settings that take effect from the next iteration; a new `iters` moves the budget. */
  updateSettings(changes: Partial<TrainConfig>): void {
    this.trainer.updateSettings(changes);
    if (changes.iters !== undefined) this.budget = changes.iters;
  }

  /**
   * One iteration, or null when there is nothing to do (finished) or the iteration diverged: then the
   * policy keeps the weights of the last good update and `halted` says why. Other errors propagate.
   */
  async step(): Promise<IterationRecord | null> {
    if (this.finished) return null;
    try {
      return await this.trainer.step();
    } catch (e) {
      if (!(e instanceof NonFiniteLossError)) throw e;
      this.haltMessage = `training stopped at iteration ${this.trainer.iteration + 1}: ${e.message}`;
      return null;
    }
  }

  /** Iteration 0: the starting policy measured on the evaluation stream, no update (Trainer.evaluate). */
  evaluateStart(): Promise<IterationRecord> {
    return this.trainer.evaluate();
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

  /** The run's state for a checkpoint (weights, optimiser, PRNG streams, iteration, records). */
  state(): never {
    throw new Error('TrainingRun.state: checkpoints are not implemented yet');
  }

  /** Continues from a checkpoint's state. */
  restore(_state: unknown): never {
    throw new Error('TrainingRun.restore: checkpoints are not implemented yet');
  }

  /** Frees the trainer's tensors; safe to call twice, and after a device loss. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.trainer.dispose();
  }

  private result(): RunResult {
    if (this.haltMessage !== null) return { status: 'diverged', iterations: this.iteration, message: this.haltMessage };
    return { status: this.trainer.iteration >= this.budget ? 'completed' : 'stopped', iterations: this.iteration };
  }
}
