/**
 * A reactive controller that owns the training workers for its host, one per raced method: starts them
 * when the host connects, terminates them when it disconnects, keeps what they report (backend, records,
 * latest batches, state, errors) and asks the host to re-render at most ~10 times a second. Each worker
 * trains one method on its own tfjs backend, at its own pace; the same commands reach all of them.
 * `auto` (start at once, measure after the first points, move to WebGPU if it wins) and WebGPU's
 * failures (a panel moved to wasm alone) are auto-backend.ts's. Answers from trainers that a reset
 * replaced are dropped by generation, per worker: the page adopts the highest generation a worker has
 * sent and clears that method's history when a new one starts (a reset, or a recovery).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { methodSpec } from '../../methods/registry.ts';
import { raceEntry, type RaceEntryName } from '../../race/entries.ts';
import type { RaceConfig, TrainConfig } from '../../config.ts';
import type { ProbeOutcome } from '../../page/backend-choice.ts';
import type { MetricHistory } from '../../page/metric-history.ts';
import { SeedHistories, seedList } from '../../page/seeds.ts';
import type { Speed } from '../../page/page-settings.ts';
import type { BatchSnapshot } from '../../worker/batch-snapshot.ts';
import type { PolicyWeights } from '../../policy/policy.ts';
import type { BackendMessage, EstimatorCode, FromWorker, InjectedFault, ToWorker } from '../../worker/protocol.ts';
import { dropUnusedEarlyWorkers, TrainingWorkerClient } from '../../worker/worker-client.ts';
import { AutoBackend } from './auto-backend.ts';
import { PriorSharing } from './prior-sharing.ts';
import {
  fallbacksOf,
  raceState,
  recoveryNote,
  seedsField,
  threadsPerWorker,
  type Checkpoints,
  type RaceState,
  type Slot,
  type TrainingStart,
} from './race-start.ts';

export type { Checkpoints, RaceState, TrainingStart } from './race-start.ts';

/** Minimum time between two re-renders caused by training (charts redraw at most this often). */
const UPDATE_INTERVAL_MS = 100;

export class TrainingController implements ReactiveController {
  methods: readonly RaceEntryName[] = [];
  /** Per entry: the mean over its seeds (with one seed, that seed's own history). */
  histories = {} as Record<RaceEntryName, MetricHistory>;
  /** Per entry: every seed's records, and the mean that `histories` holds. */
  seedRuns = {} as Record<RaceEntryName, SeedHistories>;
  /** The seeds every entry trains (config.seed, + 1, …). */
  seeds: number[] = [];
  snapshots = {} as Record<RaceEntryName, BatchSnapshot | null>;
  /** Errors to show, newest last (per method and general). */
  errors: { method?: RaceEntryName; message: string }[] = [];
  /** A worker could not load or crashed. */
  crash = '';
  /** Grows with every batch of changes; elements redraw when it changes. */
  revision = 0;
  /** Receives each worker's state after every completed iteration, as checkpoint bytes (for autosave). */
  onCheckpoint: ((method: RaceEntryName, iteration: number, bytes: ArrayBuffer) => void) | null = null;
  /** The visitor's estimator that entries running visitor code get on their next start (src/estimator/). */
  estimator: EstimatorCode | null = null;

