/**
 * When a worker sends the page its latest batch (batch-snapshot.ts): every `snapshotEvery` iterations
 * of the speed's pacing, and once more when training stops, so the views never miss the last batch
 * even at a speed that skips most of them.
 */
import { detectorOf } from '../config.ts';
import type { Method } from '../methods/registry.ts';
import { SPEED_PACING, type Speed } from '../race/speed.ts';
import type { Trainer } from '../trainer/trainer.ts';
import { makeSnapshot, snapshotTransferables } from './batch-snapshot.ts';
import type { FromWorker } from './protocol.ts';

export class SnapshotPacer {
  /** The latest batch has not been sent as a snapshot yet. */
  private unsent = false;

  constructor(private readonly post: (message: FromWorker, transfer?: Transferable[]) => void) {}

  /** A new run: nothing of it to send yet. */
  reset(): void {
    this.unsent = false;
  }

  /** After a completed iteration: sends its batch when the pacing says so. */
  completed(trainer: Trainer | undefined, method: Method, generation: number, speed: Speed): void {
    this.unsent = true;
    const every = SPEED_PACING[speed].snapshotEvery;
    if (every > 0 && trainer && trainer.iteration % every === 0) this.send(trainer, method, generation);
  }

  /** When training stops, the views get the latest batch even if the speed skipped it. */
  flush(trainer: Trainer | undefined, method: Method, generation: number, speed: Speed): void {
    if (SPEED_PACING[speed].snapshotEvery === 0 || !this.unsent || !trainer) return;
    this.send(trainer, method, generation);
  }

  private send(trainer: Trainer, method: Method, generation: number): void {
    if (!trainer.lastBatch) return;
    const settings = trainer.settings;
    const snapshot = makeSnapshot(trainer.lastBatch, {
      method,
      iteration: trainer.iteration,
      env: settings.env,
      horizon: settings.horizon,
      lambda: settings.lambda,
      randomSegments: settings.randomSegments,
      detector: detectorOf(settings),
    });
    this.post({ type: 'snapshot', generation, snapshot }, snapshotTransferables(snapshot));
    this.unsent = false;
  }
}
