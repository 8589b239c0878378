/**
 * The reliability checks, each returning figures: a soak (a long run with tensor count and GPU memory
 * sampled, and a checkpoint round trip along the way), fuzzing of the three inputs strangers type
 * (page URL queries, train's flags, `advantages` JSON), and injected faults (a non-finite batch, a
 * kill inside a checkpoint write). `npm run reliability` (bench/reliability.ts) runs them at full size
 * and writes docs/reliability.md; test/reliability.test.ts runs them small on every `npm test`.
 *
 * Fuzz verdicts: a crash is any exception other than the input's own error class (UsageError,
 * InputError) or, for the URL reader, any exception at all; a stack trace is a message that contains
 * one; a rejection must name the field it rejects.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import fc from 'fast-check';
import { writeCheckpointFile, readCheckpointFile } from '../cli/checkpoint-file.ts';
import { parseFlags, UsageError } from '../cli/flags.ts';
import { TRAIN_FLAGS } from '../cli/train-flags.ts';
import { InputError, parseAdvantageRequest } from '../cli/batch-json.ts';
import { ADVANTAGE_KEYS, CONFIG_FIELDS, DEFAULT_CONFIG, type TrainConfig } from '../src/config.ts';
import { METHOD_NAMES, methodSpec } from '../src/methods/registry.ts';
import { readPageState } from '../src/page/url-state.ts';
import { cpuAdvantageEngine, type AdvantageEngine } from '../src/engine/advantage-engine.ts';
import { TrainingRun } from '../src/trainer/run.ts';

const STACK = /\n\s+at /;
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

// ── Fuzz ────────────────────────────────────────────────────────────────────────────────────────

export interface FuzzResult {
  cases: number;
  accepted: number;
  rejected: number;
  crashes: number;
  stackTraces: number;
  /** Rejections whose message does not name a field of the input. */
  unnamed: number;
  /** The first few failures, for the report. */
  examples: string[];
}

function tally(): FuzzResult {
  return { cases: 0, accepted: 0, rejected: 0, crashes: 0, stackTraces: 0, unnamed: 0, examples: [] };
}

function note(r: FuzzResult, kind: 'crashes' | 'stackTraces' | 'unnamed', what: string) {
  r[kind]++;
  if (r.examples.length < 5) r.examples.push(`${kind}: ${what}`);
}

/** Values that are almost right, plainly wrong, or hostile. */
const nastyText = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', 'NaN', 'Infinity', '-0', '1e309', '0x10', '1_000', 'true', 'auto', 'null', '%00', '\u0000', '💥', '__proto__', 'constructor'),
  fc.double().map(String),
  fc.integer().map(String),
);

const settingValue = (key: string) => {
  const spec = CONFIG_FIELDS.find((s) => s.key === key);
  const good =
    spec?.kind.type === 'enum'
      ? fc.constantFrom(...spec.kind.values)
      : spec?.kind.type === 'bool'
        ? fc.constantFrom('true', 'false')
        : fc.double({ min: -10, max: 1000, noNaN: true }).map(String);
  return fc.oneof(good, nastyText);
};

const anyKey = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CONFIG_FIELDS.map((s) => s.key), 'speed', 'smoothing', 'methods') },
  { weight: 1, arbitrary: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', '')) },
);

/** Random page URL queries through readPageState: it must never throw, and every issue names its key. */
export function fuzzUrlQueries(numRuns: number, seed: number): FuzzResult {
  const r = tally();
  const query = fc.oneof(
    fc
      .array(
        fc.tuple(anyKey, fc.string()).chain(([k]) => fc.tuple(fc.constant(k), settingValue(k))),
        { maxLength: 8 },
      )
      .map((pairs) => new URLSearchParams(pairs).toString()),
    fc.string({ maxLength: 200 }),
    fc.array(fc.constantFrom('&', '=', '?', '%', '%2', '%zz', '+', 'gamma', 'seed', '1', '#'), { maxLength: 30 }).map((xs) => xs.join('')),
  );
  fc.assert(
    fc.property(query, (q) => {
      r.cases++;
      try {
        const { issues } = readPageState(q);
        const keys = [...new URLSearchParams(q).keys()];
        if (issues.length === 0) r.accepted++;
        else r.rejected++;
        for (const issue of issues) {
          if (STACK.test(issue.message)) note(r, 'stackTraces', JSON.stringify(q));
          if (typeof issue.message !== 'string') return void note(r, 'crashes', `${JSON.stringify(q)} → an issue whose message is ${typeof issue.message}`);
          if (!keys.includes(issue.field) || !(issue.message.includes(issue.field) || issue.message.includes(JSON.stringify(issue.field))))
            note(r, 'unnamed', `${JSON.stringify(q)} → ${issue.message}`);
        }
      } catch (e) {
        note(r, 'crashes', `${JSON.stringify(q)} → ${String(e)}`);
      }
    }),
    { numRuns, seed },
  );
  return r;
}

