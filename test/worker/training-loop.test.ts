/**
 * A worker's training loop (one method per worker), run in Node on the cpu backend: commands (pause,
 * step, reset, settings, speed) do what they say, the budget stops training, stale generations are
 * marked, and a method's loop gives exactly the records of its training run driven directly.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RaceConfig } from '../../src/config.ts';
import type { Method } from '../../src/methods/registry.ts';
import { methodConfig } from '../../src/page/method-configs.ts';
import type { IterationRecord } from '../../src/trainer/iteration-record.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { cpuAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { TIMING_KEYS } from '../../src/trainer/iteration-record.ts';
import type { CheckpointMessage, FromWorker, RecordMessage, SnapshotMessage, StateMessage } from '../../src/worker/protocol.ts';
import { TrainingLoop } from '../../src/worker/training-loop.ts';
import { GpuKernelError } from '../../src/gpu/kernel.ts';
import type { AdvantageEngine } from '../../src/engine/advantage-engine.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny = (over: Partial<RaceConfig> = {}): RaceConfig => ({
  ...PAGE_DEFAULT_CONFIG,
  horizon: 'tiny',
  tasksPerIteration: 2,
  groupSize: 2,
  hiddenSize: 8,
  iters: 3,
  ...over,
});

const init = (config: RaceConfig, running: boolean, method: Method = 'beacon', speed: 'normal' | 'fast' | 'nodraw' = 'normal') => ({
  type: 'init' as const,
  config,
  method,
  running,
  speed,
});

/**
 * The CPU engine, except that on `backend` its `failAt`-th call (1-based) throws the GpuKernelError a
 * WGSL kernel's error scope would raise.
 */
function faultyEngine(failAt: number): { engine: (backend: string) => AdvantageEngine; calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    engine: (backend) =>
      backend !== 'webgpu'
        ? cpuAdvantageEngine
        : {
            ...cpuAdvantageEngine,
            compute(batch, settings) {
              if (++calls === failAt) return Promise.reject(new GpuKernelError('group reduce', 'Validation error (test)'));
              return cpuAdvantageEngine.compute(batch, settings);
            },
          },
  };
}

