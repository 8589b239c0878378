/**
 * The trainer's latest batch, kept for the episode viewer and the credit view. Where the iteration's
 * metrics were computed on the GPU its advantage details may have been left there (the page did not
 * say it would draw this batch), and its steps laid out only for the GPU rollout's checked sample:
 * they are read on demand (one read-back each, and the host's replay of every run), and freed when
 * the next batch replaces this one.
 */
import type { AdvantageBatch, AdvantageResult } from '../advantages/types.ts';
import { readTogether } from '../gpu/pending-read.ts';
import { type IterationDetails, isPendingDetails, releaseIteration } from './iteration-read-back.ts';
import type { Rollout } from './rollout.ts';

/** The latest batch, kept for the episode viewer and the credit view. */
export interface BatchView {
  rollout: Rollout;
  /** The batch as the advantages saw it (milestones after random segmentation). */
  batch: AdvantageBatch;
  result: AdvantageResult;
}

export class LatestBatch {
  private view: { rollout: Rollout; batch: AdvantageBatch; result: IterationDetails } | null = null;

  /** Keeps a batch, its details on the CPU or still on the GPU, freeing the one before. */
  keep(rollout: Rollout, batch: AdvantageBatch, result: IterationDetails): void {
    this.release();
    this.view = { rollout, batch, result };
  }

  /** The batch where its details and steps are on the CPU, else null (`read` reads them). */
  get onCpu(): BatchView | null {
    const v = this.view;
    return v && !isPendingDetails(v.result) && !v.rollout.completeReplay ? { rollout: v.rollout, batch: v.batch, result: v.result } : null;
  }

  /** The batch, its details read from the GPU if they were left there, its steps laid out if only its sample was. */
  async read(): Promise<BatchView | null> {
    const v = this.view;
    if (v && isPendingDetails(v.result)) [v.result] = await readTogether([v.result]);
    await v?.rollout.completeReplay?.();
    return this.onCpu;
  }

  /** Frees the details if they are still on the GPU, and forgets the batch. */
  release(): void {
    if (this.view) releaseIteration(this.view.result);
    this.view = null;
  }
}
