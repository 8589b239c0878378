/**
 * The worker's training loop, run in Node on the cpu backend: methods alternate, commands (pause, step,
 * reset, settings, speed) do what they say, the budget stops training, and stale generations are marked.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrainConfig } from '../../src/config.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { cpuAdvantageEngine } from '../../src/trainer/advantage-engine.ts';
import type { FromWorker, RecordMessage, SnapshotMessage, StateMessage } from '../../src/worker/protocol.ts';
import { TrainingLoop } from '../../src/worker/training-loop.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const tiny = (over: Partial<TrainConfig> = {}): TrainConfig => ({ ...PAGE_DEFAULT_CONFIG, horizon: 'tiny', tasksPerIteration: 2, groupSize: 2, hiddenSize: 8, iters: 3, ...over });

function harness() {
  const messages: FromWorker[] = [];
  const transfers: Transferable[][] = [];
  const prepared: boolean[] = [];
  const loop = new TrainingLoop({
    post: (m, t) => {
      messages.push(m);
      transfers.push(t ?? []);
    },
    prepare: async (_config, force) => {
      prepared.push(force);
      return () => cpuAdvantageEngine;
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
  return { loop, messages, transfers, prepared, records, snapshots, lastState, until, settle };
}

describe('training loop', () => {
  it('alternates GRPO and BEACON, sends a snapshot per iteration, and stops at the budget', async () => {
    const h = harness();
    h.loop.command({ type: 'init', config: tiny(), running: true, speed: 'normal' });
    await h.until('the budget', () => h.lastState()?.finished === true);
    expect(h.records().map((m) => `${m.record.method}${m.record.iteration}`)).toEqual(['grpo1', 'beacon1', 'grpo2', 'beacon2', 'grpo3', 'beacon3']);
    expect(new Set([...h.records(), ...h.snapshots()].map((m) => m.generation))).toEqual(new Set([1]));
    expect(h.snapshots().map((m) => `${m.snapshot.method}${m.snapshot.iteration}`)).toEqual(['grpo1', 'beacon1', 'grpo2', 'beacon2', 'grpo3', 'beacon3']);
    expect(h.lastState()).toMatchObject({ running: false, finished: true, iterations: { grpo: 3, beacon: 3 }, halted: [] });
    // Snapshots travel as transfers, each array with its own buffer.
    const i = h.messages.findIndex((m) => m.type === 'snapshot');
    const buffers = h.transfers[i];
    expect(buffers.length).toBe(12);
    expect(new Set(buffers).size).toBe(12);
  });

  it('starts paused when asked, and a step runs one iteration of each method', async () => {
    const h = harness();
    h.loop.command({ type: 'init', config: tiny(), running: false, speed: 'normal' });
    await h.until('the trainers', () => h.lastState()?.generation === 1);
    await h.settle();
    expect(h.records()).toEqual([]);
    h.loop.command({ type: 'step' });
    await h.until('one step', () => h.records().length === 2);
    await h.settle();
    expect(h.records().map((m) => `${m.record.method}${m.record.iteration}`)).toEqual(['grpo1', 'beacon1']);
    expect(h.lastState()).toMatchObject({ running: false, finished: false, iterations: { grpo: 1, beacon: 1 } });
  });

  it('pauses and resumes', async () => {
    const h = harness();
    h.loop.command({ type: 'init', config: tiny({ iters: 50 }), running: true, speed: 'normal' });
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

  it('reset rebuilds both trainers under a new generation', async () => {
    const h = harness();
    h.loop.command({ type: 'init', config: tiny({ iters: 50 }), running: true, speed: 'normal' });
    await h.until('records', () => h.records().length >= 3);
    h.loop.command({ type: 'reset', config: tiny({ iters: 2, seed: 7 }), running: true });
    await h.until('the new budget', () => h.lastState()?.generation === 2 && h.lastState()?.finished === true);
    const fresh = h.records().filter((m) => m.generation === 2);
    expect(fresh.map((m) => `${m.record.method}${m.record.iteration}`)).toEqual(['grpo1', 'beacon1', 'grpo2', 'beacon2']);
  });

  it('applies live settings, rejects restart settings, and continues when the budget grows', async () => {
    const h = harness();
    h.loop.command({ type: 'init', config: tiny({ iters: 1 }), running: true, speed: 'normal' });
    await h.until('the budget', () => h.lastState()?.finished === true);
    h.loop.command({ type: 'settings', changes: { horizon: 'short' } });
    expect(h.messages.filter((m) => m.type === 'error')).toEqual([{ type: 'error', generation: 1, message: 'settings horizon need a restart; ignored' }]);
    h.loop.command({ type: 'settings', changes: { iters: 2, learningRate: 0.01 } });
    h.loop.command({ type: 'resume' });
    await h.until('the larger budget', () => h.lastState()?.finished === true && h.lastState()?.iterations.beacon === 2);
    expect(h.records().map((m) => m.record.iteration)).toEqual([1, 1, 2, 2]);
  });

  it('sends snapshots every 10th iteration when fast, none at nodraw, and the latest when training stops', async () => {
    const fast = harness();
    fast.loop.command({ type: 'init', config: tiny({ iters: 3 }), running: true, speed: 'fast' });
    await fast.until('the budget', () => fast.lastState()?.finished === true);
    await fast.settle();
    expect(fast.snapshots().map((m) => `${m.snapshot.method}${m.snapshot.iteration}`)).toEqual(['grpo3', 'beacon3']);

    const none = harness();
    none.loop.command({ type: 'init', config: tiny({ iters: 2 }), running: true, speed: 'nodraw' });
    await none.until('the budget', () => none.lastState()?.finished === true);
    await none.settle();
    expect(none.snapshots()).toEqual([]);
  });

  it('after a lost device, re-prepares the backend and restarts under a new generation, still running', async () => {
    const h = harness();
    h.loop.command({ type: 'init', config: tiny({ iters: 50 }), running: true, speed: 'normal' });
    await h.until('records', () => h.records().length >= 2);
    h.loop.deviceLost('destroyed: test');
    await h.until('the new generation', () => h.records().some((m) => m.generation === 2));
    h.loop.command({ type: 'pause' });
    expect(h.prepared).toEqual([false, true]);
    expect(h.records().find((m) => m.generation === 2)!.record).toMatchObject({ method: 'grpo', iteration: 1 });
  });

  it('GRPO ignores BEACON ablations; BEACON gets them', async () => {
    const h = harness();
    h.loop.command({ type: 'init', config: tiny({ iters: 1, trajectoryTerm: false, gamma: 0 }), running: true, speed: 'normal' });
    await h.until('the budget', () => h.lastState()?.finished === true);
    const grpo = h.snapshots().find((m) => m.snapshot.method === 'grpo')!.snapshot;
    const beacon = h.snapshots().find((m) => m.snapshot.method === 'beacon')!.snapshot;
    expect(Array.from(grpo.aSeg).every((v) => v === 0)).toBe(true);
    // No trajectory term: BEACON's A is λ · A_seg alone.
    expect(Array.from(beacon.aTraj).every((v) => v === 0)).toBe(true);
    beacon.advantages.forEach((a, t) => expect(a).toBeCloseTo(beacon.lambda * beacon.aSeg[t], 5));
  });
});
