/**
 * The training loop a worker runs: one method's training run, under the page's commands (pause, resume,
 * step, reset, speed, settings). The page starts one worker per raced method, each with its own tfjs
 * backend, so methods train in parallel on separate cores and a slow method never holds up a fast one.
 * The run is the one driver of src/trainer/run.ts, which also halts a diverged method.
 *
 * It knows nothing of `self`/`postMessage` or of backend selection: the worker supplies a `LoopHost`, so
 * the loop runs (and is tested) in Node on the cpu backend just as it runs in the worker. All work happens
 * in one async pump; commands only set flags and wake it, so a reset never lands in the middle of a step.
 *
 * Durable runs: after every completed iteration the loop keeps the run's state and posts it to the page
 * as checkpoint bytes (run-checkpoints.ts); a lost GPU device continues from there.
 *
 * A race that ended (its budget reached, halted or failed) keeps its weights and its last batch for the
 * views, but lets go of the GPU memory its next iteration would make again (TrainingRun.trim); a reset
 * disposes the runs.
 *
 * No failure ends the race: a failure is its own panel's (an error message with the entry's name), and
 * a fault of WebGPU itself (a kernel error, a replay that does not match: `isGpuFault`) moves the run
 * to wasm from the last completed iteration's state, as a lost device does, with the reason announced
 * (docs/page-failures.md).
 */
import type { RaceConfig, TrainConfig } from '../config.ts';
import { SPEED_PACING, type Speed } from '../race/speed.ts';
import { configOfEntry, raceEntry, type RaceEntry, type RaceEntryName } from '../race/entries.ts';
import type { PolicyWeights } from '../policy/policy.ts';
import { seedConfigs } from '../race/seeds.ts';
import { trainerConfig } from '../race/workload.ts';
import { SeedRuns, type SeedRecord } from './seed-runs.ts';
import { DeviceLostError, errorText, isGpuFault, LIVE_KEYS, liveSettings, StepWatch, type LoopHost } from './loop-host.ts';
import { SnapshotPacer } from './snapshot-pacer.ts';
import { DEVICE_LOSS_GRACE_MS, RunCheckpoints } from './run-checkpoints.ts';
import { resetAfterDeviceLoss, resetAfterGpuFault, resetForMove, type PendingReset, type RunPosition } from './reset-plan.ts';
import type { EstimatorCode, ToWorker } from './protocol.ts';
import { markOnce, TIMELINE_MARKS } from '../timeline-marks.ts';

export { DeviceLostError, LIVE_KEYS, type LoopHost } from './loop-host.ts';

export class TrainingLoop {
  private config: RaceConfig | null = null;
  /** The race entry this loop trains (a method or a named variant of one); set by `init`. */
  private method: RaceEntryName | null = null;
  /** The entry resolved once, when `init` names it: its method, overrides and label. */
  private entry: RaceEntry | null = null;
  /** The entry's run of each seed, stepped in lock-step (one run unless the page asks for more seeds). */
  private run: SeedRuns | null = null;
  private generation = 0;
  private running = false;
  /**
   * Whether the page last asked to run (init, reset, resume) or not (pause, step). A lost device restarts
   * training as the page wanted it: a step that failed on the dying device must not leave it paused.
   */
  private wanted = false;
  private speed: Speed = 'normal';
  private pendingSteps = 0;
  /** A rebuild to do (reset-plan.ts): the page's, or one that continues the run on another backend. */
  private pendingReset: PendingReset | null = null;
  /** Why this run left WebGPU (a GPU fault): it stays on wasm, and a later `move` back is declined. */
  private leftWebGpu: string | null = null;
  /** The visitor's estimator, for an entry that runs visitor code (set by init and reset; kept across a device loss). */
  private estimator: EstimatorCode | null = null;
  /** The run's checkpoints: every seed's state after the last completed iteration (`last`), where a lost device continues. */
  private readonly checkpoints: RunCheckpoints;
  /** The race's shared SFT prior, as the page last sent it (undefined: the trainer computes its own). */
  private prior: PolicyWeights | null | undefined = undefined;
  /** The priors of the seeds after the first, as the page last sent them (absent: one seed). */
  private extraSeeds: (PolicyWeights | null)[] | undefined = undefined;
  /** Stopped by an error other than a divergence (a divergence halts the run itself). */
  private failed = false;
  private readonly snapshots: SnapshotPacer;
  private pumping = false;
  /** A backend to move to at the next iteration boundary (`move`), continuing from the last completed iteration's state. */
  private pendingMove: 'webgpu' | 'wasm' | null = null;
  /** Steps a device loss can interrupt (loop-host.ts). */
  private readonly steps = new StepWatch();

