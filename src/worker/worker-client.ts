/**
 * The page's handle on a training worker: starts it as a module worker and types both directions.
 *
 * A worker's first seconds go to loading its script (tfjs and the trainer); the page may start the
 * workers it will race before it has built itself (`startTrainingWorkersEarly`), and the race's clients
 * then take those workers over instead of starting new ones (docs/performance.md, "The first point").
 */
import type { FromWorker, ToWorker } from './protocol.ts';
import { isSandboxPortRequest, type SandboxPortGrant, type SandboxPortRequest } from '../estimator/frame-protocol.ts';

/**
 * A sandbox worker for the visitor's estimator, asked for by a training worker: the page's estimator
 * frame (loaded on first use) starts it and the worker gets its ports (src/estimator/sandbox-frame.ts).
 */
async function grantSandboxPorts(worker: Worker, { id }: SandboxPortRequest): Promise<void> {
  let grant: SandboxPortGrant;
  try {
    const { connectEstimatorSandbox } = await import('../estimator/sandbox-frame.ts');
    grant = { type: 'estimatorSandbox', id, ...(await connectEstimatorSandbox()) };
  } catch (e) {
    worker.postMessage({ type: 'estimatorSandbox', id, error: e instanceof Error ? e.message : String(e) } satisfies SandboxPortGrant);
    return;
  }
  worker.postMessage(grant, [grant.data, grant.control]);
}

function spawn(name: string): Worker {
  return new Worker(new URL('./training-worker.ts', import.meta.url), { type: 'module', name: `beacon-live-${name}` });
}

/** Workers started early, by name, each with the error it raised before a client took it (if any). */
const early = new Map<string, { worker: Worker; error: string | null }>();

/** Whether `url` (a resource the page fetched) is a training worker's script (training-worker-<hash>.js, or the dev server's .ts). */
export function isTrainingWorkerScript(url: string): boolean {
  return /\/training-worker[^/]*$/.test(new URL(url).pathname);
}

/** Starts loading a training worker for each of `names` now; a client of the same name takes it over. */
export function startTrainingWorkersEarly(names: readonly string[]): void {
  for (const name of names) {
    if (early.has(name)) continue;
    const entry = { worker: spawn(name), error: null as string | null };
    entry.worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      entry.error = event.message || 'the training worker failed to load';
    };
    early.set(name, entry);
  }
}

/** Sends `message` to every early worker no client has taken yet (a `warm` before the page has built itself). */
export function sendToEarlyWorkers(message: ToWorker): void {
  for (const { worker } of early.values()) worker.postMessage(message);
}

/** Terminates the early workers no client took (the race turned out to have other entries). */
export function dropUnusedEarlyWorkers(): void {
  for (const { worker } of early.values()) worker.terminate();
  early.clear();
}

export class TrainingWorkerClient {
  private readonly worker: Worker;

  /** `name` shows in the browser's developer tools (e.g. the method the worker trains). */
  constructor(onMessage: (message: FromWorker) => void, onCrash: (message: string) => void, name = 'training') {
    const started = early.get(name);
    early.delete(name);
    this.worker = started?.worker ?? spawn(name);
    this.worker.onmessage = (event: MessageEvent<FromWorker | SandboxPortRequest>) => {
      if (isSandboxPortRequest(event.data)) void grantSandboxPorts(this.worker, event.data);
      else onMessage(event.data);
    };
    this.worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      onCrash(event.message || 'the training worker failed to load');
    };
    this.worker.onmessageerror = () => onCrash('a message from the training worker could not be read');
    // A worker started early that failed to load before this client took it: reported as if it failed now.
    if (started?.error) {
      const error = started.error;
      queueMicrotask(() => onCrash(error));
    }
  }

  send(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  terminate(): void {
    this.worker.terminate();
  }
}
