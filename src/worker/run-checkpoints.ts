/**
 * Durable runs: after every completed iteration the training loop keeps the run's state in memory
 * (`last`) and posts it to the page as checkpoint bytes (seed-checkpoints.ts: a checkpoint per seed; a
 * few ms, docs/reliability.md), which autosaves them. A lost GPU device continues from `last` on the
 * new backend, so no completed iteration is lost; `init`/`reset` with checkpoint bytes continue a
 * saved run (`decode`).
 */
import type { RaceEntryName } from '../race/entries.ts';
import type { RunState } from '../trainer/checkpoint.ts';
import { decodeSeedCheckpoints, encodeSeedCheckpoints } from '../trainer/seed-checkpoints.ts';
import { DeviceLostError, errorText, type LoopHost, type StepWatch } from './loop-host.ts';
import type { PendingReset } from './reset-plan.ts';
import type { SeedRuns } from './seed-runs.ts';

/** How long a failed step waits for a device loss to be reported before it counts as a failure. */
export const DEVICE_LOSS_GRACE_MS = 200;

/** What the checkpoints read of the loop that keeps them. */
export interface CheckpointedLoop {
  readonly host: LoopHost;
  /** Steps a device loss can interrupt. */
  readonly steps: StepWatch;
  /** The loop's run now (a state taken of another is stale). */
  currentRun(): SeedRuns | null;
  /** A rebuild waiting (a state taken meanwhile is stale). */
  pendingRebuild(): PendingReset | null;
  /** Posts `message` as this panel's error. */
  report(message: string): void;
}

export class RunCheckpoints {
  /** Every seed's state after the last completed iteration (or as restored): where a lost device continues. */
  last: RunState[] | null = null;

  constructor(private readonly loop: CheckpointedLoop) {}

  /** Saved bytes as every seed's state, or null (and a message saying why) when they cannot be read. */
  async decode(bytes: ArrayBuffer, method: RaceEntryName): Promise<RunState[] | null> {
    try {
      return await decodeSeedCheckpoints(bytes);
    } catch (e) {
      this.loop.report(`${method}: the saved state is unreadable (${errorText(e)}); started from iteration 0`);
      return null;
    }
  }

  /**
   * Keeps `run`'s state after a completed iteration (where a lost device continues) and posts it to
   * the page as checkpoint bytes of `generation`, for autosave and run files.
   */
  async keep(run: SeedRuns, method: RaceEntryName, generation: number): Promise<void> {
    const { host, steps } = this.loop;
    try {
      const state = await steps.watch(run.state());
      if (this.loop.pendingRebuild() || run !== this.loop.currentRun()) return;
      this.last = state;
      const bytes = await encodeSeedCheckpoints(state);
      host.post({ type: 'checkpoint', generation, method, iteration: run.iteration, bytes }, [bytes]);
    } catch (e) {
      if (e instanceof DeviceLostError) return; // the pump continues from the previous state
      // As in a step: a dying device fails the state's read-back (an aborted mapping) just before its
      // `lost` promise settles; once the loss is reported, the run continues from the previous state.
      await host.wait(DEVICE_LOSS_GRACE_MS);
      if (this.loop.pendingRebuild()?.force || run !== this.loop.currentRun()) return;
      this.loop.report(`${method}: the state could not be saved: ${errorText(e)}`);
    }
  }
}
