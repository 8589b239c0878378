/**
 * The page's handle on a training worker: starts it as a module worker and types both directions.
 */
import type { FromWorker, ToWorker } from './protocol.ts';

export class TrainingWorkerClient {
  private readonly worker: Worker;

  /** `name` shows in the browser's developer tools (e.g. the method the worker trains). */
  constructor(onMessage: (message: FromWorker) => void, onCrash: (message: string) => void, name = 'training') {
    this.worker = new Worker(new URL('./training-worker.ts', import.meta.url), { type: 'module', name: `beacon-live-${name}` });
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => onMessage(event.data);
    this.worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      onCrash(event.message || 'the training worker failed to load');
    };
    this.worker.onmessageerror = () => onCrash('a message from the training worker could not be read');
  }

  send(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  terminate(): void {
    this.worker.terminate();
  }
}
