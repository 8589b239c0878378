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
import { sampleDetailsRead } from './sample-view.ts';

/** The latest batch, kept for the episode viewer and the credit view. */
export interface BatchView {
  rollout: Rollout;
  /** The batch as the advantages saw it (milestones after random segmentation). */
  batch: AdvantageBatch;
  result: AdvantageResult;
  /**
   * Where the view holds the GPU rollout's checked sample of the batch (sample-view.ts): run i here is
   * the batch's run `runs[i]`, of `numRuns` runs in groups of `groupSize`.
   */
  sample?: { runs: readonly number[]; numRuns: number; groupSize: number };
}

/** A batch's checked sample as a view shows it: its runs replayed, and their batch as the advantages saw it. */
export interface SampleOfBatch {
  rollout: Rollout;
  batch: AdvantageBatch;
  runs: readonly number[];
}

interface Kept {
  rollout: Rollout;
  batch: AdvantageBatch;
  /** With `sample`: the whole batch's details still on the GPU, or the sample's on the CPU. */
  result: IterationDetails;
  sample?: SampleOfBatch;
}

export class LatestBatch {
  private view: Kept | null = null;

  /**
   * Keeps a batch, its details on the CPU or still on the GPU, freeing the one before. With `sample`
   * the views show that sample (a batch whose steps were laid out only for it): `result` is then the
   * whole batch's details on the GPU, or the sample's read already (`sampleDetailsRead`).
   */
  keep(rollout: Rollout, batch: AdvantageBatch, result: IterationDetails, sample?: SampleOfBatch): void {
    this.release();
    this.view = { rollout, batch, result, ...(sample ? { sample } : {}) };
  }

  /** The batch (or its sample) where its details and steps are on the CPU, else null (`read` reads them). */
  get onCpu(): BatchView | null {
    const v = this.view;
    if (!v || isPendingDetails(v.result)) return null;
    if (v.sample) {
      const { rollout, batch, runs } = v.sample;
      return { rollout, batch, result: v.result, sample: { runs, numRuns: v.rollout.numRuns, groupSize: v.rollout.groupSize } };
    }
    return v.rollout.completeReplay ? null : { rollout: v.rollout, batch: v.batch, result: v.result };
  }

  /**
   * The batch, its details read from the GPU if they were left there (only the sample's, for a view of
   * the sample), its steps laid out if only its sample was and the view is of the whole batch.
   */
  async read(): Promise<BatchView | null> {
    const v = this.view;
    if (!v) return null;
    if (isPendingDetails(v.result)) [v.result] = await readTogether([v.sample ? sampleDetailsRead(v.result, v.rollout.runOffsets, v.sample.runs) : v.result]);
    if (!v.sample) await v.rollout.completeReplay?.();
    return this.onCpu;
  }

  /** Frees the details if they are still on the GPU, and forgets the batch. */
  release(): void {
    if (this.view) releaseIteration(this.view.result);
    this.view = null;
  }
}
