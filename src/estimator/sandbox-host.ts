/**
 * The host side of the estimator sandbox: owns one worker that holds the visitor's module, hands it
 * each batch as transferred typed arrays, and enforces the time limit. A call that runs over gets its
 * worker terminated (the only way to stop a synchronous loop) and fails with how long it ran; the next
 * call starts a fresh worker. Nothing here knows whether the worker is the page's sandbox-frame worker or a
 * Node worker thread: `spawn` supplies it.
 */
import type { AdvantageBatch } from '../advantages/types.ts';
import { estimatorInput, inputBuffers } from './estimator-batch.ts';
import { EstimatorError } from './failure.ts';
import { DEFAULT_ESTIMATOR_TIMEOUT_S } from './limits.ts';
import type { EstimatorSettings, SandboxReply, SandboxRequest } from './sandbox-core.ts';

export { DEFAULT_ESTIMATOR_TIMEOUT_S };

/** A worker as the host needs it; `onCrash` fires if the worker dies of anything but `terminate`. */
export interface SandboxWorker {
  post(request: SandboxRequest, transfer: ArrayBuffer[]): void;
  onReply(listener: (reply: SandboxReply) => void): void;
  onCrash(listener: (message: string) => void): void;
  terminate(): void;
}

export interface EstimatorRunner {
  /** Loads the module (once per worker) and reports a failure to load or a missing default export. */
  load(): Promise<void>;
  /** The visitor's per-step advantages for `batch`, checked; an EstimatorError on any failure. */
  estimate(batch: AdvantageBatch, settings: EstimatorSettings): Promise<Float64Array>;
  dispose(): void;
}

export class EstimatorSandbox implements EstimatorRunner {
  private worker: Promise<SandboxWorker> | null = null;
  private live: SandboxWorker | null = null;
  private loaded: Promise<void> | null = null;
  private pending: { resolve: (reply: SandboxReply) => void; reject: (e: Error) => void } | null = null;
  private nextId = 1;
  /** Milliseconds the last call spent inside the visitor's estimate() (for the overhead bench). */
  lastEstimateMs = 0;

  /** `timeoutS`: the limit of one call (loading the module counts as one), in seconds. */
  constructor(
    private readonly source: string,
    private readonly spawn: () => SandboxWorker,
    private readonly timeoutS: number = DEFAULT_ESTIMATOR_TIMEOUT_S,
  ) {}

  load(): Promise<void> {
    this.loaded ??= (async () => {
      const reply = await this.call({ type: 'load', source: this.source }, [], 'loading the estimator module');
      if (reply.type === 'failed') throw new EstimatorError(reply.failure);
    })().catch((e: unknown) => {
      this.loaded = null;
      throw e;
    });
    return this.loaded;
  }

  async estimate(batch: AdvantageBatch, settings: EstimatorSettings): Promise<Float64Array> {
    await this.load();
    const input = estimatorInput(batch);
    const reply = await this.call({ type: 'estimate', id: this.nextId++, input, settings }, inputBuffers(input), 'estimate()');
    if (reply.type === 'failed') throw new EstimatorError(reply.failure);
    if (reply.type !== 'advantages') throw new EstimatorError({ kind: 'throw', message: `the sandbox answered ${reply.type} to a batch` });
    this.lastEstimateMs = reply.estimateMs;
    return reply.advantages;
  }

  dispose(): void {
    this.stopWorker();
  }

  /** The worker, started if need be; resolves once it says it is ready (start-up is not timed). */
  private ensureWorker(): Promise<SandboxWorker> {
    if (this.worker) return this.worker;
    const worker = this.spawn();
    this.worker = new Promise<SandboxWorker>((resolve, reject) => {
      this.pending = { resolve: () => resolve(worker), reject };
    });
    worker.onReply((reply) => {
      const p = this.pending;
      this.pending = null;
      p?.resolve(reply);
    });
    worker.onCrash((message) => {
      const p = this.pending;
      this.stopWorker();
      p?.reject(new EstimatorError({ kind: 'throw', message: `the estimator's worker stopped: ${message}` }));
    });
    this.live = worker;
    return this.worker;
  }

  private stopWorker(): void {
    this.live?.terminate();
    this.live = null;
    this.worker = null;
    this.loaded = null;
    this.pending = null;
  }

  /** Posts one request and waits for its reply, at most the time limit. */
  private async call(request: SandboxRequest, transfer: ArrayBuffer[], what: string): Promise<SandboxReply> {
    const worker = await this.ensureWorker();
    const started = performance.now();
    return new Promise<SandboxReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        const ran = (performance.now() - started) / 1000;
        this.stopWorker();
        reject(
          new EstimatorError({
            kind: 'timeout',
            message: `${what} ran for ${ran.toFixed(1)} s without returning, over the time limit of ${this.timeoutS} s; it was stopped`,
          }),
        );
      }, this.timeoutS * 1000);
      this.pending = {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      worker.post(request, transfer);
    });
  }
}
