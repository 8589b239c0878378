/**
 * The reliability checks on a training run, each returning figures: a soak (a long run with tensor
 * count and GPU memory sampled, and a checkpoint round trip along the way), injected faults (a
 * non-finite batch, a kill inside a checkpoint write) and a checkpoint's cost. The fuzzing of the
 * inputs strangers type is in reliability-fuzz.ts. `npm run reliability` (bench/reliability.ts) runs
 * them at full size and writes docs/reliability.md; test/reliability.test.ts runs them small on every
 * `npm test`.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { writeCheckpointFile, readCheckpointFile } from '../cli/checkpoint-file.ts';
import type { TrainConfig } from '../src/config.ts';
import { cpuAdvantageEngine, type AdvantageEngine } from '../src/engine/advantage-engine.ts';
import { TrainingRun } from '../src/trainer/run.ts';

const now = () => performance.now();

// ── Soak ────────────────────────────────────────────────────────────────────────────────────────

export interface SoakSample {
  iteration: number;
  numTensors: number;
  /** webgpu only: bytes of live tensors, and bytes the buffer pool holds (live + free). */
  gpuBytes?: number;
  gpuPoolBytes?: number;
  heapMB: number;
}

export interface SoakResult {
  iterations: number;
  samples: SoakSample[];
  /** Tensor count: the spread of the samples after the warm-up sample (0 = flat). */
  tensorSpread: number;
  /** webgpu only: the pool's growth after the warm-up sample, in bytes (0 = flat). */
  poolGrowth?: number;
  checkpointRoundTrips: number;
  seconds: number;
}

/**
 * Trains `config` for `config.iters` iterations, sampling every `every`; every `reopenEvery`
 * iterations the run is saved, disposed and opened again from its bytes (a long run that lives
 * through checkpoints must stay flat too).
 */
export async function soak(config: TrainConfig, engine: () => AdvantageEngine, every: number, reopenEvery: number): Promise<SoakResult> {
  const t0 = now();
  let run = new TrainingRun(config, engine());
  const samples: SoakSample[] = [];
  let roundTrips = 0;
  const sample = () => {
    const m = tf.memory() as tf.MemoryInfo & { numBytesInGPU?: number; numBytesAllocatedInGPU?: number };
    samples.push({
      iteration: run.iteration,
      numTensors: m.numTensors,
      ...(m.numBytesInGPU === undefined ? {} : { gpuBytes: m.numBytesInGPU, gpuPoolBytes: m.numBytesAllocatedInGPU }),
      heapMB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    });
  };
  try {
    while (!run.finished) {
      await run.step();
      if (run.halted) throw new Error(`soak: ${run.halted}`);
      if (run.iteration % reopenEvery === 0 && !run.finished) {
        const bytes = await run.save();
        run.dispose();
        run = await TrainingRun.open(bytes, engine());
        roundTrips++;
      }
      if (run.iteration % every === 0) sample();
    }
  } finally {
    run.dispose();
  }
  const after = samples.slice(1);
  const counts = after.map((s) => s.numTensors);
  const pools = after.flatMap((s) => (s.gpuPoolBytes === undefined ? [] : [s.gpuPoolBytes]));
  return {
    iterations: config.iters,
    samples,
    tensorSpread: counts.length ? Math.max(...counts) - Math.min(...counts) : 0,
    ...(pools.length ? { poolGrowth: Math.max(...pools) - pools[0] } : {}),
    checkpointRoundTrips: roundTrips,
    seconds: (now() - t0) / 1000,
  };
}

// ── Injected faults ─────────────────────────────────────────────────────────────────────────────

export interface NonFiniteFault {
  value: number;
  halted: boolean;
  message: string | null;
  weightsIntact: boolean;
  iterations: number;
}

/** The CPU reference, except that iteration `at` (1-based) gets `value` in its first advantage. */
export function poisonedEngine(at: number, value: number): AdvantageEngine {
  let calls = 0;
  return {
    name: 'cpu',
    async compute(batch, settings, ...rest) {
      const out = await cpuAdvantageEngine.compute(batch, settings, ...rest);
      if (++calls !== at) return out;
      const a = Float32Array.from(out.result.advantages);
      a[0] = value;
      out.tensor.dispose();
      return { tensor: tf.tensor1d(a), result: out.result };
    },
    dispose() {},
  };
}

/** A NaN or ±Inf in the second batch: the run must halt with a message and the first update's weights. */
export async function nonFiniteBatch(config: TrainConfig, value: number): Promise<NonFiniteFault> {
  const run = new TrainingRun({ ...config, iters: 4 }, poisonedEngine(2, value));
  try {
    await run.step();
    const before = await run.trainer.policy.weights();
    const copy = before.map((w) => w.slice());
    await run.run();
    const after = await run.trainer.policy.weights();
    return {
      value,
      halted: run.halted !== null,
      message: run.halted,
      weightsIntact: after.every((w, i) => w.length === copy[i].length && w.every((x, j) => Object.is(x, copy[i][j]))),
      iterations: run.iteration,
    };
  } finally {
    run.dispose();
  }
}

export interface KillFault {
  killedBySignal: boolean;
  previousIntact: boolean;
  previousReadable: boolean;
}

/** A process SIGKILLed inside an atomic checkpoint write (test/support/kill-mid-write.ts). */
export async function killDuringWrite(config: TrainConfig, root: string): Promise<KillFault> {
  const dir = mkdtempSync(join(tmpdir(), 'reliability-kill-'));
  const [older, newer] = [join(dir, 'run.ckpt'), join(dir, 'newer.ckpt')];
  const run = new TrainingRun({ ...config, iters: 2 }, cpuAdvantageEngine);
  try {
    await run.step();
    writeCheckpointFile(older, await run.save());
    await run.step();
    writeCheckpointFile(newer, await run.save());
  } finally {
    run.dispose();
  }
  const hash = () => createHash('sha256').update(readFileSync(older)).digest('hex');
  const before = hash();
  const signal = await new Promise<string | null>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'test/support/kill-mid-write.ts', older, newer], { cwd: root }, (error) => resolve(error?.signal ?? null));
  });
  let readable = false;
  try {
    readable = (await readCheckpointFile(older)).iteration === 1;
  } catch {
    readable = false;
  }
  return { killedBySignal: signal === 'SIGKILL', previousIntact: hash() === before, previousReadable: readable };
}

// ── Checkpoint cost ─────────────────────────────────────────────────────────────────────────────

export interface CheckpointCost {
  bytes: number;
  encodeMs: number;
  writeMs: number;
  readMs: number;
}

/** Size and time of one checkpoint of `config` after `iterations` iterations (median of `repeats`). */
export async function checkpointCost(config: TrainConfig, iterations: number, repeats: number): Promise<CheckpointCost> {
  const dir = mkdtempSync(join(tmpdir(), 'reliability-cost-'));
  const path = join(dir, 'run.ckpt');
  const run = new TrainingRun({ ...config, iters: iterations }, cpuAdvantageEngine);
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  try {
    await run.run();
    const encode: number[] = [];
    const write: number[] = [];
    const read: number[] = [];
    let bytes = 0;
    for (let i = 0; i < repeats; i++) {
      let t = now();
      const data = await run.save();
      encode.push(now() - t);
      bytes = data.byteLength;
      t = now();
      writeCheckpointFile(path, data);
      write.push(now() - t);
      t = now();
      await readCheckpointFile(path);
      read.push(now() - t);
    }
    return { bytes, encodeMs: median(encode), writeMs: median(write), readMs: median(read) };
  } finally {
    run.dispose();
  }
}
