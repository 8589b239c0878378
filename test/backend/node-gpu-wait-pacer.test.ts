/**
 * The Node pacer of GPU waits (src/backend/node-gpu-wait-pacer.ts), on stand-in GPU* classes: a
 * wait longer than PACE_AFTER_MS sleeps through turns of the event loop, a short one does not, the
 * promise itself (value or error) comes back unchanged, and the pacing stops when nothing is pending.
 */
import { describe, expect, it } from 'vitest';
import { PACE_AFTER_MS, paceGpuWaits, pacerState } from '../../src/backend/node-gpu-wait-pacer.ts';

const after = <T>(ms: number, value: T, fail = false) =>
  new Promise<T>((resolve, reject) => setTimeout(() => (fail ? reject(new Error(String(value))) : resolve(value)), ms));

class GPUBuffer {
  mapAsync(ms: number) {
    return after(ms, 'mapped');
  }
}
class GPUQueue {
  onSubmittedWorkDone(ms: number) {
    return after(ms, 'lost', true);
  }
}
class GPUDevice {
  popErrorScope() {
    return Promise.resolve(null);
  }
}
const scope = { GPUBuffer, GPUQueue, GPUDevice };
paceGpuWaits(scope);
const wrapped = GPUBuffer.prototype.mapAsync;
paceGpuWaits(scope);

describe('the Node pacer of GPU waits', () => {
  it('wraps each polled method once', () => {
    expect(GPUBuffer.prototype.mapAsync).toBe(wrapped);
  });

  it('sleeps through turns of the event loop during a long wait, and stops when it settles', async () => {
    const before = pacerState().sleeps;
    await expect(new GPUBuffer().mapAsync(10 * PACE_AFTER_MS)).resolves.toBe('mapped');
    expect(pacerState().sleeps).toBeGreaterThan(before);
    expect(pacerState().pending).toBe(0);
    const settled = pacerState().sleeps;
    await after(5 * PACE_AFTER_MS, null);
    expect(pacerState().sleeps).toBe(settled);
  });

  it('passes a rejection through, and does not pace a wait that settles at once', async () => {
    await expect(new GPUQueue().onSubmittedWorkDone(3)).rejects.toThrow('lost');
    expect(pacerState().pending).toBe(0);
    const before = pacerState().sleeps;
    await expect(new GPUDevice().popErrorScope()).resolves.toBeNull();
    expect(pacerState().sleeps).toBe(before);
  });
});
