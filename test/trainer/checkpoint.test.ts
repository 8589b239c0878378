/**
 * Checkpoints (src/trainer/checkpoint.ts, TrainingRun.state / restore / save / open): a run stopped
 * after k iterations and continued from its checkpoint bytes produces the records of the uninterrupted
 * run, timings aside, for every registered method on cpu and wasm; Adam's moments and the random
 * streams round-trip exactly; damaged or foreign bytes are refused with a message naming the fault.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../src/backend/node-webgpu.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { METHOD_NAMES } from '../../src/methods/registry.ts';
import { Rng } from '../../src/prng.ts';
import { cpuAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { CHECKPOINT_SCHEMA, CheckpointError, decodeCheckpoint, encodeCheckpoint } from '../../src/trainer/checkpoint.ts';
import { TIMING_KEYS, type IterationRecord } from '../../src/trainer/iteration-record.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { adamPart } from '../../src/trainer/state-parts.ts';

const tiny = (over: Partial<TrainConfig> = {}): TrainConfig => ({
  ...DEFAULT_CONFIG,
  horizon: 'tiny',
  tasksPerIteration: 2,
  groupSize: 2,
  hiddenSize: 8,
  sftEpisodes: 0,
  iters: 4,
  ...over,
});

function withoutTiming(r: IterationRecord) {
  const copy: Record<string, unknown> = { ...r };
  for (const k of TIMING_KEYS) delete copy[k];
  return copy;
}

/**
 * The uninterrupted run (its iteration-0 evaluation first), with its checkpoint bytes after every
 * iteration k < iters (taking one must not change what follows), then for each k the records of a run
 * opened from checkpoint k and trained to the end.
 */
async function stopAndResume(config: TrainConfig) {
  const run = new TrainingRun(config, cpuAdvantageEngine);
  const checkpoints: ArrayBuffer[] = [];
  const records: IterationRecord[] = [await run.evaluateStart()];
  while (!run.finished) {
    checkpoints.push(await run.save());
    records.push((await run.step())!);
  }
  run.dispose();
  const resumed: IterationRecord[][] = [];
  for (const bytes of checkpoints) {
    const again = await TrainingRun.open(bytes, cpuAdvantageEngine);
    await again.run();
    resumed.push([...again.recordHistory]);
    again.dispose();
  }
  return { records, resumed };
}

for (const backend of ['cpu', 'wasm'] as const) {
  describe(`stop after k iterations, resume from the checkpoint bytes (${backend})`, () => {
    beforeAll(async () => {
      await initBackend(backend, { strict: true });
    });

    it.each(METHOD_NAMES)('%s: the records equal the uninterrupted run’s for k = 0 … 3', async (method) => {
      const { records, resumed } = await stopAndResume(tiny({ method, backend }));
      expect(resumed).toHaveLength(4);
      for (const [k, history] of resumed.entries()) {
        // The restored history holds the k + 1 records before the checkpoint (iteration 0 included),
        // then the records the resumed run trained.
        expect(history.map(withoutTiming), `resumed after k = ${k}`).toEqual(records.map(withoutTiming));
      }
    });
  });
}

