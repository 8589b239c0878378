/**
 * The worker's training loop gives back the GPU memory of a race it no longer needs, on webgpu (Dawn,
 * SwiftShader): when a race ends (its budget reached) the run keeps its weights but not the buffers its
 * next iteration would make again (its last batch stays for the views, read to the host), and a reset
 * to a smaller batch holds nothing of the bigger race before it. The bytes are those of live GPU buffers (created − destroyed, counted through the WebGPU
 * API: src/backend/webgpu-call-counter.ts). Small shapes: the 4,096-run bounds are
 * test/trainer/gpu-memory-webgpu.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { installWebGpuCallCounter, type WebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';
import type { RaceConfig } from '../../src/config.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import type { FromWorker, SnapshotMessage } from '../../src/worker/protocol.ts';
import { TrainingLoop } from '../../src/worker/training-loop.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

let counter: WebGpuCallCounter;
beforeAll(async () => {
  await useWebGpuBackend();
  counter = installWebGpuCallCounter();
});
afterAll(() => counter.uninstall());

/**
 * What an ended race may keep: its weights and Adam's moments (width 8: about 14 KiB here), the
 * uniform buffers of the runners that stay, tfjs's scalars.
 */
const KEPT_BYTES = 64 * 1024;

const liveBytes = () => {
  const c = counter.read();
  return c.bytesCreated - c.bytesDestroyed;
};

const race = (tasksPerIteration: number, groupSize: number): RaceConfig => ({
  ...PAGE_DEFAULT_CONFIG,
  backend: 'webgpu',
  horizon: 'tiny',
  tasksPerIteration,
  groupSize,
  hiddenSize: 8,
  sftEpisodes: 0,
  iters: 2,
});

/** The most live bytes at a record message of `seen` from index `from` on. */
const peakOf = (seen: readonly { type: string; bytes: number }[], from: number) =>
  Math.max(...seen.slice(from).flatMap((m) => (m.type === 'record' ? [m.bytes] : [])));

/** A loop on webgpu whose host notes the live GPU bytes at every message, with the message's kind. */
function webgpuLoop() {
  const seen: { type: FromWorker['type']; finished?: boolean; generation?: number; bytes: number }[] = [];
  const snapshots: SnapshotMessage[] = [];
  const loop = new TrainingLoop({
    post: (m) => {
      seen.push({ type: m.type, ...(m.type === 'state' ? { finished: m.finished, generation: m.generation } : {}), bytes: liveBytes() });
      if (m.type === 'snapshot') snapshots.push(m);
    },
    prepare: async (_config, method) => createAdvantageEngine('webgpu', method, readShaderSources),
    wait: (ms) => new Promise((r) => setTimeout(r, ms)),
  });
  const until = async (what: string, ok: () => boolean) => {
    const t0 = Date.now();
    while (!ok()) {
      const errors = seen.filter((m) => m.type === 'error');
      if (errors.length > 0) throw new Error(`the loop reported an error (${errors.length}) waiting for ${what}`);
      if (Date.now() - t0 > 240_000) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /**
   * Waits for the race's end: the pump posts `finished` after its last iteration, then once more after
   * it trimmed the run (training-loop.ts `pump`), so the race's second `finished` state is the end. Only
   * the newest generation's states count: a reset first posts the state of the race it replaces, which
   * is finished too.
   */
  const ended = (from: number) =>
    until('the race to end', () => {
      const states = seen.slice(from).filter((m) => m.type === 'state');
      const newest = Math.max(...states.map((m) => m.generation ?? -1));
      return states.filter((m) => m.finished && m.generation === newest).length >= 2;
    });
  return { loop, seen, snapshots, ended, until };
}

describe('a webgpu race in the worker loop', () => {
  it('gives back its GPU buffers when it ends, and a smaller race after a reset holds nothing of the bigger one', { timeout: 600_000 }, async () => {
    const mib = (b: number) => (b / 2 ** 20).toFixed(3);
    // The small race alone, in a loop of its own: what it holds at most, above what was live before it.
    const alone = webgpuLoop();
    const beforeAlone = liveBytes();
    alone.loop.command({ type: 'init', config: race(2, 4), method: 'beacon', running: true, speed: 'nodraw' });
    await alone.ended(0);
    const smallAlone = peakOf(alone.seen, 0) - beforeAlone;

    // A bigger race first, then a reset to the small one, in another loop.
    const { loop, seen, ended, snapshots, until } = webgpuLoop();
    const before = liveBytes();
    loop.command({ type: 'init', config: race(8, 16), method: 'beacon', running: true, speed: 'nodraw' });
    await ended(0);
    const bigPeak = peakOf(seen, 0) - before;
    const bigEnded = liveBytes() - before;
    // Its last batch, never drawn at `nodraw`, is still there for the views when the speed changes.
    loop.command({ type: 'speed', speed: 'normal' });
    await until('the last batch', () => snapshots.length > 0);
    expect(snapshots.map((m) => m.snapshot.iteration)).toEqual([2]);
    const bigEnd = seen.length;
    loop.command({ type: 'reset', config: race(2, 4), running: true });
    await ended(bigEnd);
    const smallAfter = peakOf(seen, bigEnd) - before;
    const smallEnded = liveBytes() - before;
    const message =
      `live GPU MiB: 8-run race alone peak ${mib(smallAlone)}; 128-run race peak ${mib(bigPeak)}, ended ${mib(bigEnded)}; ` +
      `8-run race after it peak ${mib(smallAfter)}, ended ${mib(smallEnded)}`;
    console.log(message);

    // A 128-run race's rollout records, update and advantage buffers run to MiBs; ended, the run keeps
    // its weights and Adam's moments (width 8: tens of KiB) and a few uniform buffers.
    expect(bigPeak, message).toBeGreaterThan(smallAlone + 1 * 2 ** 20);
    expect(bigEnded, message).toBeLessThan(KEPT_BYTES);
    // The reset disposed the big race: the small race holds what it holds alone (the same seed, the
    // same batches), nothing of the race before.
    expect(Math.abs(smallAfter - smallAlone), message).toBeLessThanOrEqual(KEPT_BYTES);
    expect(smallEnded, message).toBeLessThan(KEPT_BYTES);
  });
});
