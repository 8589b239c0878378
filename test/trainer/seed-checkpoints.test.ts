/**
 * A page panel's saved runs (src/trainer/seed-checkpoints.ts): one seed is a plain checkpoint, several
 * are a checksummed bundle; both decode to the same states, and a damaged bundle says what is wrong.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { cpuAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { CheckpointError, decodeCheckpoint, type RunState } from '../../src/trainer/checkpoint.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { decodeSeedCheckpoints, encodeSeedCheckpoints } from '../../src/trainer/seed-checkpoints.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny = (seed: number): TrainConfig => ({
  ...DEFAULT_CONFIG,
  horizon: 'tiny',
  tasksPerIteration: 2,
  groupSize: 2,
  hiddenSize: 8,
  iters: 2,
  sftEpisodes: 0,
  seed,
});

async function stateAfterOne(seed: number): Promise<RunState> {
  const run = new TrainingRun(tiny(seed), cpuAdvantageEngine);
  await run.step();
  const state = await run.state();
  run.dispose();
  return state;
}

describe('seed checkpoints', () => {
  it('one seed is a plain checkpoint; several round-trip in seed order', async () => {
    const [a, b] = [await stateAfterOne(3), await stateAfterOne(4)];
    const one = await encodeSeedCheckpoints([a]);
    expect((await decodeCheckpoint(one)).config.seed).toBe(3);
    expect(await decodeSeedCheckpoints(one)).toEqual([a]);
    const both = await decodeSeedCheckpoints(await encodeSeedCheckpoints([a, b]));
    expect(both.map((s) => s.config.seed)).toEqual([3, 4]);
    expect(both).toEqual([a, b]);
  });

  it('names what is wrong with damaged bytes', async () => {
    const bytes = new Uint8Array(await encodeSeedCheckpoints([await stateAfterOne(3), await stateAfterOne(4)]));
    const flipped = bytes.slice();
    flipped[flipped.length - 3] ^= 0xff;
    await expect(decodeSeedCheckpoints(flipped.buffer)).rejects.toThrow(/seed bundle.*checksum mismatch|checksum mismatch/);
    await expect(decodeSeedCheckpoints(bytes.slice(0, 100).buffer)).rejects.toThrow(CheckpointError);
    await expect(decodeSeedCheckpoints(new TextEncoder().encode('NOTAFILE and more bytes than a preamble, more and more bytes here').buffer)).rejects.toThrow(
      /not a Beacon Live seed bundle/,
    );
  });
});