function harness(engine: (backend: string) => AdvantageEngine = () => cpuAdvantageEngine) {
  const messages: FromWorker[] = [];
  const transfers: Transferable[][] = [];
  const prepared: boolean[] = [];
  const preparedOn: { backend: string; continuesAt: number | null; fallback?: string }[] = [];
  const loop = new TrainingLoop({
    post: (m, t) => {
      messages.push(m);
      transfers.push(t ?? []);
    },
    prepare: async (config, _method, { force, continuesAt, fallback }) => {
      prepared.push(force);
      preparedOn.push({ backend: config.backend, continuesAt, ...(fallback !== null ? { fallback } : {}) });
      return engine(config.backend);
    },
    wait: (ms) => new Promise((r) => setTimeout(r, ms)),
  });
  const records = () => messages.filter((m): m is RecordMessage => m.type === 'record');
  const snapshots = () => messages.filter((m): m is SnapshotMessage => m.type === 'snapshot');
  const lastState = () => messages.filter((m): m is StateMessage => m.type === 'state').at(-1);
  const until = async (what: string, ok: () => boolean, ms = 20_000) => {
    const t0 = Date.now();
    while (!ok()) {
      if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  /** Lets any in-flight work settle (no timing assertion: only "nothing more happened"). */
  const settle = () => new Promise((r) => setTimeout(r, 300));
  return { loop, messages, transfers, prepared, preparedOn, records, snapshots, lastState, until, settle };
}

/** A record without its wall-clock timings (which differ between identical runs). */
const untimed = (r: IterationRecord) => Object.fromEntries(Object.entries(r).filter(([k]) => !(TIMING_KEYS as readonly string[]).includes(k)));

describe('training loop', () => {
  it('trains its one method, sends a snapshot per iteration, and stops at the budget', async () => {
    const h = harness();
    h.loop.command(init(tiny(), true));
    await h.until('the budget', () => h.lastState()?.finished === true);
    expect(h.records().map((m) => `${m.record.method}${m.record.iteration}`)).toEqual(['beacon0', 'beacon1', 'beacon2', 'beacon3']);
    expect(new Set([...h.records(), ...h.snapshots()].map((m) => m.generation))).toEqual(new Set([1]));
    expect(h.snapshots().map((m) => `${m.snapshot.method}${m.snapshot.iteration}`)).toEqual(['beacon1', 'beacon2', 'beacon3']);
    expect(h.lastState()).toMatchObject({ method: 'beacon', running: false, finished: true, iteration: 3, halted: false });
    // Snapshots travel as transfers, each array with its own buffer.
    const i = h.messages.findIndex((m) => m.type === 'snapshot');
    const buffers = h.transfers[i];
    expect(buffers.length).toBe(12);
    expect(new Set(buffers).size).toBe(12);
  });

  it("gives exactly the records of the method's run driven directly (one worker per method changes no number)", async () => {
    for (const method of ['grpo', 'beacon'] as const) {
      const h = harness();
      h.loop.command(init(tiny(), true, method));
      await h.until('the budget', () => h.lastState()?.finished === true);
      const direct = new TrainingRun(methodConfig(method, tiny()), cpuAdvantageEngine);
      const expected: (IterationRecord | null)[] = [await direct.evaluateStart()];
      for (let i = 0; i < 3; i++) expected.push(await direct.step());
      direct.dispose();
      const strip = (r: object) => JSON.parse(JSON.stringify(r, (k, v) => (k === 'ms' || k === 'envStepsPerSecond' ? undefined : v)));
      expect(h.records().map((m) => strip(m.record))).toEqual(expected.map((r) => strip(r!)));
    }
  });

  it('trains several seeds in lock-step, each giving exactly the records of a single-seed race of that seed', async () => {
    const strip = (r: object) => JSON.parse(JSON.stringify(r, (k, v) => (k === 'ms' || k === 'envStepsPerSecond' ? undefined : v)));
    const many = harness();
    // Seeds 3 and 4: `extraSeeds` carries the second seed's prior (null: its trainer computes its own).
    many.loop.command({ ...init(tiny({ seed: 3, iters: 2 }), true, 'grpo'), extraSeeds: [null] });
    await many.until('the budget', () => many.lastState()?.finished === true);
    expect(many.records().map((m) => `${m.seed}:${m.record.iteration}`)).toEqual(['3:0', '4:0', '3:1', '4:1', '3:2', '4:2']);
    expect(many.lastState()).toMatchObject({ iteration: 2, finished: true, halted: false });
    // The snapshots are the first seed's batches.
    expect(many.snapshots().map((m) => m.snapshot.iteration)).toEqual([1, 2]);
    for (const seed of [3, 4]) {
      const one = harness();
      one.loop.command(init(tiny({ seed, iters: 2 }), true, 'grpo'));
      await one.until('the budget', () => one.lastState()?.finished === true);
      expect(one.records().every((m) => m.seed === seed)).toBe(true);
      const mine = many
        .records()
        .filter((m) => m.seed === seed)
        .map((m) => strip(m.record));
      expect(mine).toHaveLength(3);
      expect(mine).toEqual(one.records().map((m) => strip(m.record)));
    }
    // The two seeds really differ (the test would pass vacuously if the seed were ignored).
    const [a, b] = [3, 4].map((seed) =>
      many
        .records()
        .filter((m) => m.seed === seed)
        .map((m) => strip(m.record)),
    );
    expect(a).not.toEqual(b);
  });

  it('starts paused when asked, and a step runs one iteration', async () => {
    const h = harness();
    h.loop.command(init(tiny(), false));
    await h.until('the trainer', () => h.lastState()?.generation === 1);
    await h.settle();
    // Only iteration 0: the starting policy, measured before any update.
    expect(h.records().map((m) => m.record.iteration)).toEqual([0]);
    h.loop.command({ type: 'step' });
    await h.until('one step', () => h.records().length === 2);
    await h.settle();
    expect(h.records().map((m) => `${m.record.method}${m.record.iteration}`)).toEqual(['beacon0', 'beacon1']);
    expect(h.lastState()).toMatchObject({ running: false, finished: false, iteration: 1 });
  });

  it('pauses and resumes', async () => {
    const h = harness();
    h.loop.command(init(tiny({ iters: 50 }), true));
    await h.until('two records', () => h.records().length >= 2);
    h.loop.command({ type: 'pause' });
    await h.settle();
    const n = h.records().length;
    await h.settle();
    expect(h.records().length).toBe(n);
    expect(h.lastState()?.running).toBe(false);
    h.loop.command({ type: 'resume' });
    await h.until('more records', () => h.records().length > n);
    h.loop.command({ type: 'pause' });
  });

  it('reset rebuilds the trainer under a new generation', async () => {
    const h = harness();
    h.loop.command(init(tiny({ iters: 50 }), true, 'grpo'));
    await h.until('records', () => h.records().length >= 3);
    h.loop.command({ type: 'reset', config: tiny({ iters: 2, seed: 7 }), running: true });
    await h.until('the new budget', () => h.lastState()?.generation === 2 && h.lastState()?.finished === true);
    const fresh = h.records().filter((m) => m.generation === 2);
    expect(fresh.map((m) => `${m.record.method}${m.record.iteration}`)).toEqual(['grpo0', 'grpo1', 'grpo2']);
  });

  it('applies live settings, rejects restart settings, and continues when the budget grows', async () => {
    const h = harness();
    h.loop.command(init(tiny({ iters: 1 }), true));
    await h.until('the budget', () => h.lastState()?.finished === true);
    h.loop.command({ type: 'settings', changes: { horizon: 'short' } });
    expect(h.messages.filter((m) => m.type === 'error')).toEqual([{ type: 'error', generation: 1, message: 'settings horizon need a restart; ignored' }]);
    h.loop.command({ type: 'settings', changes: { iters: 2, learningRate: 0.01 } });
    h.loop.command({ type: 'resume' });
    await h.until('the larger budget', () => h.lastState()?.finished === true && h.lastState()?.iteration === 2);
    expect(h.records().map((m) => m.record.iteration)).toEqual([0, 1, 2]);
  });

  it('sends snapshots every 10th iteration when fast, none at nodraw, and the latest when training stops', async () => {
    const fast = harness();
    fast.loop.command(init(tiny({ iters: 3 }), true, 'beacon', 'fast'));
    await fast.until('the budget', () => fast.lastState()?.finished === true);
    await fast.settle();
    expect(fast.snapshots().map((m) => `${m.snapshot.method}${m.snapshot.iteration}`)).toEqual(['beacon3']);

    const none = harness();
    none.loop.command(init(tiny({ iters: 2 }), true, 'beacon', 'nodraw'));
    await none.until('the budget', () => none.lastState()?.finished === true);
    await none.settle();
    expect(none.snapshots()).toEqual([]);
  });

  it('after a lost device, re-prepares the backend and continues from the last completed iteration under a new generation, still running, with the records of an uninterrupted run', async () => {
    const h = harness();
    h.loop.command(init(tiny({ iters: 8 }), true, 'grpo'));
    await h.until('records', () => h.records().length >= 3);
    h.loop.deviceLost('destroyed: test');
    await h.until('the budget after the loss', () => h.lastState()?.finished === true && h.lastState()?.generation === 2);
    expect(h.prepared).toEqual([false, true]);
    const before = h
      .records()
      .filter((m) => m.generation === 1)
      .map((m) => m.record.iteration);
    const after = h
      .records()
      .filter((m) => m.generation === 2)
      .map((m) => m.record);
    // The new generation replays the kept history (0 … k) and goes on from k + 1: nothing restarts at 0
    // and no completed iteration is lost (k is at least the last one the page saw, or the one before it,
    // when the loss came while that iteration's state was being kept).
    expect(after.map((r) => r.iteration)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const k = h.messages.filter((m) => m.type === 'checkpoint' && m.generation === 2)[0];
    expect(k && k.type === 'checkpoint' && k.iteration).toBeGreaterThanOrEqual(Math.max(...before) - 1);
    const direct = new TrainingRun(methodConfig('grpo', tiny({ iters: 8 })), cpuAdvantageEngine);
    const expected = [await direct.evaluateStart()];
    for (let i = 0; i < 8; i++) expected.push((await direct.step())!);
    direct.dispose();
    expect(after.map(untimed)).toEqual(expected.map(untimed));
  });

  it('a move to another backend waits for the iteration boundary and continues from that iteration exactly, redoing none', async () => {
    const h = harness();
    h.loop.command(init(tiny({ iters: 8, backend: 'wasm' }), true, 'grpo'));
    await h.until('records', () => h.records().length >= 3);
    h.loop.command({ type: 'move', backend: 'webgpu' });
    await h.until('the budget after the move', () => h.lastState()?.finished === true && h.lastState()?.generation === 2);
    const checkpoints = (g: number) => h.messages.filter((m): m is CheckpointMessage => m.type === 'checkpoint' && m.generation === g).map((m) => m.iteration);
    const lastBefore = Math.max(...checkpoints(1));
    // The new backend is prepared once, told where the run continues: the last iteration completed before.
    expect(h.preparedOn).toEqual([
      { backend: 'wasm', continuesAt: null },
      { backend: 'webgpu', continuesAt: lastBefore },
    ]);
    expect(checkpoints(2)[0]).toBe(lastBefore);
    // Generation 1 posted exactly the iterations up to the boundary: none was redone after the move.
    expect(
      h
        .records()
        .filter((m) => m.generation === 1)
        .map((m) => m.record.iteration),
    ).toEqual(Array.from({ length: lastBefore + 1 }, (_, i) => i));
    const after = h
      .records()
      .filter((m) => m.generation === 2)
      .map((m) => m.record);
    const direct = new TrainingRun(methodConfig('grpo', tiny({ iters: 8, backend: 'wasm' })), cpuAdvantageEngine);
    const expected = [await direct.evaluateStart()];
    for (let i = 0; i < 8; i++) expected.push((await direct.step())!);
    direct.dispose();
    expect(after.map(untimed)).toEqual(expected.map(untimed));
  });

  it('a GPU fault (a kernel error) moves the run to wasm from its last completed iteration, says why, and declines a later move back', async () => {
    const faulty = faultyEngine(4); // iteration 0's evaluation is call 1: the fault comes in iteration 3
    const h = harness(faulty.engine);
    h.loop.command(init(tiny({ iters: 7, backend: 'webgpu' }), true, 'grpo'));
    await h.until('the budget after the fault', () => h.lastState()?.finished === true && h.lastState()?.generation === 2);
    expect(h.preparedOn).toEqual([
      { backend: 'webgpu', continuesAt: null },
      { backend: 'wasm', continuesAt: 2, fallback: 'WGSL kernel group reduce: Validation error (test)' },
    ]);
    // No error stopped the panel: it went on, and its records are those of an uninterrupted run.
    expect(h.messages.filter((m) => m.type === 'error')).toEqual([]);
    expect(h.lastState()).toMatchObject({ iteration: 7, halted: false });
    const after = h
      .records()
      .filter((m) => m.generation === 2)
      .map((m) => m.record);
    const direct = new TrainingRun(methodConfig('grpo', tiny({ iters: 7 })), cpuAdvantageEngine);
    const expected = [await direct.evaluateStart()];
    for (let i = 0; i < 7; i++) expected.push((await direct.step())!);
    direct.dispose();
    expect(after.map(untimed)).toEqual(expected.map(untimed));
    // The probe's move back to WebGPU is declined: this run's WebGPU failed.
    h.loop.command({ type: 'move', backend: 'webgpu' });
    await h.settle();
    expect(h.preparedOn).toHaveLength(2);
  });

  it('a GPU fault while a run starts (iteration 0) starts it on wasm instead of failing the panel', async () => {
    const h = harness(faultyEngine(1).engine);
    h.loop.command(init(tiny({ iters: 2, backend: 'webgpu' }), true, 'grpo'));
    await h.until('the budget', () => h.lastState()?.finished === true);
    expect(h.preparedOn.map((p) => p.backend)).toEqual(['webgpu', 'wasm']);
    expect(h.preparedOn[1].continuesAt).toBe(null);
    expect(h.messages.filter((m) => m.type === 'error')).toEqual([]);
  });

  it('posts its state as checkpoint bytes after every iteration, and init with those bytes continues the run exactly', async () => {
    const first = harness();
    first.loop.command(init(tiny({ iters: 6 }), true, 'beacon'));
    await first.until('the budget', () => first.lastState()?.finished === true);
    const checkpoints = first.messages.filter((m): m is CheckpointMessage => m.type === 'checkpoint');
    expect(checkpoints.map((m) => m.iteration)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const at3 = checkpoints[3];
    const resumed = harness();
    resumed.loop.command({ ...init(tiny({ iters: 6 }), true, 'beacon'), checkpoint: at3.bytes });
    await resumed.until('the budget', () => resumed.lastState()?.finished === true);
    expect(resumed.records().map((m) => untimed(m.record))).toEqual(first.records().map((m) => untimed(m.record)));
    // Bad bytes: a message names the problem, and the run starts from iteration 0.
    const bad = harness();
    bad.loop.command({ ...init(tiny({ iters: 1 }), true, 'beacon'), checkpoint: new Uint8Array(10).buffer });
    await bad.until('the budget', () => bad.lastState()?.finished === true);
    expect(bad.messages.find((m) => m.type === 'error')).toMatchObject({
      message: expect.stringMatching(/beacon: the saved state is unreadable \(truncated: 10 bytes/),
    });
    expect(bad.records().map((m) => m.record.iteration)).toEqual([0, 1]);
  });

  it('with several seeds, saves every seed and continues each exactly, after a lost device and from the saved bytes', async () => {
    const withSeeds = (h: ReturnType<typeof harness>, checkpoint?: ArrayBuffer) =>
      h.loop.command({ ...init(tiny({ seed: 3, iters: 5 }), true, 'grpo'), extraSeeds: [null], ...(checkpoint ? { checkpoint } : {}) });
    const bySeed = (h: ReturnType<typeof harness>, generation: number) =>
      [3, 4].map((seed) =>
        h
          .records()
          .filter((m) => m.generation === generation && m.seed === seed)
          .map((m) => untimed(m.record)),
      );
    const first = harness();
    withSeeds(first);
    await first.until('the budget', () => first.lastState()?.finished === true);
    const uninterrupted = bySeed(first, 1);
    expect(uninterrupted.map((r) => r.length)).toEqual([6, 6]);
    expect(uninterrupted[0]).not.toEqual(uninterrupted[1]);
    const at2 = first.messages.filter((m): m is CheckpointMessage => m.type === 'checkpoint').find((m) => m.iteration === 2)!;

    const resumed = harness();
    withSeeds(resumed, at2.bytes);
    await resumed.until('the budget', () => resumed.lastState()?.finished === true);
    expect(bySeed(resumed, 1)).toEqual(uninterrupted);

    const lost = harness();
    withSeeds(lost);
    await lost.until('records', () => lost.records().length >= 6);
    lost.loop.deviceLost('destroyed: test');
    await lost.until('the budget after the loss', () => lost.lastState()?.finished === true && lost.lastState()?.generation === 2);
    expect(bySeed(lost, 2)).toEqual(uninterrupted);

    // Saved bytes of another number of seeds are named, and the race starts over.
    const single = harness();
    single.loop.command({ ...init(tiny({ seed: 3, iters: 1 }), true, 'grpo'), checkpoint: at2.bytes });
    await single.until('the budget', () => single.lastState()?.finished === true);
    expect(single.messages.find((m) => m.type === 'error')).toMatchObject({
      message: expect.stringMatching(/could not be continued \(the saved state holds 2 seed\(s\), this race trains 1\)/),
    });
  });

  it('GRPO ignores BEACON ablations; BEACON gets them', async () => {
    const config = tiny({ iters: 1, trajectoryTerm: false, gamma: 0 });
    const snap = async (method: Method) => {
      const h = harness();
      h.loop.command(init(config, true, method));
      await h.until('the budget', () => h.lastState()?.finished === true);
      return h.snapshots().find((m) => m.snapshot.method === method)!.snapshot;
    };
    const grpo = await snap('grpo');
    const beacon = await snap('beacon');
    expect(Array.from(grpo.aSeg).every((v) => v === 0)).toBe(true);
    // No trajectory term: BEACON's A is λ · A_seg alone.
    expect(Array.from(beacon.aTraj).every((v) => v === 0)).toBe(true);
    beacon.advantages.forEach((a, t) => expect(a).toBeCloseTo(beacon.lambda * beacon.aSeg[t], 5));
  });
});
