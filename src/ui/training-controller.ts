/**
 * A reactive controller that owns the training worker for its host: starts it when the host connects,
 * terminates it when the host disconnects, keeps what the worker reports (backend, records, latest
 * batches, state, errors) and asks the host to re-render at most ~10 times a second.
 *
 * Answers from trainers that a reset replaced are dropped by generation: the page adopts the highest
 * generation it has seen and clears its histories when a new one starts (a reset, or a recovery after a
 * lost GPU device).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Method } from '../methods/registry.ts';
import { PAGE_METHODS } from '../page/method-configs.ts';
import type { TrainConfig } from '../config.ts';
import { MetricHistory } from '../page/metric-history.ts';
import type { Speed } from '../page/page-settings.ts';
import type { BatchSnapshot } from '../worker/batch-snapshot.ts';
import type { BackendMessage, FromWorker, StateMessage, ToWorker } from '../worker/protocol.ts';
import { TrainingWorkerClient } from '../worker/worker-client.ts';

/** Minimum time between two re-renders caused by training (charts redraw at most this often). */
const UPDATE_INTERVAL_MS = 100;

export interface TrainingStart {
  config: TrainConfig;
  running: boolean;
  speed: Speed;
}

export class TrainingController implements ReactiveController {
  histories = perMethod(() => new MetricHistory());
  snapshots = perMethod((): BatchSnapshot | null => null);
  backend: BackendMessage | null = null;
  state: StateMessage | null = null;
  /** Errors to show, newest last (per method and general). */
  errors: { method?: Method; message: string }[] = [];
  /** The worker could not load or crashed. */
  crash = '';
  /** Grows with every batch of changes; elements redraw when it changes. */
  revision = 0;

  private client: TrainingWorkerClient | null = null;
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastUpdate = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly start: () => TrainingStart,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.client = new TrainingWorkerClient(
      (m) => this.receive(m),
      (message) => {
        this.crash = `The training worker stopped: ${message}`;
        this.host.requestUpdate();
      },
    );
    const { config, running, speed } = this.start();
    this.send({ type: 'init', config, running, speed });
  }

  hostDisconnected(): void {
    this.client?.terminate();
    this.client = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  get running(): boolean {
    return this.state?.running ?? false;
  }

  pause(): void {
    this.send({ type: 'pause' });
  }

  resume(): void {
    this.send({ type: 'resume' });
  }

  step(): void {
    this.send({ type: 'step' });
  }

  speed(speed: Speed): void {
    this.send({ type: 'speed', speed });
  }

  settings(changes: Partial<TrainConfig>): void {
    this.send({ type: 'settings', changes });
  }

  reset(config: TrainConfig, running: boolean): void {
    this.adopt(this.generation + 1);
    this.send({ type: 'reset', config, running });
  }

  /** Simulates a lost GPU device in the worker (for tests and demonstrations). */
  loseDevice(): void {
    this.send({ type: 'loseDevice' });
  }

  private send(message: ToWorker): void {
    this.client?.send(message);
  }

  /** Starts showing generation `g`: everything from older trainers is cleared. */
  private adopt(g: number): void {
    this.generation = g;
    this.histories = perMethod(() => new MetricHistory());
    this.snapshots = perMethod((): BatchSnapshot | null => null);
    this.errors = this.errors.filter((e) => e.method === undefined);
    this.schedule();
  }

  private receive(m: FromWorker): void {
    if (m.type === 'backend') {
      this.backend = m;
      this.schedule();
      return;
    }
    if (m.generation >= 0) {
      if (m.generation < this.generation) return; // from trainers a reset replaced
      if (m.generation > this.generation) this.adopt(m.generation);
    }
    switch (m.type) {
      case 'record':
        this.histories[m.record.method].push(m.record, performance.now());
        break;
      case 'snapshot':
        this.snapshots[m.snapshot.method] = m.snapshot;
        break;
      case 'state':
        this.state = m;
        break;
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

/** One value per page method. */
function perMethod<T>(make: () => T): Record<Method, T> {
  return Object.fromEntries(PAGE_METHODS.map((m) => [m, make()])) as Record<Method, T>;
}
