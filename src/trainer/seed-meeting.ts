/**
 * Where one method's seeds meet for a phase of their iteration computed on the GPU in one go
 * (src/worker/seed-runs.ts arms it each iteration, as it arms their rollouts' batch): their
 * advantages on the kernels (src/gpu/seed-advantages.ts) and their credit metrics
 * (src/gpu/seed-credit-metrics.ts). Each seed's kernel object hands over its call; once every seed
 * still stepping has come, `submit` encodes them all in one set of dispatches and one submit, in
 * joined buffers this meeting keeps between rounds.
 */
import { GpuBufferPool } from '../gpu/buffer-pool.ts';
import { Rendezvous } from './rendezvous.ts';

/** A seed's place at the meeting, for its kernel object. */
export interface Seat<Call> {
  readonly armed: boolean;
  join(call: Call): Promise<void>;
  leave(): void;
}

export class SeedMeeting<Call extends { device: GPUDevice }> {
  private readonly rendezvous = new Rendezvous<Call, undefined>((calls) => this.meet(calls));
  /** The joined buffers, on the device of the latest round. */
  private pool: GpuBufferPool | null = null;
  private device: GPUDevice | null = null;

  constructor(
    private readonly label: string,
    private readonly submit: (calls: readonly Call[], pool: GpuBufferPool) => Promise<void>,
  ) {}

  /** Rounds met so far (tests read it). */
  get rounds(): number {
    return this.rendezvous.rounds;
  }

  /** The next `count` seeds' calls meet. */
  arm(count: number): void {
    this.rendezvous.arm(count);
  }

  /** Seed `seed` will not come this round (its step ended first, or it computes this phase elsewhere). */
  leave(seed: number): void {
    this.rendezvous.leave(seed);
  }

  /** Seed `seed`'s place. */
  seat(seed: number): Seat<Call> {
    const rendezvous = this.rendezvous;
    return {
      get armed() {
        return rendezvous.armed;
      },
      join: (call) => rendezvous.join(seed, call),
      leave: () => rendezvous.leave(seed),
    };
  }

  private async meet(calls: Call[]): Promise<undefined[]> {
    const { device } = calls[0];
    if (this.device !== device) this.trim();
    this.device = device;
    this.pool ??= new GpuBufferPool(device, this.label);
    await this.submit(calls, this.pool);
    return calls.map(() => undefined);
  }

  /** GPU buffers the meeting holds (tests check that it does not grow). */
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
