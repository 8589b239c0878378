/**
 * `auto` by measurement: the faster backend wins, the reason names the factor, a software adapter is
 * named as such, and a WebGPU probe that overran its deadline loses with an "over N×" bound.
 */
import { describe, expect, it } from 'vitest';
import { chooseBackend, webgpuProbeDeadlineMs } from '../../src/page/backend-choice.ts';

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

  it('a stopped WebGPU probe loses with a lower bound on the factor', () => {
    const out = chooseBackend({ backend: 'wasm', ms: 60 }, { stoppedAfterMs: 6000, software: true, adapterName: 'llvmpipe' });
    expect(out.chosen).toBe('wasm');
    expect(out.reason).toMatch(/^wasm: over 100× faster than this GPU adapter, whose probe was stopped after 6\.0 s \(a software adapter: llvmpipe/);
  });

  it('a backend that failed its probe loses, with the error', () => {
    expect(chooseBackend({ backend: 'wasm', ms: 60 }, { backend: 'webgpu', ms: null, error: 'lost' }).reason).toBe('wasm: WebGPU failed its probe (lost)');
    expect(chooseBackend({ backend: 'wasm', ms: null, error: 'no wasm' }, { backend: 'webgpu', ms: 10 }).chosen).toBe('webgpu');
  });

  it('gives WebGPU at least 6 s and at most 2 minutes', () => {
    expect(webgpuProbeDeadlineMs(null)).toBe(6000);
    expect(webgpuProbeDeadlineMs(1000)).toBe(40_000);
    expect(webgpuProbeDeadlineMs(1e9)).toBe(120_000);
  });
});
