/** bench/throughput.ts: the spreads the training benches print, what each throughput divides, and the fallbacks they check. */
import { describe, expect, it } from 'vitest';
import { formatSpread, gpuPathFallbacks, GPU_PATH_EXIT, pathLabel, requireGpuPath, spread, throughputOf, withThreads } from '../../bench/throughput.ts';

describe('bench throughput', () => {
  it('gives min / median / max, the median of an even count the mean of the middle two', () => {
    expect(spread([5, 1, 3])).toEqual({ min: 1, median: 3, max: 5, n: 3 });
    expect(spread([4, 1, 3, 2])).toEqual({ min: 1, median: 2.5, max: 4, n: 4 });
    expect(() => spread([])).toThrow(/at least one value/);
    expect(formatSpread(spread([1234.5, 2000, 987654]))).toBe('1,230 / 2,000 / 988,000 (min / median / max of 3)');
  });

  it('divides training env steps by the whole iteration and rollout env steps by the rollout alone', () => {
    const records = [
      { envSteps: 1000, ms: { rollout: 100, advantage: 50, update: 350 } }, // 0.5 s in all
      { envSteps: 3000, ms: { rollout: 200, advantage: 0, update: 600, critic: 200 } }, // 1 s in all
    ];
    const t = throughputOf(records);
    expect(t.training).toEqual({ min: 2000, median: 2500, max: 3000, n: 2 });
    expect(t.rollout).toEqual({ min: 10000, median: 12500, max: 15000, n: 2 });
  });

  it('lists each fallback with its iteration, and names a CPU backend with its threads', () => {
    const records = [{ iteration: 1, fallback: 'update: too big' }, { iteration: 2 }, { iteration: 3, fallback: 'rollout: no kernel; metrics: no records' }];
    expect(gpuPathFallbacks(records)).toEqual(['iteration 1: update: too big', 'iteration 3: rollout: no kernel; metrics: no records']);
    expect(gpuPathFallbacks([{ iteration: 1 }])).toEqual([]);
    expect(requireGpuPath('x', [])).toBe(0);
    expect(GPU_PATH_EXIT).not.toBe(0);
    expect(pathLabel({ path: { rollout: 'gpu', update: 'fused', metrics: 'host' } })).toBe('gpu/fused/host');
    expect(pathLabel({})).toBe('?');
    expect(withThreads({ describe: 'wasm', threads: 1 })).toBe('wasm (1 thread)');
    expect(withThreads({ describe: 'wasm', threads: 4 })).toBe('wasm (4 threads)');
    expect(withThreads({ describe: 'webgpu (x)', threads: null })).toBe('webgpu (x)');
  });
});
