/**
 * bench:gpu's cost model and target checks, by hand-computed figures: FLOPs from the shapes, each
 * term at its stated rate, the total and the dominant term; and each target passing at its bound and
 * failing just past it.
 */
import { describe, expect, it } from 'vitest';
import { COST_MODEL, estimateRealGpuSeconds, forwardFlopsPerStep, formatEstimate, iterationFlops } from '../../bench/gpu-cost-model.ts';
import { type CaseFigures, defaultsChecks, meanFigures, scaleChecks, steadyChecks } from '../../bench/gpu-targets.ts';

describe('cost model arithmetic', () => {
  const shape = { obsDim: 94, actionDim: 33, candidates: 8, hiddenSize: 64 };

  it('counts a forward pass per step: both towers and the scores, multiply-adds as 2', () => {
    // observation 2·(94·64 + 64·64) = 20,224; per candidate 2·(33·64 + 64·64) + 2·64 = 12,544; 8 candidates
    expect(forwardFlopsPerStep(shape)).toBe(20_224 + 8 * 12_544);
  });

  it('counts the rollout once per step and the update as 3 forwards per step per epoch', () => {
    const f = forwardFlopsPerStep(shape);
    const flops = iterationFlops({ ...shape, envSteps: 1000, epochs: 2 });
    expect(flops.rollout).toBe(1000 * f);
    expect(flops.update).toBe(6 * 1000 * f);
    expect(flops.total).toBe(7 * 1000 * f);
  });

  it('prices each term at its stated figure and sums them low and high', () => {
    const e = estimateRealGpuSeconds({
      dispatches: 100,
      readBacks: 2,
      bytesReadBack: 4e6,
      bytesWritten: 8e6,
      hostSeconds: 0.05,
      flops: 2e10,
      serialSeconds: { low: 0.004, high: 0.02 },
    });
    expect(e.terms.calls.low).toBeCloseTo(100 * 24e-6, 12);
    expect(e.terms.calls.high).toBeCloseTo(100 * 95e-6, 12);
    expect(e.terms.readBacks).toEqual({ low: 1e-3, high: 3e-3 });
    expect(e.terms.bus.low).toBeCloseTo(12e6 / 12e9, 12);
    expect(e.terms.arithmetic.low).toBeCloseTo(2e10 / 1e13, 12);
    expect(e.terms.host).toEqual({ low: 0.05, high: 0.05 });
    expect(e.terms.serial).toEqual({ low: 0.004, high: 0.02 });
    expect(e.lowSeconds).toBeCloseTo(0.0024 + 0.001 + 0.001 + 0.002 + 0.004 + 0.05, 12);
    expect(e.highSeconds).toBeCloseTo(0.0095 + 0.003 + 0.001 + 0.002 + 0.02 + 0.05, 12);
    expect(e.dominant).toBe('host');
    expect(COST_MODEL.busBytesPerSecond).toBe(12e9);
  });

  it('names the largest term at the middle of its range as dominant', () => {
    const base = { readBacks: 0, bytesReadBack: 0, bytesWritten: 0, hostSeconds: 0.001, flops: 0, serialSeconds: { low: 0, high: 0 } };
    // 100 dispatches: 2.4–9.5 ms, middle 5.95 ms > host 1 ms
    expect(estimateRealGpuSeconds({ ...base, dispatches: 100 }).dominant).toBe('calls');
    // 1 GB over the bus: 83 ms
    expect(estimateRealGpuSeconds({ ...base, dispatches: 100, bytesWritten: 1e9 }).dominant).toBe('bus');
    // 1 PFLOP: 100 s
    expect(estimateRealGpuSeconds({ ...base, dispatches: 100, bytesWritten: 1e9, flops: 1e15 }).dominant).toBe('arithmetic');
    // A chain of 200 s of dependent operations outweighs all of them.
    expect(estimateRealGpuSeconds({ ...base, dispatches: 100, bytesWritten: 1e9, flops: 1e15, serialSeconds: { low: 100, high: 300 } }).dominant).toBe(
      'serial',
    );
    const line = formatEstimate(estimateRealGpuSeconds({ ...base, dispatches: 100 }));
    expect(line).toMatch(/^real-GPU ESTIMATE: calls 2\.4–9\.5 ms, .*dominant: calls$/);
  });
});

describe('targets of the GPU-native iteration', () => {
  const figures = (over: Partial<CaseFigures> = {}): CaseFigures => ({
    dispatches: 33,
    submits: 10,
    readBacks: 2,
    bytesReadBack: 128 * 1024,
    bytesWritten: 256 * 1024,
    pipelines: 0,
    hostMs: 100,
    hostCpuMs: null,
    ...over,
  });
  const passes = (checks: { pass: boolean }[]) => checks.map((c) => c.pass);

  it('passes the page defaults at the bounds and fails one past each', () => {
    expect(passes(defaultsChecks(figures({ dispatches: 40 })))).toEqual([true, true, true]);
    expect(passes(defaultsChecks(figures({ dispatches: 41, submits: 11, readBacks: 3 })))).toEqual([false, false, false]);
    expect(passes(steadyChecks(figures({ pipelines: 1 })))).toEqual([false]);
  });

  it('reads 4,096 runs against its twin: dispatch and host ratios, bytes per iteration', () => {
    const small = figures({ dispatches: 100, hostMs: 100 });
    expect(passes(scaleChecks(small, figures({ dispatches: 110, hostMs: 150 })))).toEqual([true, true, true, true]);
    const over = scaleChecks(small, figures({ dispatches: 111, hostMs: 151, bytesReadBack: 128 * 1024 + 1, bytesWritten: 256 * 1024 + 1 }));
    expect(passes(over)).toEqual([false, false, false, false]);
    expect(over[0].value).toBe('111 / 100 = 1.11×');
  });

  it("reads the host's growth on main-thread CPU time when both cases have it, else on wall time", () => {
    // Wall time doubled (a loaded machine), CPU time grew 1.2×: the CPU figure decides.
    const small = figures({ hostMs: 100, hostCpuMs: 50 });
    const large = figures({ hostMs: 200, hostCpuMs: 60 });
    const host = scaleChecks(small, large)[3];
    expect(host.pass).toBe(true);
    expect(host.value).toBe('60 / 50 ms main-thread CPU = 1.20× (wall: 200 / 100 ms = 2.00×)');
    expect(scaleChecks(small, figures({ hostMs: 200 }))[3]).toMatchObject({ pass: false, value: '200 / 100 ms wall = 2.00×' });
  });

  it('averages iterations', () => {
    expect(meanFigures([figures({ hostMs: 100 }), figures({ hostMs: 200 })]).hostMs).toBe(150);
    expect(meanFigures([figures({ hostCpuMs: 10 }), figures({ hostCpuMs: 30 })]).hostCpuMs).toBe(20);
    expect(meanFigures([figures({ hostCpuMs: 10 }), figures()]).hostCpuMs).toBeNull();
    expect(() => meanFigures([])).toThrow(RangeError);
  });
});
