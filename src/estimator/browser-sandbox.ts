/**
 * The estimator sandbox of the page: a nested module worker (browser-sandbox-worker.ts) started by the
 * custom method's training worker, terminated and started afresh when a call runs over its limit.
 */
import type { SandboxReply } from './sandbox-core.ts';
import { EstimatorSandbox, type SandboxWorker } from './sandbox-host.ts';

function spawnNestedWorker(): SandboxWorker {
  const worker = new Worker(new URL('./browser-sandbox-worker.ts', import.meta.url), { type: 'module', name: 'beacon-live-estimator' });
  return {
    post: (request, transfer) => worker.postMessage(request, transfer),
    onReply: (listener) => worker.addEventListener('message', (event: MessageEvent<SandboxReply>) => listener(event.data)),
    onCrash: (listener) => {
      worker.addEventListener('error', (event: ErrorEvent) => {
        event.preventDefault();
        listener(event.message || 'the estimator worker failed to load');
      });
      worker.addEventListener('messageerror', () => listener('a message from the estimator worker could not be read'));
    },
    terminate: () => worker.terminate(),
  };
}

/** A sandbox for `source`, with a limit of `timeoutS` seconds per call (default 10). */
export function browserEstimatorSandbox(source: string, timeoutS?: number): EstimatorSandbox {
  return new EstimatorSandbox(source, spawnNestedWorker, timeoutS);
}