  constructor(private readonly host: LoopHost) {
    this.snapshots = new SnapshotPacer(host.post);
    this.checkpoints = new RunCheckpoints({
      host,
      steps: this.steps,
      currentRun: () => this.run,
      pendingRebuild: () => this.pendingReset,
      report: (message) => this.report(message),
    });
  }

  /** Handles one command from the page. */
  command(message: ToWorker): void {
    switch (message.type) {
      case 'init':
      case 'reset':
        if (message.type === 'init') {
          this.speed = message.speed;
          this.method = message.method;
          this.entry = raceEntry(message.method);
        }
        this.pendingReset = {
          config: message.config,
          running: message.running,
          force: false,
          prior: message.prior,
          extraSeeds: message.extraSeeds,
          checkpoint: message.checkpoint,
        };
        if (message.estimator !== undefined) this.estimator = message.estimator;
        this.wanted = message.running;
        this.pendingSteps = 0;
        break;
      case 'pause':
        this.running = false;
        this.wanted = false;
        this.pendingSteps = 0;
        break;
      case 'resume':
        this.running = true;
        this.wanted = true;
        break;
      case 'step':
        this.running = false;
        this.wanted = false;
        this.pendingSteps++;
        break;
      case 'speed':
        this.speed = message.speed;
        break;
      case 'settings':
        this.applySettings(message.changes);
        break;
      case 'move':
        this.pendingMove = message.backend;
        void this.pump();
        return;
      case 'loseDevice':
      case 'fault':
      case 'warm':
      case 'probe':
      case 'prior':
        return; // handled by the worker, which owns the device
    }
    this.postState();
    void this.pump();
  }

  /**
   * Called by the worker when the GPU device is lost: abandon the step, rebuild on a new backend and
   * continue from the last completed iteration (a pending page reset keeps its own starting point).
   */
  deviceLost(reason: string): void {
    const at = this.position();
    if (at) this.pendingReset = resetAfterDeviceLoss(this.pendingReset, at);
    this.steps.interrupt(new DeviceLostError(reason));
    void this.pump();
  }

  /** Where the run stands, for a rebuild that continues it (null before `init`). */
  private position(): RunPosition | null {
    if (!this.config) return null;
    return { config: this.config, wanted: this.wanted, prior: this.prior, extraSeeds: this.extraSeeds, lastState: this.checkpoints.last };
  }

  get iteration(): number {
    return this.run?.iteration ?? 0;
  }

  private get halted(): boolean {
    return this.failed || this.run?.halted != null;
  }

  private applySettings(changes: Partial<TrainConfig>): void {
    if (!this.config) return;
    const restartKeys = Object.keys(changes).filter((k) => !(LIVE_KEYS as string[]).includes(k));
    if (restartKeys.length > 0) {
      this.host.post({ type: 'error', generation: this.generation, message: `settings ${restartKeys.join(', ')} need a restart; ignored` });
      return;
    }
    this.config = { ...this.config, ...changes };
    if (this.run && this.entry) this.run.updateSettings(liveSettings(configOfEntry(this.entry, this.config)));
  }

  private finished(): boolean {
    if (!this.run) return false;
    return this.failed || this.run.finished;
  }

