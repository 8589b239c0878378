/**
 * A reactive controller that owns the training workers for its host, one per raced method: starts them
 * when the host connects, terminates them when it disconnects, keeps what they report (backend, records,
 * latest batches, state, errors) and asks the host to re-render at most ~10 times a second.
 *
 * Each worker trains one method on its own tfjs backend instance, so methods run in parallel on separate
 * cores; each goes at its own pace (the panels show each one's iterations per second) and the same
 * commands reach all of them. Under `backend=auto`, when the browser has a WebGPU adapter, the backend
 * is chosen by measurement first (backend-probe.ts, src/page/backend-choice.ts).
 *
 * Answers from trainers that a reset replaced are dropped by generation, per worker: the page adopts the
 * highest generation a worker has sent and clears that method's history when a new one starts (a reset,
 * or a recovery after a lost GPU device).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { adapterDisplayName, isSoftwareAdapter } from '../backend/select.ts';
import type { Method } from '../methods/registry.ts';
import { raceEntry, type RaceEntryName } from '../methods/variants.ts';
import type { TrainConfig } from '../config.ts';
import { chooseBackend, webgpuProbeDeadlineMs, type ProbeOutcome } from '../page/backend-choice.ts';
import type { MetricHistory } from '../page/metric-history.ts';
import { SeedHistories, seedList } from '../page/seeds.ts';
import type { Speed } from '../page/page-settings.ts';
import type { ProbeTiming } from '../worker/backend-probe.ts';
import type { BatchSnapshot } from '../worker/batch-snapshot.ts';
import type { PolicyWeights } from '../policy/policy.ts';
import type { BackendMessage, EstimatorCode, FromWorker, PriorMessage, StateMessage, ToWorker } from '../worker/protocol.ts';
import { DEFAULT_RACE, methodSpec } from '../methods/registry.ts';
import { TrainingWorkerClient } from '../worker/worker-client.ts';

/** Minimum time between two re-renders caused by training (charts redraw at most this often). */
const UPDATE_INTERVAL_MS = 100;

export interface TrainingStart {
  config: TrainConfig;
  methods: readonly RaceEntryName[];
  running: boolean;
  speed: Speed;
  /** Seeds per method (page setting `seeds`). */
  seeds: number;
  /** Saved bytes to continue, per panel (a saved run); the others start from iteration 0. */
  checkpoints?: Checkpoints;
  /** The visitor's estimator, for entries that run visitor code (null: none consented to yet). */
  estimator?: EstimatorCode | null;
}

/** Saved bytes (src/trainer/seed-checkpoints.ts: a checkpoint per seed) per panel, for workers to continue. */
export type Checkpoints = Partial<Record<RaceEntryName, ArrayBuffer>>;

/** What the page shows of all the workers together. */
export interface RaceState {
  running: boolean;
  finished: boolean;
  iterations: Record<RaceEntryName, number>;
  halted: RaceEntryName[];
}

/**
 * Test hook: factors applied to the probe's timings (`{ webgpu: 1000 }` makes the adapter look 1000×
 * slower), so a test can force either choice on any machine. Set before the page's scripts run.
 */
interface ProbeHook {
  __beaconProbeScale?: Partial<Record<'webgpu' | 'wasm', number>>;
}

interface Slot {
  client: TrainingWorkerClient;
  generation: number;
  state: StateMessage | null;
  backend: BackendMessage | null;
}

