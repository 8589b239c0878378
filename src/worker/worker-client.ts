/**
 * The page's handle on the training worker: starts it as a module worker and types both directions.
 */
import type { FromWorker, ToWorker } from './protocol.ts';

export class TrainingWorkerClient {
  private readonly worker: Worker;

  constructor(onMessage: (message: FromWorker) => void, onCrash: (message: string) => void) {
    this.worker = new Worker(new URL('./training-worker.ts', import.meta.url), { type: 'module', name: 'beacon-live-training' });
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