  private postState(): void {
    if (!this.method) return;
    this.host.post({
      type: 'state',
      generation: this.generation,
      method: this.method,
      running: this.running && !this.finished(),
      finished: this.finished(),
      iteration: this.iteration,
      halted: this.halted,
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        this.takeMove();
        if (this.pendingReset) {
          await this.rebuild();
          continue;
        }
        const manual = !this.running && this.pendingSteps > 0;
        if (!(this.running || manual) || !this.run || this.finished()) break;
        await this.iterate();
        if (manual) this.pendingSteps--;
        this.postState();
        await this.host.wait(this.running ? SPEED_PACING[this.speed].pauseMs : 0);
      }
    } finally {
      this.pumping = false;
    }
    if (this.finished()) this.running = false;
    if (this.entry) await this.snapshots.flush(this.run?.trainer, this.entry.method, this.generation, this.speed);
    if (this.finished()) await this.trimRuns();
    this.postState();
  }

  /**
   * Turns a pending `move` into a rebuild on the new backend from the last completed iteration's state.
   * Called at the top of the pump, so between two iterations (never inside one). A page reset not yet
   * done keeps its own starting point and only takes the new backend.
   */
  private takeMove(): void {
    const to = this.pendingMove;
    this.pendingMove = null;
    const at = this.position();
    if (to === null || !at) return;
    if (to === 'webgpu' && this.leftWebGpu !== null) return; // WebGPU failed this run: it stays on wasm
    this.pendingReset = resetForMove(this.pendingReset, at, to) ?? this.pendingReset;
  }

  /**
   * A GPU fault (`isGpuFault`) in a step: the run continues on wasm from its last completed iteration,
   * through the same rebuild as a `move`, and says why. A page reset not yet done only changes backend.
   */
  private leaveWebGpu(e: unknown): void {
    const at = this.position();
    if (!at) return;
    this.leftWebGpu = errorText(e);
    this.pendingReset = resetAfterGpuFault(this.pendingReset, at, this.leftWebGpu);
  }

  private async rebuild(): Promise<void> {
    const reset = this.pendingReset!;
    this.pendingReset = null;
    this.disposeRuns();
    this.generation++;
    this.failed = false;
    this.snapshots.reset();
    // A page reset keeps a run whose WebGPU failed on wasm: the same fault would come again.
    if (reset.fallback === undefined && reset.state === undefined && this.leftWebGpu !== null) reset.config = { ...reset.config, backend: 'wasm' };
    this.config = reset.config;
    this.running = reset.running;
    this.prior = reset.prior;
    this.extraSeeds = reset.extraSeeds;
    const method = this.method!;
    const entry = this.entry!;
    this.checkpoints.last = null;
    try {
      let saved = reset.state ?? (reset.checkpoint ? await this.checkpoints.decode(reset.checkpoint, method) : null);
      // A device lost before the restore completes continues from the same saved state.
      this.checkpoints.last = saved;
      const seeds = 1 + (this.extraSeeds?.length ?? 0);
      // The trainer's config as the backend probe builds it too (race/workload.ts; the flags come with the backend).
      const configs = seedConfigs(reset.config, seeds).map((c) => trainerConfig(c, entry));
      const continuesAt = reset.state ? Math.min(...reset.state.map((s) => s.iteration)) : null;
      // Each seed's trainer gets an engine of its own (a trainer disposes its engine); only the first
      // call may force a new backend. The engine is the entry's method's: a variant only changes
      // settings, never the maths.
      const create = (force: boolean) =>
        SeedRuns.create(
          configs,
          [this.prior, ...(this.extraSeeds ?? [])],
          (i) =>
            this.host.prepare(reset.config, entry.method, {
              force: force && i === 0,
              continuesAt: i === 0 ? continuesAt : null,
              estimator: this.estimator,
              fallback: i === 0 ? (reset.fallback ?? null) : null,
            }),
          () => this.pendingReset !== null,
        );
      this.run = await create(reset.force);
      if (!this.run) return; // superseded while the backend was initialising
      this.snapshots.follow(this.run.trainer, () => this.speed);
      markOnce(TIMELINE_MARKS.trainerBuilt);
      if (saved) {
        try {
          await this.steps.watch(this.run.restore(saved));
          // The page's live settings (the URL's) win over those saved with the state.
          this.run.updateSettings(liveSettings(configs[0]));
        } catch (e) {
          if (e instanceof DeviceLostError) throw e;
          this.report(`${method}: the saved state could not be continued (${errorText(e)}); started from iteration 0`);
          this.disposeRuns();
          this.run = await create(false);
          if (!this.run) return;
          this.snapshots.follow(this.run.trainer, () => this.speed);
          saved = null;
        }
      }
      this.checkpoints.last = saved;
      if (saved) {
        // The restored histories redraw the charts; then training goes on from the saved iteration.
        for (const { seed, record } of this.run.recordHistory) this.host.post({ type: 'record', generation: this.generation, record, seed });
        if (this.run.halted) this.report(`${method}: ${this.run.halted}`);
      } else {
        // Iteration 0: where every method starts (the shared prior), the first point of every chart.
        const start = await this.steps.watch(this.run.evaluateStart());
        if (this.pendingReset) return;
        markOnce(TIMELINE_MARKS.firstRecord);
        for (const { seed, record } of start) this.host.post({ type: 'record', generation: this.generation, record, seed });
      }
      await this.checkpoints.keep(this.run, method, this.generation);
    } catch (e) {
      if (e instanceof DeviceLostError) return; // the pump rebuilds next
      if (isGpuFault(e) && reset.config.backend !== 'wasm') {
        this.leaveWebGpu(e);
        return;
      }
      this.running = false;
      // Any failure to start (the visitor's estimator, a saved state, a backend) is this panel's alone.
      this.report(`could not start training: ${errorText(e)}`);
    }
    this.postState();
  }

