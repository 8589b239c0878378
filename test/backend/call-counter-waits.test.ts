/**
 * The call counter's bookkeeping, on stand-in GPU* classes whose promises the test settles by hand and
 * a clock it sets: GPU waits count the union of the pending intervals (overlaps once, a rejection ends
 * its wait and still rejects), mapped writes count only buffers mapped for writing, and uploads count
 * their bytes. The real API is counted in call-counter.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installWebGpuCallCounter, type WebGpuCallCounter } from '../../src/backend/webgpu-call-counter.ts';

/** A promise and the functions that settle it. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Stand-ins for the GPU* classes: each promise-returning method hands out the next deferred. */
function fakeScope() {
  const queued: ReturnType<typeof deferred<unknown>>[] = [];
  const next = () => {
    const d = deferred<unknown>();
    queued.push(d);
    return d.promise;
  };
  class FakeBuffer {
    constructor(readonly size: number) {}
    mapAsync(_mode: number, _offset?: number, _size?: number) {
      return next();
    }
    getMappedRange(_offset?: number, size?: number) {
      return new ArrayBuffer(size ?? this.size);
    }
    unmap() {}
    destroy() {}
  }
  const scope = {
    GPUDevice: class {
      createBuffer(d: { size: number; mappedAtCreation?: boolean }) {
        return new FakeBuffer(d.size);
      }
      createComputePipeline() {
        return {};
      }
      createComputePipelineAsync() {
        return next();
      }
      popErrorScope() {
        return next();
      }
    },
    GPUComputePassEncoder: class {
      dispatchWorkgroups() {}
    },
    GPUQueue: class {
      submit() {}
      writeBuffer() {}
      onSubmittedWorkDone() {
        return next();
      }
    },
    GPUBuffer: FakeBuffer,
  };
  return { scope, queued };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('WebGPU call counter bookkeeping', () => {
  let clock = 0;
  let counter: WebGpuCallCounter;
  let fake: ReturnType<typeof fakeScope>;
  beforeEach(() => {
    clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    fake = fakeScope();
    counter = installWebGpuCallCounter(fake.scope);
  });
  afterEach(() => {
    counter.uninstall();
    vi.restoreAllMocks();
  });

  it('counts overlapping GPU waits once: the union of their pending intervals', async () => {
    const device = new fake.scope.GPUDevice();
    const queue = new fake.scope.GPUQueue();
    const a = device.popErrorScope(); // pending from 0
    clock = 10;
    const b = queue.onSubmittedWorkDone(); // from 10
    clock = 30;
    fake.queued[0].resolve('a');
    expect(await a).toBe('a');
    expect(counter.read().gpuWaitMs).toBe(30); // b still pending: counted up to now
    clock = 50;
    fake.queued[1].resolve(undefined);
    await b;
    expect(counter.read().gpuWaitMs).toBe(50); // [0, 50], not 30 + 40
    clock = 60;
    const c = new fake.scope.GPUBuffer(16).mapAsync(1);
    clock = 70;
    fake.queued[2].reject(new Error('lost'));
    await expect(c).rejects.toThrow('lost');
    clock = 100; // no wait pending: the clock moves, the count does not
    expect(counter.read().gpuWaitMs).toBe(60);
  });

  it('advances the CPU clock given at install only over the waits', async () => {
    counter.uninstall();
    let cpu = 0;
    counter = installWebGpuCallCounter(fake.scope, { cpuClock: () => cpu });
    const device = new fake.scope.GPUDevice();
    cpu = 5; // host work before the wait: not counted
    const a = device.popErrorScope();
    cpu = 7;
    expect(counter.read().gpuWaitCpuMs).toBe(2); // pending: counted up to now
    cpu = 9;
    fake.queued[0].resolve(null);
    await a;
    cpu = 20;
    expect(counter.read().gpuWaitCpuMs).toBe(4);
  });

  it('times async pipeline creation as a wait and counts both pipeline kinds', async () => {
    const device = new fake.scope.GPUDevice();
    device.createComputePipeline();
    const p = device.createComputePipelineAsync();
    clock = 5;
    fake.queued[0].resolve({});
    await p;
    expect(counter.read()).toMatchObject({ pipelines: 2, gpuWaitMs: 5 });
  });

  it('counts mapped writes on buffers created mapped or mapped for writing, not read maps', async () => {
    const device = new fake.scope.GPUDevice();
    const created = device.createBuffer({ size: 64, mappedAtCreation: true });
    created.getMappedRange();
    created.getMappedRange(16, 8);
    created.unmap();
    created.getMappedRange(); // no longer mapped for writing: not a write
    const plain = device.createBuffer({ size: 32 });
    const read = plain.mapAsync(1, 0, 12);
    fake.queued[0].resolve(undefined);
    await read;
    plain.getMappedRange();
    plain.unmap();
    const write = plain.mapAsync(2);
    fake.queued[1].resolve(undefined);
    await write;
    plain.getMappedRange(8);
    plain.destroy();
    await flush();
    expect(counter.read()).toMatchObject({ mappedWrites: 3, bytesWrittenMapped: 64 + 8 + 24, bytesWritten: 96, readBacks: 1, bytesReadBack: 12 });
  });

  it("counts writeBuffer's bytes for typed arrays (offsets in elements) and ArrayBuffers (in bytes)", () => {
    const queue = new fake.scope.GPUQueue();
    const write = queue.writeBuffer as (...a: unknown[]) => void;
    write.call(queue, {}, 0, new Float32Array(10));
    write.call(queue, {}, 0, new Float32Array(10), 2, 3);
    write.call(queue, {}, 0, new ArrayBuffer(10), 4);
    expect(counter.read()).toMatchObject({ writes: 3, bytesWritten: 40 + 12 + 6, mappedWrites: 0 });
  });

  it('puts the originals back on uninstall', () => {
    counter.uninstall();
    const other = fakeScope();
    const original = other.scope.GPUQueue.prototype.submit;
    counter = installWebGpuCallCounter(other.scope);
    expect(other.scope.GPUQueue.prototype.submit).not.toBe(original);
    counter.uninstall();
    expect(other.scope.GPUQueue.prototype.submit).toBe(original);
    counter = installWebGpuCallCounter(fake.scope); // for afterEach
  });
});
