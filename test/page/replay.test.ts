/**
 * A batch snapshot replays exactly: resetting a batch-1 environment with a run's task seed and stepping
 * its recorded actions gives the run's outcome and milestones; the credit view's segments match them.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectorOf, type TrainConfig } from '../../src/config.ts';
import { runCredit } from '../../src/page/credit-data.ts';
import { DETECTOR_ONLY, defaultRun, replayRun, runOutcome } from '../../src/page/episode-replay.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { Trainer } from '../../src/trainer/trainer.ts';
import { makeSnapshot, snapshotRuns, type BatchSnapshot } from '../../src/worker/batch-snapshot.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

async function snapshotOf(config: TrainConfig): Promise<BatchSnapshot> {
  const trainer = new Trainer(config);
  try {
    await trainer.step();
    return makeSnapshot(trainer.lastBatch!, {
      method: config.method,
      iteration: trainer.iteration,
      env: config.env,
      horizon: config.horizon,
      lambda: config.lambda,
      randomSegments: config.randomSegments,
      detector: detectorOf(config),
    });
  } finally {
    trainer.dispose();
  }
}

const small = (over: Partial<TrainConfig>): TrainConfig => ({
  ...PAGE_DEFAULT_CONFIG,
  method: 'beacon',
  horizon: 'short',
  tasksPerIteration: 3,
  groupSize: 4,
  hiddenSize: 8,
  ...over,
});

describe('episode replay and credit data', () => {
  for (const env of ['gridhouse', 'texthouse'] as const) {
    it(`${env}: every run of a batch replays to its recorded outcome and milestones`, async () => {
      const s = await snapshotOf(small({ env }));
      expect(snapshotRuns(s)).toBe(12);
      for (let run = 0; run < snapshotRuns(s); run++) {
        const r = replayRun(s, run);
        const steps = s.runOffsets[run + 1] - s.runOffsets[run];
        expect(r.actions).toHaveLength(steps);
        expect(r.observations).toHaveLength(steps + 1);
        if (env === 'gridhouse') expect(r.frames).toHaveLength(steps + 1);
        else expect(r.frames).toBeNull();
        expect(r.success).toBe(s.success[run] === 1);
        // No dropout: what the replay detects is what training recorded.
        expect(r.detected).toEqual(r.recorded);
        expect(r.recorded.filter((k) => k > 0)).toHaveLength(s.milestonesReached[run]);
        expect(r.milestoneNames).toHaveLength(s.numMilestones[run]);
        expect(runOutcome(s, run)).toBe(s.success[run] ? 'full' : s.milestonesReached[run] ? 'partial' : 'failure');
      }
    });
  }

  it('with milestone dropout, the replay still detects every milestone and the recorded ones are a subset', async () => {
    const s = await snapshotOf(small({ env: 'gridhouse', milestoneDropout: 0.5 }));
    let dropped = 0;
    for (let run = 0; run < snapshotRuns(s); run++) {
      const r = replayRun(s, run);
      r.recorded.forEach((k, t) => {
        if (k) expect(r.detected[t]).toBe(k);
        else if (r.detected[t]) dropped++;
      });
    }
    expect(dropped).toBeGreaterThan(0);
  });

  it('under the loose detector, the replay finds every fire training recorded, the detector-only ones marked', async () => {
    const s = await snapshotOf(small({ env: 'gridhouse', looseMilestones: true }));
    let detectorOnly = 0;
    for (let run = 0; run < snapshotRuns(s); run++) {
      const r = replayRun(s, run);
      r.recorded.forEach((k, t) => {
        expect(k > 0, `run ${run}, step ${t}`).toBe(s.milestones[s.runOffsets[run] + t] > 0);
        if (k === DETECTOR_ONLY) detectorOnly++;
      });
    }
    expect(detectorOnly).toBeGreaterThan(0);
  });

  it('cuts segments at the milestones, ends failed runs with a tail, and A = A_traj + λ · A_seg', async () => {
    const s = await snapshotOf(small({ env: 'gridhouse', lambda: 0.5 }));
    for (let run = 0; run < snapshotRuns(s); run++) {
      const c = runCredit(s, run);
      const complete = c.segments.filter((g) => g.complete);
      expect(complete).toHaveLength(s.milestonesReached[run]);
      const covered = c.segments.reduce((n, g) => n + g.to - g.from + 1, 0);
      expect(covered).toBe(c.steps);
      if (!s.success[run] && c.boundaries[c.steps - 1] === 0) expect(c.segments.at(-1)!.complete).toBe(false);
      for (let t = 0; t < c.steps; t++) expect(c.advantages[t]).toBeCloseTo(c.aTraj + 0.5 * c.aSeg[t], 5);
      // The paper's baseline gives the incomplete tail A_traj alone.
      for (const g of c.segments.filter((x) => !x.complete)) for (let t = g.from; t <= g.to; t++) expect(c.aSeg[t]).toBe(0);
    }
  });

  it('picks a partial success by default when the batch has one', async () => {
    const s = await snapshotOf(small({ env: 'texthouse' }));
    const run = defaultRun(s);
    const hasPartial = Array.from(s.success).some((ok, i) => !ok && s.milestonesReached[i] > 0);
    expect(runOutcome(s, run)).toBe(hasPartial ? 'partial' : runOutcome(s, 0));
  });
});
