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

  /** The latest batch has not been sent (a speed that skipped it): a later `flush` may still send it. */
  get pending(): boolean {
    return this.unsent;
  }

  /** A new run: nothing of it to send yet. */
  reset(): void {
    this.unsent = false;
  }

  /**
   * Whether the batch of iteration `iteration` will be sent at `speed`: the trainer then reads its
   * advantage details with the iteration's other values (Trainer.batchViewWanted) rather than after.
   */
  wants(iteration: number, speed: Speed): boolean {
    const every = SPEED_PACING[speed].snapshotEvery;
    return every > 0 && iteration % every === 0;
  }

  /** Tells `trainer` which iterations' batches will be sent, at the speed `speed()` gives then. */
  follow(trainer: Trainer, speed: () => Speed): void {
    trainer.batchViewWanted = (iteration) => this.wants(iteration, speed());
  }

  /** After a completed iteration: sends its batch when the pacing says so. */
  async completed(trainer: Trainer | undefined, method: Method, generation: number, speed: Speed): Promise<void> {
    this.unsent = true;
    if (trainer && this.wants(trainer.iteration, speed)) await this.send(trainer, method, generation);
  }

  /** When training stops, the views get the latest batch even if the speed skipped it. */
  async flush(trainer: Trainer | undefined, method: Method, generation: number, speed: Speed): Promise<void> {
    if (SPEED_PACING[speed].snapshotEvery === 0 || !this.unsent || !trainer) return;
    await this.send(trainer, method, generation);
  }

  private async send(trainer: Trainer, method: Method, generation: number): Promise<void> {
    const view = await trainer.batchView();
    if (!view) return;
    const settings = trainer.settings;
    const snapshot = makeSnapshot(view, {
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
