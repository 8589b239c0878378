/**
 * `auto` by measurement: the faster backend wins, the reason names the factor, a software adapter is
 * named as such, and a WebGPU probe that overran its deadline loses with an "over N×" bound.
 */
import { describe, expect, it } from 'vitest';
import { chooseBackend, measuredSentence, webgpuProbeDeadlineMs, workloadWords } from '../../src/page/backend-choice.ts';

describe('backend choice by measurement', () => {
  it('picks wasm when the adapter is slower, and says by how much', () => {
    const out = chooseBackend({ backend: 'wasm', ms: 50 }, { backend: 'webgpu', ms: 200, adapterName: 'google swiftshader', software: true });
    expect(out.chosen).toBe('wasm');
    expect(out.reason).toBe('wasm: 4.0× faster than this GPU adapter (a software adapter: google swiftshader: WebGPU runs on the CPU)');
    expect(out).toMatchObject({ wasmMs: 50, webgpuMs: 200, software: true });
  });

  it('picks webgpu when it is faster', () => {
    const out = chooseBackend({ backend: 'wasm', ms: 900 }, { backend: 'webgpu', ms: 30, adapterName: 'nvidia ampere' });
    expect(out.chosen).toBe('webgpu');
    expect(out.reason).toBe('webgpu: 30× faster than wasm');
  });

  it('a WebGPU probe stopped in its timed part loses with a lower bound on the factor; one stopped in its warm-up says so', () => {
    const out = chooseBackend({ backend: 'wasm', ms: 20 }, { stoppedAfterMs: 6000, stoppedIn: 'timed', software: true, adapterName: 'llvmpipe' });
    expect(out.chosen).toBe('wasm');
    // 3 timed iterations in over 6 s: over 2 s each on average, against wasm's 20 ms.
    expect(out.reason).toMatch(
      /^wasm: over 100× faster than this GPU adapter, whose 3 timed iterations were stopped after 6\.0 s \(a software adapter: llvmpipe/,
    );
    expect(measuredSentence(out, '')).toBe(
      'a steady iteration of this race, the median of 3 after a warm-up: wasm 20 ms, WebGPU over 2.0 s (stopped after 6.0 s)',
    );
    const warm = chooseBackend({ backend: 'wasm', ms: 20 }, { stoppedAfterMs: 120_000, stoppedIn: 'warm-up' });
    expect(warm.reason).toBe("wasm: this GPU adapter's warm-up iteration (device, shader compilation) was stopped after 120.0 s");
    expect(measuredSentence(warm, '')).toMatch(/WebGPU's warm-up stopped after 120\.0 s$/);
  });

  it('says what was measured: a steady iteration of this race on each backend', () => {
    const out = chooseBackend({ backend: 'wasm', ms: 140 }, { backend: 'webgpu', ms: 38.2 });
    const words = workloadWords({ env: 'gridhouse', horizon: 'short', tasksPerIteration: 8, groupSize: 8, hiddenSize: 64 });
    expect(measuredSentence(out, words)).toBe(
      'a steady iteration of this race (gridhouse, short horizon, 8 × 8 runs, width 64), the median of 3 after a warm-up: wasm 140 ms, WebGPU 38 ms',
    );
    expect(measuredSentence(chooseBackend({ backend: 'wasm', ms: 1400 }, { backend: 'webgpu', ms: null, error: 'x' }), '')).toMatch(
      /wasm 1\.4 s, WebGPU failed$/,
    );
  });

  it('a backend that failed its probe loses, with the error', () => {
    expect(chooseBackend({ backend: 'wasm', ms: 60 }, { backend: 'webgpu', ms: null, error: 'lost' }).reason).toBe('wasm: WebGPU failed its probe (lost)');
    expect(chooseBackend({ backend: 'wasm', ms: null, error: 'no wasm' }, { backend: 'webgpu', ms: 10 }).chosen).toBe('webgpu');
  });

  it("gives WebGPU's timed iterations 40× wasm's, at least 6 s and at most 2 minutes", () => {
    expect(webgpuProbeDeadlineMs(null)).toBe(6000);
    expect(webgpuProbeDeadlineMs(100)).toBe(12_000);
    expect(webgpuProbeDeadlineMs(1e9)).toBe(120_000);
  });
});