  private slots = new Map<RaceEntryName, Slot>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastUpdate = 0;
  private speedNow: Speed = 'normal';
  /** Decides `auto` (where the race starts, the background measurement, Measure again) and keeps the verdict (auto-backend.ts). */
  readonly auto: AutoBackend;
  /** The backend the workers were started on (`auto` resolved by the probe controller where it could). */
  private startedOn: TrainConfig['backend'] | null = null;
  /** The SFT prior's sharing among the workers (prior-sharing.ts). */
  private readonly priors = new PriorSharing();
  /** Bumped on every (re)start, so a probe that a later start superseded is ignored. */
  private startToken = 0;
  /** The race's SFT prior at its first seed, as the workers got it (the probe trains from it too). */
  private racePrior: PolicyWeights | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly start: () => TrainingStart | Promise<TrainingStart>,
  ) {
    host.addController(this);
    this.auto = new AutoBackend(host, {
      broadcast: (message) => this.broadcast(message),
      current: () => this.backend?.report.backend ?? null,
      finished: () => this.state?.finished ?? false,
      token: () => this.startToken,
      changed: () => this.schedule(),
      prior: () => this.racePrior,
      seeds: () => this.seeds.length,
    });
  }

  /** How `auto` was decided (remembered or measured); null otherwise, or before the measurement ends. */
  get probe(): ProbeOutcome | null {
    return this.auto.outcome;
  }

  /** True while WebGPU is measured in the background. */
  get probing(): boolean {
    return this.auto.probes.probing;
  }

  /**
   * The badge's account of recoveries: a lost device recovered (the first worker's, as the badge reports
   * its backend), and each panel that left WebGPU, by its label.
   */
  get recovery(): string {
    return recoveryNote(this.backend, this.fallbacks);
  }

  /** Per panel, why it left WebGPU (a GPU fault) and where it went on; absent for the others. */
  get fallbacks(): Partial<Record<RaceEntryName, string>> {
    return fallbacksOf(this.methods.map((m) => [m, this.slots.get(m)?.backend ?? null]));
  }

  /**
   * The badge's note on `auto`: where and why the race moved to WebGPU, or that the choice was
   * remembered from an earlier visit; empty otherwise.
   */
  get backendNote(): string {
    const moved = this.methods.map((m) => this.slots.get(m)?.backend?.movedAt).filter((i): i is number => i !== undefined);
    return this.auto.note(moved, this.methods.length);
  }

  hostConnected(): void {
    // The start may wait (for a saved run to continue): a disconnect meanwhile cancels it.
    const token = this.startToken;
    void Promise.resolve(this.start()).then(({ config, methods, running, speed, seeds, checkpoints, estimator }) => {
      if (token !== this.startToken) return;
      this.speedNow = speed;
      if (estimator !== undefined) this.estimator = estimator;
      this.seeds = seedList(config.seed, seeds);
      void this.launch(config, methods, running, checkpoints);
    });
  }

  hostDisconnected(): void {
    this.stopAll();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The badge's backend: the first method's worker (all workers make the same choice). */
  get backend(): BackendMessage | null {
    for (const m of this.methods) {
      const b = this.slots.get(m)?.backend;
      if (b) return b;
    }
    return null;
  }

  /** All workers together: null until every worker has built its trainer. */
  get state(): RaceState | null {
    return raceState(this.methods.map((m) => this.slots.get(m)?.state ?? null));
  }

  get running(): boolean {
    return this.state?.running ?? false;
  }

  /** Number of training workers (one per raced method). */
  get workerCount(): number {
    return this.slots.size;
  }

  pause(): void {
    this.broadcast({ type: 'pause' });
  }

  resume(): void {
    this.broadcast({ type: 'resume' });
  }

  step(): void {
    this.broadcast({ type: 'step' });
  }

  speed(speed: Speed): void {
    this.speedNow = speed;
    this.broadcast({ type: 'speed', speed });
  }

  settings(changes: Partial<TrainConfig>): void {
    this.broadcast({ type: 'settings', changes });
  }

  /**
   * Starts every method again from iteration 0, or from its entry in `checkpoints`; a new list of
   * methods starts new workers.
   */
  reset(
    config: RaceConfig,
    running: boolean,
    methods: readonly RaceEntryName[] = this.methods,
    checkpoints: Checkpoints = {},
    seeds: number = this.seeds.length,
  ): void {
    this.seeds = seedList(config.seed, seeds);
    const same = methods.length === this.methods.length && methods.every((m, i) => m === this.methods[i]);
    if (!same || config.backend === 'auto') {
      // New workers (other methods), or `auto` to decide again (at once, from the remembered verdict).
      this.stopAll();
      void this.launch(config, methods, running, checkpoints);
      return;
    }
    const token = ++this.startToken;
    this.auto.forget(config); // a forced backend: no measurement goes on, none is shown
    for (const [m, slot] of this.slots) this.renew(m, slot);
    this.errors = this.errors.filter((e) => e.method === undefined);
    this.schedule();
    void this.seedPriors(config, checkpoints).then(([prior, ...extraSeeds]) => {
      if (token !== this.startToken) return;
      for (const [m, slot] of this.slots)
        slot.client.send({ type: 'reset', config, running, prior, ...seedsField(extraSeeds), checkpoint: checkpoints[m] ?? null, ...this.estimatorField(m) });
    });
  }

  /**
   * Starts entry `m` alone again from iteration 0 (or from `checkpoint`), with the same prior and seeds
   * as the race; the other entries go on. Apply in the estimator editor uses it.
   */
  restartEntry(m: RaceEntryName, config: RaceConfig, running: boolean, checkpoint: ArrayBuffer | null = null): void {
    const slot = this.slots.get(m);
    if (!slot) return;
    this.renew(m, slot);
    this.errors = this.errors.filter((e) => e.method !== m);
    this.schedule();
    const token = this.startToken;
    void this.seedPriors(config, checkpoint ? { [m]: checkpoint } : {}).then(([prior, ...extraSeeds]) => {
      if (token !== this.startToken) return;
      const resolved = { ...config, backend: this.resolvedBackend(config) };
      slot.client.send({ type: 'reset', config: resolved, running, prior, ...seedsField(extraSeeds), checkpoint, ...this.estimatorField(m) });
    });
  }

  /** The `estimator` field of an init or reset: only entries that run visitor code get the code. */
  private estimatorField(m: RaceEntryName): { estimator?: EstimatorCode | null } {
    return methodSpec(raceEntry(m).method).visitorCode ? { estimator: this.estimator } : {};
  }

  /** Simulates a lost GPU device in every worker (for tests and demonstrations). */
  loseDevice(): void {
    this.broadcast({ type: 'loseDevice' });
  }

  /** Test-only (docs/page-failures.md): arms a real GPU fault in `method`'s worker. */
  injectFault(method: RaceEntryName, fault: InjectedFault): void {
    this.slots.get(method)?.client.send({ type: 'fault', fault });
  }

  private broadcast(message: ToWorker): void {
    for (const slot of this.slots.values()) slot.client.send(message);
  }

  private stopAll(): void {
    this.startToken++;
    for (const slot of this.slots.values()) slot.client.terminate();
    this.slots.clear();
    this.auto.cancel();
    this.priors.clear();
  }

  /** A new generation for `m`'s worker: what the old one reported is dropped. */
  private renew(m: RaceEntryName, slot: Slot): void {
    slot.generation++;
    this.clearMethod(m);
    slot.state = null;
  }

  private clearMethod(m: RaceEntryName): void {
    this.seedRuns[m] = new SeedHistories(this.seeds);
    this.histories[m] = this.seedRuns[m].mean;
    this.snapshots[m] = null;
  }

  /** Resolves `auto` without waiting for a measurement (backend-probe-controller.ts), then starts one worker per method. */
  private async launch(config: RaceConfig, methods: readonly RaceEntryName[], running: boolean, checkpoints: Checkpoints = {}): Promise<void> {
    const token = ++this.startToken;
    this.methods = methods;
    this.histories = {} as Record<RaceEntryName, MetricHistory>;
    this.seedRuns = {} as Record<RaceEntryName, SeedHistories>;
    this.snapshots = {} as Record<RaceEntryName, BatchSnapshot | null>;
    for (const m of methods) this.clearMethod(m);
    this.errors = this.errors.filter((e) => e.method === undefined);
    // The workers load their script while `auto` is resolved (they need no backend before `warm`/`init`).
    for (const method of methods) {
      const client = new TrainingWorkerClient(
        (msg) => this.receive(method, msg),
        (message) => {
          this.crash = `The ${method} training worker stopped: ${message}`;
          this.host.requestUpdate();
        },
        `training-${method}`,
      );
      this.slots.set(method, { client, generation: 1, state: null, backend: null });
    }
    dropUnusedEarlyWorkers(); // those main.ts started for other entries
    const backend = await this.auto.start(config, methods);
    if (backend === null || token !== this.startToken) return;
    this.startedOn = backend;
    const resolved = { ...config, backend };
    const wasmThreads = threadsPerWorker(methods.length);
    // Every worker readies its backend now: the first computes the shared prior there (unless it is
    // shipped, prior-sharing.ts), the others build nothing until `init` but are ready for it.
    for (const method of methods) this.slots.get(method)?.client.send({ type: 'warm', backend: resolved.backend, wasmThreads });
    const [prior, ...extraSeeds] = await this.seedPriors(resolved, checkpoints);
    if (token !== this.startToken) return;
    this.racePrior = prior;
    for (const [method, slot] of this.slots)
      slot.client.send({
        type: 'init',
        config: resolved,
        method,
        running,
        speed: this.speedNow,
        prior,
        ...seedsField(extraSeeds),
        wasmThreads,
        checkpoint: checkpoints[method] ?? null,
        ...this.estimatorField(method),
      });
    this.schedule();
  }

  /** Each seed's SFT prior, computed once by the first entry's worker and shared (prior-sharing.ts). */
  private seedPriors(config: RaceConfig, checkpoints: Checkpoints = {}): Promise<(PolicyWeights | null)[]> {
    return this.priors.seedPriors(this.slots.get(this.methods[0])?.client, {
      config: { ...config, backend: this.resolvedBackend(config) },
      method: raceEntry(this.methods[0]).method,
      seeds: this.seeds,
      wasmThreads: threadsPerWorker(this.methods.length),
      allContinue: this.methods.every((m) => checkpoints[m]),
    });
  }

  /** `config.backend`, with `auto` replaced by the backend the workers were started on. */
  private resolvedBackend(config: RaceConfig): TrainConfig['backend'] {
    return config.backend === 'auto' && this.startedOn ? this.startedOn : config.backend;
  }

  private receive(method: RaceEntryName, m: FromWorker): void {
    const slot = this.slots.get(method);
    if (!slot) return;
    if (m.type === 'probe' || m.type === 'probeWarm') return;
    if (m.type === 'prior') {
      this.priors.receive(m);
      return;
    }
    if (m.type === 'backend') {
      slot.backend = m;
      if (m.fallback) this.auto.webgpuFailed(m.fallback);
      this.schedule();
      return;
    }
    if (m.generation >= 0) {
      if (m.generation < slot.generation) return; // from a trainer a reset replaced
      if (m.generation > slot.generation) {
        // The worker restarted on its own (a recovery after a lost device).
        slot.generation = m.generation;
        this.clearMethod(method);
      }
    }
    switch (m.type) {
      // Keyed by the worker's entry, not the record's method: a method and its variant both train `beacon`.
      case 'record':
        this.seedRuns[method].push(m.seed, m.record, performance.now());
        this.auto.firstPoint(method);
        break;
      case 'snapshot':
        this.snapshots[method] = m.snapshot;
        break;
      case 'state':
        slot.state = m;
        break;
      case 'checkpoint':
        this.onCheckpoint?.(method, m.iteration, m.bytes);
        return; // nothing to redraw
      case 'error':
        this.errors = [...this.errors.slice(-4), m.method ? { method: m.method, message: m.message } : { message: m.message }];
        break;
    }
    this.schedule();
  }

  /** Re-renders the host at most every UPDATE_INTERVAL_MS. */
  private schedule(): void {
    if (this.timer !== null) return;
    const wait = Math.max(0, UPDATE_INTERVAL_MS - (performance.now() - this.lastUpdate));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.lastUpdate = performance.now();
      this.revision++;
      this.host.requestUpdate();
    }, wait);
  }
}
