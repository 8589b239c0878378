/**
 * What runs inside the sandbox worker, around the visitor's module: load it, call its default export
 * on each batch, check the result, and answer with flat advantages or a failure. The same core serves
 * the page's worker in its estimator frame (src/estimator/frame-worker.ts) and Node's worker thread
 * (cli/estimator-worker.ts); each supplies only how a source becomes a module URL.
 *
 * The host (sandbox-host.ts) owns the time limit: a synchronous loop cannot be interrupted from inside
 * this worker, so the host terminates the whole worker when a call runs over.
 */
import { estimatorBatchView, flattenAdvantages, type EstimatorInput } from './estimator-batch.ts';
import { describeThrown, EstimatorError, lineInModule, type FailureData } from './failure.ts';

/** The settings as the visitor's function receives them: plain numbers, strings and booleans. */
export type EstimatorSettings = Record<string, number | string | boolean>;

export type SandboxRequest = { type: 'load'; source: string } | { type: 'estimate'; id: number; input: EstimatorInput; settings: EstimatorSettings };

export type SandboxReply =
  /** Sent once when the worker has started (its start-up is not the visitor's time). */
  | { type: 'ready' }
  | { type: 'loaded' }
  /** `estimateMs`: the time inside the visitor's estimate() alone (the rest is the hand-over and the checks). */
  | { type: 'advantages'; id: number; advantages: Float64Array; estimateMs: number }
  | { type: 'failed'; id: number | null; failure: FailureData };

/** Turns source text into an importable URL (a data: URL, in Node and in the page's frame) and imports it. */
export interface ModuleLoader {
  url(source: string): string;
  load(url: string): Promise<unknown>;
}

type Estimate = (batch: unknown, settings: EstimatorSettings) => unknown;

export class SandboxCore {
  private estimate: Estimate | null = null;
  private moduleUrl = '';

  constructor(private readonly loader: ModuleLoader) {}

  /** Answers one request; `transfer` lists the buffers the reply may hand over. */
  async handle(request: SandboxRequest): Promise<{ reply: SandboxReply; transfer: ArrayBuffer[] }> {
    const failed = (id: number | null, failure: FailureData) => ({ reply: { type: 'failed' as const, id, failure }, transfer: [] });
    if (request.type === 'load') {
      this.moduleUrl = this.loader.url(request.source);
      let module: unknown;
      try {
        module = await this.loader.load(this.moduleUrl);
      } catch (e) {
        const line = lineInModule(e, this.moduleUrl);
        return failed(null, {
          kind: 'load',
          message: `the estimator module does not load${line === undefined ? '' : ` (line ${line})`}: ${describeThrown(e)}`,
          ...(line === undefined ? {} : { line }),
        });
      }
      const fn = (module as { default?: unknown }).default;
      if (typeof fn !== 'function') {
        return failed(null, {
          kind: 'noDefault',
          message: `the estimator module has no default export function (export default function estimate(batch, settings) { … }); its default export is ${fn === undefined ? 'missing' : typeof fn}`,
        });
      }
      this.estimate = fn as Estimate;
      return { reply: { type: 'loaded' }, transfer: [] };
    }
    if (!this.estimate) return failed(request.id, { kind: 'noDefault', message: 'no estimator is loaded' });
    let out: unknown;
    const batch = estimatorBatchView(request.input);
    const started = performance.now();
    try {
      out = await this.estimate(batch, { ...request.settings });
    } catch (e) {
      const line = lineInModule(e, this.moduleUrl);
      return failed(request.id, {
        kind: 'throw',
        message: `estimate() threw${line === undefined ? '' : ` at line ${line}`}: ${describeThrown(e)}`,
        ...(line === undefined ? {} : { line }),
      });
    }
    const estimateMs = performance.now() - started;
    try {
      const advantages = flattenAdvantages(out, request.input);
      return { reply: { type: 'advantages', id: request.id, advantages, estimateMs }, transfer: [advantages.buffer as ArrayBuffer] };
    } catch (e) {
      if (e instanceof EstimatorError) return failed(request.id, e.toData());
      // A getter or proxy of the visitor's throwing while we read the result.
      return failed(request.id, { kind: 'throw', message: `reading estimate()'s result threw: ${describeThrown(e)}` });
    }
  }
}