describe('checkpoint contents (cpu)', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('resumes exactly from the SFT prior without training it again', async () => {
    const config = tiny({ method: 'beacon', sftEpisodes: 'auto', iters: 3 });
    const { records, resumed } = await stopAndResume(config);
    for (const history of resumed) expect(history.map(withoutTiming)).toEqual(records.map(withoutTiming));
    const run = new TrainingRun(config, cpuAdvantageEngine);
    const state = await run.state();
    expect(state.priorKey).toMatch(/"episodes":6/);
    run.dispose();
  });

  it.each(METHOD_NAMES)('%s: the state lists every random stream of the trainer (its fields’ and their fields’, a learner’s included)', async (method) => {
    const run = new TrainingRun(tiny({ method, iters: 1 }), cpuAdvantageEngine);
    await run.run();
    const state = await run.state();
    const found: Rng[] = [];
    const look = (o: object, depth: number) => {
      for (const v of Object.values(o)) {
        if (v instanceof Rng) found.push(v);
        else if (depth > 0 && v && typeof v === 'object' && !ArrayBuffer.isView(v)) look(v, depth - 1);
      }
    };
    look(run.trainer, 1);
    expect(Object.keys(state.streams)).toHaveLength(found.length);
    expect(Object.values(state.streams)).toEqual(expect.arrayContaining(found.map((r) => r.state())));
    run.dispose();
  });

  it('restores Adam’s moments and step bit for bit', async () => {
    const run = new TrainingRun(tiny({ iters: 2 }), cpuAdvantageEngine);
    await run.run();
    const state = await run.state();

    const decoded = await decodeCheckpoint(await encodeCheckpoint(state));
    const fresh = tf.train.adam(0.003);
    const before = tf.memory().numTensors;
    await adamPart(fresh, 'optimizer').load(decoded.parts.optimizer);
    expect(await adamPart(fresh, 'optimizer').save()).toEqual(state.parts.optimizer);
    expect((state.parts.optimizer.json as { iterations: number }).iterations).toBe(2 * DEFAULT_CONFIG.epochs * DEFAULT_CONFIG.minibatches);
    await adamPart(fresh, 'optimizer').load(decoded.parts.optimizer); // a second load frees the first's moments
    expect(tf.memory().numTensors).toBe(before + Object.keys(decoded.parts.optimizer.arrays).length);
    fresh.dispose();
    expect(decoded.parts.policy).toEqual(state.parts.policy);
    run.dispose();
  });

  it('keeps the tensor count flat across save and open', async () => {
    const cycle = async () => {
      const run = new TrainingRun(tiny({ iters: 2 }), cpuAdvantageEngine);
      await run.step();
      const again = await TrainingRun.open(await run.save(), cpuAdvantageEngine);
      run.dispose();
      await again.run();
      again.dispose();
    };
    await cycle();
    const start = tf.memory().numTensors;
    await cycle();
    expect(tf.memory().numTensors).toBe(start);
  });

  it('refuses a state of another shape, naming the setting', async () => {
    const a = new TrainingRun(tiny({ hiddenSize: 8 }), cpuAdvantageEngine);
    const b = new TrainingRun(tiny({ hiddenSize: 16 }), cpuAdvantageEngine);
    await expect(b.restore(await a.state())).rejects.toThrow(/checkpoint's hiddenSize is 8, this run's is 16/);
    a.dispose();
    b.dispose();
  });
});

describe('damaged checkpoint bytes', () => {
  let good: Uint8Array;
  beforeAll(async () => {
    await tf.setBackend('cpu');
    const run = new TrainingRun(tiny({ iters: 1 }), cpuAdvantageEngine);
    await run.run();
    good = new Uint8Array(await run.save());
    run.dispose();
  });
  const decode = (bytes: Uint8Array) => decodeCheckpoint(bytes.slice().buffer);

  it('reads back the good bytes', async () => {
    expect((await decode(good)).iteration).toBe(1);
  });

  it.each([
    ['empty', () => new Uint8Array(0), /truncated: 0 bytes, fewer than the 52-byte preamble/],
    ['cut short', () => good.slice(0, good.length - 10), /truncated: \d+ bytes, where its preamble announces \d+/],
    ['with trailing bytes', () => Uint8Array.from([...good, 0, 0]), /2 unexpected bytes after the \d+ its preamble announces/],
    ['a flipped body byte', () => flip(good, good.length - 3), /checksum mismatch: the file is corrupted/],
    ['a flipped header byte', () => flip(good, 60), /checksum mismatch/],
    [
      'another schema version',
      () => withSchema(good, CHECKPOINT_SCHEMA + 1),
      new RegExp(`schema version ${CHECKPOINT_SCHEMA + 1}; this build reads checkpoints of schema version ${CHECKPOINT_SCHEMA} only`),
    ],
    [
      'not a checkpoint',
      () => new TextEncoder().encode('{"iteration": 3, "weights": [1, 2, 3], "padding": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}'),
      /not a Beacon Live checkpoint/,
    ],
  ])('refuses bytes %s', async (_name, make, message) => {
    const err = await decode(make()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckpointError);
    expect((err as Error).message).toMatch(message);
  });

  it('names a header field that is out of range, even with a valid checksum', async () => {
    const state = await decode(good);
    const bad = await encodeCheckpoint({ ...state, config: { ...state.config, gamma: 5 } });
    await expect(decodeCheckpoint(bad)).rejects.toThrow(/header field config.gamma is invalid: gamma must be a number in \[0, 1\]; got 5/);
  });
});

function flip(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice();
  copy[at] ^= 0x40;
  return copy;
}

function withSchema(bytes: Uint8Array, schema: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(8, schema, true);
  return copy;
}
