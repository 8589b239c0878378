/**
 * The buffer pool's rounding agrees with the fused update's refusal (buffer-pool.ts, fused-ppo-batch.ts):
 * a batch the refusal admits gets scratch buffers the device binds whole, also where the binding limit
 * is not a power of two; and a pool gives back what a shrunken batch, a batch of another size or an
 * ended race no longer needs. A fake device with small limits stands in for an adapter's (the limits
 * are all these functions read of it).
 */
import { describe, expect, it } from 'vitest';
import { bindableBytes, GpuBufferPool, scratchBytes } from '../../src/gpu/buffer-pool.ts';
import { fusedPpoRefusal, workFloats } from '../../src/gpu/fused-ppo-batch.ts';

/** A device whose buffers are plain objects: its limits, and the buffers made and destroyed. */
function fakeDevice(maxStorageBufferBindingSize: number, maxBufferSize = 1 << 30) {
  const live = new Set<{ size: number }>();
  const device = {
    limits: { maxStorageBufferBindingSize, maxBufferSize },
    createBuffer({ size, usage }: GPUBufferDescriptor) {
      const buffer = { size, usage, destroy: () => live.delete(buffer) };
      live.add(buffer);
      return buffer;
    },
  };
  return { device: device as unknown as GPUDevice, live };
}

const SCRATCH = 0x80 | 0x8; // STORAGE | COPY_DST: the pool only compares usages

describe('the buffer pool and the refusal', () => {
  it('never rounds a request the limit admits past the limit (power of two or not)', () => {
    for (const limit of [1000, 1024, 2 ** 31 - 4]) {
      const cap = bindableBytes({ maxStorageBufferBindingSize: limit, maxBufferSize: 2 ** 32 });
      expect(cap).toBe(limit);
      for (const bytes of [4, limit / 2 - 4, limit / 2, limit / 2 + 4, limit - 4, limit]) {
        const size = scratchBytes(bytes, cap);
        expect(size, `${bytes} of ${limit}`).toBeGreaterThanOrEqual(bytes);
        expect(size, `${bytes} of ${limit}`).toBeLessThanOrEqual(limit);
      }
    }
    // The rounding itself is unchanged below the limit: batches of nearby sizes share a buffer.
    expect(scratchBytes(300, 1000)).toBe(512);
    expect(scratchBytes(600, 2048)).toBe(1024);
    // The smaller of the two limits binds.
    expect(bindableBytes({ maxStorageBufferBindingSize: 4096, maxBufferSize: 1002 })).toBe(1000);
  });

  it("admits exactly the fused update's work buffers the pool then makes within the binding limit, between half the limit and the limit", () => {
    const limit = 100_000; // not a power of two: a rounded 131,072-byte buffer would fail validation
    const { device } = fakeDevice(limit);
    const pool = new GpuBufferPool(device, 'test');
    const shape = { obsDim: 4, actionDim: 3, hiddenSize: 8, numActions: 4 };
    const K = 50;
    let admittedOverHalf = 0;
    let refused = 0;
    for (let M = 1; M <= 2000; M += 7) {
      const bytes = 4 * workFloats(M, K, shape.hiddenSize, shape.numActions);
      // The other buffers stay small: the work buffer decides.
      const refusal = fusedPpoRefusal(shape, 64, K, 1, M, device);
      if (bytes <= limit) {
        expect(refusal, `work ${bytes} bytes`).toBeNull();
        const buffer = pool.scratchBuffer('work', bytes, SCRATCH);
        expect(buffer.size).toBeGreaterThanOrEqual(bytes);
        expect(buffer.size, `work ${bytes} bytes`).toBeLessThanOrEqual(limit);
        if (bytes > limit / 2) admittedOverHalf++;
      } else {
        expect(refusal).toMatch(new RegExp(`work buffer \\(${bytes} bytes\\) is over the adapter's binding limit \\(${limit} bytes\\)`));
        refused++;
      }
    }
    expect(admittedOverHalf, 'sizes between half the limit and the limit must be tried').toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(0);
    pool.destroy();
  });

  it('gives back what a shrunken batch no longer needs, and trims its scratch buffers on request', () => {
    const { device, live } = fakeDevice(1 << 24);
    const pool = new GpuBufferPool(device, 'test');
    const big = pool.scratchBuffer('work', 1_000_000, SCRATCH);
    expect(big.size).toBe(2 ** 20);
    // A little smaller: the same buffer (no churn between batches of nearby sizes).
    expect(pool.scratchBuffer('work', 400_000, SCRATCH)).toBe(big);
    // Over four times smaller: a buffer its size, the big one destroyed.
    const small = pool.scratchBuffer('work', 10_000, SCRATCH);
    expect(small.size).toBe(16_384);
    expect(live.has(big as unknown as { size: number })).toBe(false);
    expect(pool.liveBytes).toBe(16_384);
    pool.scratchBuffer('other', 100, SCRATCH);
    expect(pool.liveBuffers).toBe(2);
    pool.trim();
    expect([pool.liveBuffers, pool.liveBytes, live.size]).toEqual([0, 0, 0]);
    // Still usable after a trim.
    expect(pool.scratchBuffer('work', 10_000, SCRATCH).size).toBe(16_384);
    pool.destroy();
    expect(live.size).toBe(0);
  });

  it('keeps no free output of a size no batch asks for any more, and a trim takes the outputs of ended loans', () => {
    const { device, live } = fakeDevice(1 << 24);
    const pool = new GpuBufferPool(device, 'test');
    const OUTPUT = 0x80 | 0x4; // STORAGE | COPY_SRC
    const OTHER = 0x80 | 0x8;
    const isLive = (b: GPUBuffer) => live.has(b as unknown as { size: number });
    // One output per batch, its size the batch's steps, lent until its tensor is gone (`end`).
    const batch = (bytes: number, usage = OUTPUT) => {
      pool.reclaim();
      const buffer = pool.acquireOutput(bytes, usage);
      const loan = { buffer, ended: false, end: () => (loan.ended = true) };
      pool.lend(buffer, () => loan.ended);
      return loan;
    };
    const first = batch(4000);
    first.end();
    // The same size again: the same buffer.
    let last = batch(4000);
    expect(last.buffer).toBe(first.buffer);
    // Batches of varying sizes: each finds none of its size, and the free one of the old size goes,
    // so the pool holds one output, not a list filling with stale sizes.
    for (const bytes of [4004, 3992, 4100, 3880, 4012]) {
      last.end();
      last = batch(bytes);
      expect(last.buffer.size).toBe(bytes);
      expect([pool.liveBuffers, pool.liveBytes], `after a batch of ${bytes} bytes`).toEqual([1, bytes]);
    }
    last.end();
    // A free output of another usage is not this request's to drop.
    const other = batch(256, OTHER);
    other.end();
    batch(512).end();
    expect(isLive(other.buffer)).toBe(true);
    // A loan still running stays with its tensor through a trim; the ended ones' outputs are destroyed.
    const running = batch(64);
    pool.trim();
    expect([pool.liveBuffers, pool.lentBuffers, pool.liveBytes]).toEqual([1, 1, 64]);
    expect(isLive(running.buffer)).toBe(true);
    running.end();
    pool.trim();
    expect([pool.liveBuffers, live.size]).toEqual([0, 0]);
    pool.destroy();
  });
});