export class TrainingController implements ReactiveController {
  methods: readonly RaceEntryName[] = [];
  /** Per entry: the mean over its seeds (with one seed, that seed's own history). */
  histories = {} as Record<RaceEntryName, MetricHistory>;
  /** Per entry: every seed's records, and the mean that `histories` holds. */
  seedRuns = {} as Record<RaceEntryName, SeedHistories>;
  /** The seeds every entry trains (config.seed, + 1, …). */
  seeds: number[] = [];
  snapshots = {} as Record<RaceEntryName, BatchSnapshot | null>;
  /** The probe's outcome when `auto` was decided by measurement; null otherwise (or while probing). */
  probe: ProbeOutcome | null = null;
  /** True while the backend probe runs. */
  probing = false;
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
  /** Probe outcomes by the settings that set its cost, so a reset with the same shapes does not re-probe. */
  private probeCache = new Map<string, ProbeOutcome>();
  private probeWorkers: TrainingWorkerClient[] = [];
  /** Answers awaited from the first worker's `prior` requests, oldest first. */
  private priorWaiters: ((m: PriorMessage) => void)[] = [];
  /** Bumped on every (re)start, so a probe that a later start superseded is ignored. */
  private startToken = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly start: () => TrainingStart | Promise<TrainingStart>,
  ) {
    host.addController(this);
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
    const states = this.methods.map((m) => this.slots.get(m)?.state ?? null);
    if (states.length === 0 || states.some((s) => s === null)) return null;
    const all = states as StateMessage[];
    return {
      running: all.some((s) => s.running),
      finished: all.every((s) => s.finished),
      iterations: Object.fromEntries(all.map((s) => [s.method, s.iteration])) as Record<RaceEntryName, number>,
      halted: all.filter((s) => s.halted).map((s) => s.method),
    };
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
  reset(config: TrainConfig, running: boolean, methods: readonly RaceEntryName[] = this.methods, checkpoints: Checkpoints = {}, seeds: number = this.seeds.length): void {
    this.seeds = seedList(config.seed, seeds);
    const same = methods.length === this.methods.length && methods.every((m, i) => m === this.methods[i]);
    if (!same || this.probeKey(config) !== null) {
      // New workers (other methods), or a backend to decide by measurement first.
      this.stopAll();
      void this.launch(config, methods, running, checkpoints);
      return;
    }
    const token = ++this.startToken;
    for (const [m, slot] of this.slots) {
      slot.generation++;
      this.clearMethod(m);
      slot.state = null;
    }
    this.errors = this.errors.filter((e) => e.method === undefined);
    this.schedule();
    void this.seedPriors(config, checkpoints).then(([prior, ...extraSeeds]) => {
      if (token !== this.startToken) return;
      for (const [m, slot] of this.slots) slot.client.send({ type: 'reset', config, running, prior, ...seedsField(extraSeeds), checkpoint: checkpoints[m] ?? null, ...this.estimatorField(m) });
    });
  }

  /**
   * Starts entry `m` alone again from iteration 0 (or from `checkpoint`), with the same prior and seeds
   * as the race; the other entries go on. Apply in the estimator editor uses it.
   */
  restartEntry(m: RaceEntryName, config: TrainConfig, running: boolean, checkpoint: ArrayBuffer | null = null): void {
    const slot = this.slots.get(m);
    if (!slot) return;
    slot.generation++;
    this.clearMethod(m);
    slot.state = null;
    this.errors = this.errors.filter((e) => e.method !== m);
    this.schedule();
    const token = this.startToken;
    void this.seedPriors(config, checkpoint ? { [m]: checkpoint } : {}).then(([prior, ...extraSeeds]) => {
      if (token !== this.startToken) return;
      slot.client.send({ type: 'reset', config: { ...config, backend: this.resolvedBackend(config) }, running, prior, ...seedsField(extraSeeds), checkpoint, ...this.estimatorField(m) });
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

  private broadcast(message: ToWorker): void {
    for (const slot of this.slots.values()) slot.client.send(message);
  }

  private stopAll(): void {
    this.startToken++;
    for (const slot of this.slots.values()) slot.client.terminate();
    this.slots.clear();
    for (const w of this.probeWorkers) w.terminate();
    this.probeWorkers = [];
    this.priorWaiters = [];
    this.probing = false;
  }

  private clearMethod(m: RaceEntryName): void {
    this.seedRuns[m] = new SeedHistories(this.seeds);
    this.histories[m] = this.seedRuns[m].mean;
    this.snapshots[m] = null;
  }

  /** Decides the backend (by measurement under auto with a WebGPU adapter), then starts one worker per method. */
  private async launch(config: TrainConfig, methods: readonly RaceEntryName[], running: boolean, checkpoints: Checkpoints = {}): Promise<void> {
    const token = ++this.startToken;
    this.methods = methods;
    this.histories = {} as Record<RaceEntryName, MetricHistory>;
    this.seedRuns = {} as Record<RaceEntryName, SeedHistories>;
    this.snapshots = {} as Record<RaceEntryName, BatchSnapshot | null>;
    for (const m of methods) this.clearMethod(m);
    this.errors = this.errors.filter((e) => e.method === undefined);
    this.probe = null;
    let backend = config.backend;
    const key = this.probeKey(config);
    if (key !== null && (await hasWebGpuAdapter())) {
      if (token !== this.startToken) return;
      let outcome = this.probeCache.get(key);
      if (!outcome) {
        this.probing = true;
        this.schedule();
        // Timed on a built-in method: a visitor's estimator is not there to run in a probe worker.
        const builtIn = methods.map((m) => raceEntry(m).method).find((m) => !methodSpec(m).visitorCode) ?? DEFAULT_RACE[0];
        outcome = await this.runProbe(config, builtIn);
        if (token !== this.startToken) return;
        this.probing = false;
        this.probeCache.set(key, outcome);
      }
      this.probe = outcome;
      backend = outcome.chosen;
    }
    if (token !== this.startToken) return;
    const resolved = { ...config, backend };
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
    const [prior, ...extraSeeds] = await this.seedPriors(resolved, checkpoints);
    if (token !== this.startToken) return;
    const wasmThreads = threadsPerWorker(methods.length);
    for (const [method, slot] of this.slots) slot.client.send({ type: 'init', config: resolved, method, running, speed: this.speedNow, prior, ...seedsField(extraSeeds), wasmThreads, checkpoint: checkpoints[method] ?? null, ...this.estimatorField(method) });
    this.schedule();
  }

  /**
   * The SFT prior of the race, computed once by the first method's worker and handed to every worker,
   * so every method starts from the same weights without each worker training the prior again. It is
   * asked for the first entry's method, without a variant's overrides: a variant races from the same
   * prior as its method. Null
   * when the prior is off (`sftEpisodes` 0) or failed (then each trainer reports the failure itself).
   */
  private racePrior(config: TrainConfig, checkpoints: Checkpoints = {}): Promise<PolicyWeights | null> {
    const first = this.slots.get(this.methods[0]);
    // Runs that continue from saved states have their weights already: no prior to train.
    if (!first || this.methods.every((m) => checkpoints[m])) return Promise.resolve(null);
    return new Promise<PolicyWeights | null>((resolve) => {
      this.priorWaiters.push((m) => resolve(m.error ? null : m.weights));
      first.client.send({ type: 'prior', config: { ...config, backend: this.resolvedBackend(config) }, method: raceEntry(this.methods[0]).method, wasmThreads: threadsPerWorker(this.methods.length) });
    });
  }

  /**
   * The race's prior of every seed, in seed order: each seed's prior depends on its seed (its
   * demonstrations and initial weights do), so each is computed once and shared by every method.
   * One after another: the first worker answers `prior` requests in the order they finish.
   */
  private async seedPriors(config: TrainConfig, checkpoints: Checkpoints = {}): Promise<(PolicyWeights | null)[]> {
    const priors: (PolicyWeights | null)[] = [];
    for (const seed of this.seeds) priors.push(await this.racePrior({ ...config, seed }, checkpoints));
    return priors;
  }

  /** `config.backend`, with `auto` replaced by the probe's choice when there was one. */
  private resolvedBackend(config: TrainConfig): TrainConfig['backend'] {
    return config.backend === 'auto' && this.probe ? this.probe.chosen : config.backend;
  }

  /** The cache key of a probe at `config`, or null when `config` does not ask for a measured choice. */
  private probeKey(config: TrainConfig): string | null {
    if (config.backend !== 'auto') return null;
    return JSON.stringify([config.env, config.hiddenSize, config.tasksPerIteration, config.groupSize]);
  }

  /**
   * Times wasm, then WebGPU with a deadline, each in a throw-away worker. One after the other, not at
   * once: a software adapter runs on the same cores and would slow wasm's probe many times over.
   */
  private async runProbe(config: TrainConfig, method: Method): Promise<ProbeOutcome> {
    const scale = (globalThis as ProbeHook).__beaconProbeScale ?? {};
    const timed = (backend: 'webgpu' | 'wasm', deadlineMs: number) => {
      let timer: ReturnType<typeof setTimeout>;
      let finish!: (t: ProbeTiming | null) => void;
      const done = new Promise<ProbeTiming | null>((resolve) => (finish = resolve));
      const worker = new TrainingWorkerClient(
        (m) => {
          if (m.type !== 'probe') return;
          clearTimeout(timer);
          worker.terminate();
          const factor = scale[backend] ?? 1;
          finish(m.result.ms === null ? m.result : { ...m.result, ms: m.result.ms * factor });
        },
        (message) => {
          clearTimeout(timer);
          worker.terminate();
          finish({ backend, ms: null, error: message });
        },
        `probe-${backend}`,
      );
      this.probeWorkers.push(worker);
      timer = setTimeout(() => {
        worker.terminate();
        finish(null);
      }, deadlineMs);
      worker.send({ type: 'probe', config, method, backend });
      return { done };
    };
    const wasm = (await timed('wasm', 120_000).done) ?? { backend: 'wasm' as const, ms: null, error: 'timed out' };
    const deadline = webgpuProbeDeadlineMs(wasm.ms);
    const webgpu = await timed('webgpu', deadline).done;
    this.probeWorkers = [];
    if (webgpu === null) {
      const info = await webGpuAdapterInfo();
      return chooseBackend(wasm, { stoppedAfterMs: deadline, ...info });
    }
    return chooseBackend(wasm, webgpu);
  }

  private receive(method: RaceEntryName, m: FromWorker): void {
    const slot = this.slots.get(method);
    if (!slot) return;
    if (m.type === 'probe') return;
    if (m.type === 'prior') {
      this.priorWaiters.shift()?.(m);
      return;
    }
    if (m.type === 'backend') {
      slot.backend = m;
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

/** The seeds after the first, as `init` / `reset` carry them: absent with one seed (as before seeds). */
function seedsField(extraSeeds: (PolicyWeights | null)[]): { extraSeeds?: (PolicyWeights | null)[] } {
  return extraSeeds.length ? { extraSeeds } : {};
}

/** Each method's worker gets its share of the cores for wasm threads (used only when cross-origin isolated). */
function threadsPerWorker(workers: number): number {
  return Math.max(1, Math.floor((navigator.hardwareConcurrency || 1) / Math.max(1, workers)));
}

/** A WebGPU adapter exists here (the probe is only worth running then). */
async function hasWebGpuAdapter(): Promise<boolean> {
  try {
    return !!(await navigator.gpu?.requestAdapter());
  } catch {
    return false;
  }
}

/** The adapter's name and kind, for the badge when its probe had to be stopped. */
async function webGpuAdapterInfo(): Promise<{ adapterName?: string; software?: boolean }> {
  try {
    const adapter = await navigator.gpu?.requestAdapter();
    if (!adapter) return {};
    return { adapterName: adapterDisplayName(adapter.info), software: isSoftwareAdapter(adapter.info) };
  } catch {
    return {};
  }
}