/** Random train command lines through parseFlags with train's table: a UsageError naming a flag, or a config. */
export function fuzzTrainFlags(numRuns: number, seed: number): FuzzResult {
  const r = tally();
  const names = [...Object.keys(TRAIN_FLAGS), ...CONFIG_FIELDS.map((s) => s.key), 'help'];
  const token = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...names).chain((n) =>
        fc.oneof(
          settingValue(n).map((v) => [`--${n}`, v]),
          settingValue(n).map((v) => [`--${n}=${v}`]),
          fc.constant([`--${n}`]),
        ),
      ),
    },
    { weight: 1, arbitrary: nastyText.map((t) => [t]) },
    { weight: 1, arbitrary: fc.string().map((t) => [`--${t}`]) },
  );
  const argv = fc.array(token, { maxLength: 8 }).map((xs) => xs.flat());
  fc.assert(
    fc.property(argv, (args) => {
      r.cases++;
      try {
        parseFlags(args, TRAIN_FLAGS, DEFAULT_CONFIG);
        r.accepted++;
      } catch (e) {
        if (!(e instanceof UsageError)) return void note(r, 'crashes', `${JSON.stringify(args)} → ${String(e)}`);
        r.rejected++;
        if (STACK.test(e.message)) note(r, 'stackTraces', JSON.stringify(args));
        // The message names a flag of the command line (--name) or quotes the argument it could not read.
        const named =
          args.some((a) => {
            const name = a.startsWith('--') ? a.slice(2).split('=')[0] : null;
            return (name !== null && e.message.includes(`--${name}`)) || (name === null && e.message.includes(JSON.stringify(a)));
          }) || /^--\w+ is required/.test(e.message);
        if (!named) note(r, 'unnamed', `${JSON.stringify(args)} → ${e.message}`);
      }
    }),
    { numRuns, seed },
  );
  return r;
}

const FIELD_WORDS = ['groups', 'input', 'reward', 'milestones', 'stateKeys', 'values', ...ADVANTAGE_KEYS];

/**
 * Random or malformed `advantages` requests through parseAdvantageRequest and the method's estimator:
 * an InputError naming a field, or advantages that are all finite numbers.
 */
export function fuzzAdvantageInputs(numRuns: number, seed: number): FuzzResult {
  const r = tally();
  const num = fc.oneof(
    { weight: 1, arbitrary: fc.double() },
    { weight: 30, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) },
    { weight: 3, arbitrary: fc.integer({ min: -3, max: 3 }) },
  );
  // Mostly well-typed, sometimes anything at all: most cases reach the estimators, the rest the checks.
  const maybe = <T>(a: fc.Arbitrary<T>) =>
    fc.option(fc.oneof({ weight: 20, arbitrary: a }, { weight: 1, arbitrary: fc.anything() }), { nil: undefined, freq: 3 });
  // Which per-step arrays the runs carry is drawn once per request (the format wants all runs or none).
  const run = (has: { milestones: boolean; stateKeys: boolean; values: boolean }) =>
    fc.integer({ min: 1, max: 6 }).chain((len) => {
      const steps = <T>(a: fc.Arbitrary<T>) => fc.array(a, { minLength: len, maxLength: len });
      return fc.record({
        reward: fc.oneof({ weight: 20, arbitrary: num }, { weight: 1, arbitrary: fc.anything() }),
        ...(has.milestones ? { milestones: steps(fc.constantFrom(0, 1)) } : {}),
        ...(has.stateKeys ? { stateKeys: steps(fc.constantFrom('a', 'b', 'c')) } : {}),
        ...(has.values ? { values: steps(num) } : {}),
      });
    });
  const wellTyped = fc.record({ milestones: fc.boolean(), stateKeys: fc.boolean(), values: fc.boolean() }).chain((has) =>
    fc.record(
      {
        method: maybe(fc.constantFrom(...METHOD_NAMES)),
        gamma: maybe(num),
        lambda: maybe(num),
        rMs: maybe(num),
        normalize: maybe(fc.constantFrom('meanStd', 'mean', 'none')),
        variant: maybe(fc.constantFrom('paper', 'released')),
        omega: maybe(num),
        groups: fc.oneof(
          { weight: 12, arbitrary: fc.array(fc.array(run(has), { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 3 }) },
          { weight: 1, arbitrary: fc.anything() },
        ),
      },
      { requiredKeys: ['groups'] },
    ),
  );
  const request = wellTyped.map((o) => JSON.parse(JSON.stringify(o)) as unknown); // as a JSON file would hold it
  const input = fc.oneof(
    { weight: 6, arbitrary: request },
    { weight: 1, arbitrary: fc.anything() },
    { weight: 1, arbitrary: fc.dictionary(fc.string(), fc.anything()) },
  );
  fc.assert(
    fc.property(input, (json) => {
      r.cases++;
      let req: ReturnType<typeof parseAdvantageRequest>;
      try {
        req = parseAdvantageRequest(json);
      } catch (e) {
        if (!(e instanceof InputError)) return void note(r, 'crashes', `parse ${safeJson(json)} → ${String(e)}`);
        r.rejected++;
        if (STACK.test(e.message)) note(r, 'stackTraces', safeJson(json));
        if (!FIELD_WORDS.some((w) => e.message.includes(w)) && !/unknown field/.test(e.message)) note(r, 'unnamed', `${safeJson(json)} → ${e.message}`);
        return;
      }
      try {
        const result = methodSpec(req.settings.method).estimate(req.batch, req.settings);
        if (!Array.from(result.advantages).every(Number.isFinite)) return void note(r, 'crashes', `non-finite advantages for ${safeJson(json)}`);
        r.accepted++;
      } catch (e) {
        note(r, 'crashes', `estimate ${safeJson(json)} → ${String(e)}`);
      }
    }),
    { numRuns, seed },
  );
  return r;
}

function safeJson(x: unknown): string {
  try {
    return (JSON.stringify(x) ?? String(x)).slice(0, 200);
  } catch {
    return String(x).slice(0, 200);
  }
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
