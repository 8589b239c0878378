/**
 * The snapshot pacer (src/worker/snapshot-pacer.ts): which iterations' batches it sends at each speed,
 * which it tells the trainer it will want (so their details come with the iteration's read-back), and
 * that it sends the batch the trainer's `batchView` gives, read from the GPU if it was left there.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { SnapshotPacer } from '../../src/worker/snapshot-pacer.ts';
import type { FromWorker } from '../../src/worker/protocol.ts';
import { DEFAULT_CONFIG } from '../../src/config.ts';
import { Trainer } from '../../src/trainer/trainer.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('snapshot pacer', () => {
  it('wants every iteration at normal and slow speed, one in ten at fast, none without drawing', () => {
    const pacer = new SnapshotPacer(() => {});
    const wanted = (speed: Parameters<SnapshotPacer['wants']>[1]) => [1, 2, 9, 10, 20].filter((i) => pacer.wants(i, speed));
    expect(wanted('normal')).toEqual([1, 2, 9, 10, 20]);
    expect(wanted('slow')).toEqual([1, 2, 9, 10, 20]);
    expect(wanted('fast')).toEqual([10, 20]);
    expect(wanted('nodraw')).toEqual([]);
  });

  it('sends the batch batchView reads, on the iterations it wants and once more at a stop', async () => {
    const trainer = new Trainer({ ...DEFAULT_CONFIG, env: 'gridhouse', horizon: 'tiny', tasksPerIteration: 2, groupSize: 2, hiddenSize: 8, sftEpisodes: 0 });
    try {
      const posted: FromWorker[] = [];
      const pacer = new SnapshotPacer((m) => posted.push(m));
      let views = 0;
      const batchView = trainer.batchView.bind(trainer);
      trainer.batchView = () => {
        views++;
        return batchView();
      };
      await trainer.step(); // iteration 1
      await pacer.completed(trainer, 'beacon', 7, 'fast');
      expect(posted).toHaveLength(0);
      await pacer.flush(trainer, 'beacon', 7, 'fast');
      expect(views).toBe(1);
      expect(posted).toHaveLength(1);
      const message = posted[0];
      if (message.type !== 'snapshot') expect.fail(`a snapshot was posted, not ${message.type}`);
      expect(message.snapshot.iteration).toBe(1);
      expect(message.snapshot.runOffsets).toEqual(trainer.lastBatch!.rollout.runOffsets);
      await pacer.flush(trainer, 'beacon', 7, 'fast'); // nothing new since
      expect(posted).toHaveLength(1);
    } finally {
      trainer.dispose();
    }
  });
});