  /** Posts `message` as this panel's error (the page shows it in the panel alone). */
  private report(message: string): void {
    this.host.post({ type: 'error', generation: this.generation, method: this.method!, message });
  }

  /** One iteration of the method, unless it is finished or stopped. */
  private async iterate(): Promise<void> {
    const run = this.run!;
    const method = this.method!;
    if (this.failed || run.finished) return;
    let records: SeedRecord[];
    try {
      records = await this.steps.watch(run.step());
    } catch (e) {
      if (e instanceof DeviceLostError) return; // the pump rebuilds next
      if (isGpuFault(e)) {
        this.leaveWebGpu(e);
        return;
      }
      // A dying GPU device often fails the step (an aborted buffer mapping) just before its `lost`
      // promise settles: give the loss a moment to be reported, and treat the failure as part of it.
      await this.host.wait(DEVICE_LOSS_GRACE_MS);
      if (this.pendingReset?.force) return;
      this.failed = true;
      this.report(`${method}: training failed at iteration ${run.iteration + 1}: ${errorText(e)}`);
      return;
    }
    for (const { seed, record } of records) this.host.post({ type: 'record', generation: this.generation, record, seed });
    if (run.halted) this.report(`${method}: ${run.halted}`);
    if (run.halted || records.length === 0) return;
    await this.checkpoints.keep(run, method, this.generation);
    await this.snapshots.completed(run.trainer, this.entry!.method, this.generation, this.speed);
  }

  /**
   * A race that ended keeps its weights, not the GPU buffers its next iteration would make again. A
   * batch not sent yet (at `nodraw`) is read to the host first: a later change of speed still draws it
   * (one that cannot be read, after a failed step, goes with the rest).
   */
  private async trimRuns(): Promise<void> {
    const run = this.run;
    try {
      if (run && this.snapshots.pending) await run.trainer.batchView().catch(() => null);
      await run?.trim();
    } catch {
      // After a device loss the buffers live on a device that is gone; nothing to free.
    }
  }

  private disposeRuns(): void {
    if (!this.run) return;
    try {
      this.run.dispose();
    } catch {
      // After a device loss the old tensors may live on a backend that is gone; nothing to free.
    }
    this.run = null;
  }
}
