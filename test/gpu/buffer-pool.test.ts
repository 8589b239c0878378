/**
 * The buffer pool's rounding agrees with the fused update's refusal (buffer-pool.ts, fused-ppo-batch.ts):
 * a batch the refusal admits gets scratch buffers the device binds whole, also where the binding limit
 * is not a power of two; and a pool gives back what a shrunken batch no longer needs. A fake device with
 * small limits stands in for an adapter's (the limits are all these functions read of it).
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
});
