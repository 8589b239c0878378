/**
 * What the page draws of a batch read on the GPU alone (src/trainer/sample-view.ts): the GPU rollout's
 * checked sample, its details read in the iteration's read-back where the page said it would draw the
 * batch, its snapshot numbering the runs as the batch does, each run replaying in a batch-1
 * environment to its recorded outcome, and a details read that is not the estimator's layout refused.
 */
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { DEFAULT_CONFIG, detectorOf, type TrainConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { liveKeptBuffers, pendingRead } from '../../src/gpu/pending-read.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { runCredit } from '../../src/page/credit-data.ts';
import { replayRun } from '../../src/page/episode-replay.ts';
import { CHECKED_RUNS } from '../../src/trainer/log-prob-check.ts';
import { sampleDetailsRead } from '../../src/trainer/sample-view.ts';
import { Trainer } from '../../src/trainer/trainer.ts';
import { batchRunCount, batchRunNumber, makeSnapshot, snapshotRuns } from '../../src/worker/batch-snapshot.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

beforeAll(async () => {
  await useWebGpuBackend();
});

const config: TrainConfig = {
  ...DEFAULT_CONFIG,
  method: 'beacon',
  backend: 'webgpu',
  env: 'gridhouse',
  horizon: 'short',
  tasksPerIteration: 4,
  groupSize: 4,
  hiddenSize: 16,
  sftEpisodes: 0,
};

describe('the page’s view of a batch read on the GPU alone', () => {
  it('is the checked sample: 8 of 16 runs, numbered as in the batch, each replaying to its recorded outcome', async () => {
    const trainer = new Trainer(config, createAdvantageEngine('webgpu', 'beacon', readShaderSources));
    try {
      trainer.batchViewWanted = () => true;
      for (let i = 0; i < 2; i++) await trainer.step();
      // Drawn: the sample's details came with the iteration's read-back; nothing is left on the GPU.
      expect(liveKeptBuffers()).toBe(0);
      const view = trainer.lastBatch!;
      expect(view.sample).toBeDefined();
      const { runs, numRuns, groupSize } = view.sample!;
      expect([runs.length, new Set(runs).size, numRuns, groupSize]).toEqual([CHECKED_RUNS, CHECKED_RUNS, 16, 4]);
      const S = view.rollout.runOffsets[CHECKED_RUNS];
      expect([view.result.advantages.length, view.result.trajectoryAdvantages.length, view.rollout.actions.length]).toEqual([S, CHECKED_RUNS, S]);
      const snapshot = makeSnapshot(view, {
        method: 'beacon',
        iteration: trainer.iteration,
        env: config.env,
        horizon: config.horizon,
        lambda: config.lambda,
        randomSegments: false,
        detector: detectorOf(config),
      });
      expect([snapshotRuns(snapshot), batchRunCount(snapshot), snapshot.groupSize]).toEqual([CHECKED_RUNS, 16, 4]);
      for (let i = 0; i < CHECKED_RUNS; i++) {
        expect(batchRunNumber(snapshot, i)).toBe(runs[i]);
        const replayed = replayRun(snapshot, i);
        expect(replayed.success, `run ${runs[i]}`).toBe(snapshot.success[i] === 1);
        expect(runCredit(snapshot, i).steps).toBe(snapshot.runOffsets[i + 1] - snapshot.runOffsets[i]);
      }
    } finally {
      trainer.dispose();
    }
  }, 300_000);

  it('refuses details that are not kept in the estimator’s layout, and frees them', () => {
    const device = tf.backend() as unknown as { device: GPUDevice };
    const buffer = device.device.createBuffer({ size: 64, usage: GPUBufferUsage.COPY_SRC });
    let released = 0;
    const details = pendingRead(
      device.device,
      [[buffer, 16]],
      () => {
        throw new Error('not read');
      },
      () => void released++,
    );
    try {
      // Two runs of 3 and 4 steps: the layout holds 3 · 7 + 2 = 23 values, not 16.
      expect(() => sampleDetailsRead(details, Int32Array.of(0, 3, 7), [1])).toThrow(/kept in one buffer of 23 values/);
      expect(released).toBe(1);
    } finally {
      buffer.destroy();
    }
  });
});
