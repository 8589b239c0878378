/**
 * Where one method's seeds meet for their advantages (src/worker/seed-runs.ts arms it each iteration,
 * as it arms their rollouts' batch): each seed's estimator hands over its batch, and once every seed
 * still stepping has come, one set of dispatches and one submit computes them all
 * (src/gpu/seed-advantages.ts says why each seed's values are those it gets alone).
 */
import { GpuBufferPool } from '../gpu/buffer-pool.ts';
import { type AdvantageSeat, type SeedAdvantageCall, submitSeedAdvantages } from '../gpu/seed-advantages.ts';
import { Rendezvous } from './rendezvous.ts';

export class SeedAdvantageBatch {
  private readonly rendezvous = new Rendezvous<SeedAdvantageCall, undefined>((calls) => this.meet(calls));
  /** The joined buffers, on the device of the latest round. */
  private pool: GpuBufferPool | null = null;
  private device: GPUDevice | null = null;

  /** Rounds met so far (tests read it). */
  get rounds(): number {
    return this.rendezvous.rounds;
  }

  /** The next `count` seeds' advantages meet. */
  arm(count: number): void {
    this.rendezvous.arm(count);
  }

  /** Seed `seed`'s step ended without its advantages (it threw first, or its method computes them elsewhere). */
  leave(seed: number): void {
    this.rendezvous.leave(seed);
  }

  /** Seed `seed`'s place at the meeting, for its estimator. */
  seat(seed: number): AdvantageSeat {
    const rendezvous = this.rendezvous;
    return {
      get armed() {
        return rendezvous.armed;
      },
      join: (call) => rendezvous.join(seed, call),
    };
  }

  private async meet(calls: SeedAdvantageCall[]): Promise<undefined[]> {
    const { device } = calls[0];
    if (this.device !== device) this.trim();
    this.device = device;
    this.pool ??= new GpuBufferPool(device, 'seed advantages');
    await submitSeedAdvantages(calls, this.pool);
    return calls.map(() => undefined);
  }

  /** GPU buffers the batch holds (tests check that it does not grow). */
  get liveBuffers(): number {
    return this.pool?.liveBuffers ?? 0;
  }

  /** Lets go of the joined buffers (a race that ended); the next round makes them again. */
  trim(): void {
    this.pool?.destroy();
    this.pool = null;
  }

  dispose(): void {
    this.trim();
  }
}
