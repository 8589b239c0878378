/**
 * The move to WebGPU after the background probe: only when WebGPU won, the race is not already on it and
 * not finished; the badge's sentence names the iteration(s) and the measured factor.
 */
import { describe, expect, it } from 'vitest';
import { chooseBackend } from '../../src/page/backend-choice.ts';
import { movedSentence, switchDecision } from '../../src/page/backend-switch.ts';

const gpuWins = chooseBackend({ backend: 'wasm', ms: 310 }, { backend: 'webgpu', ms: 100, adapterName: 'nvidia ampere' });
const wasmWins = chooseBackend({ backend: 'wasm', ms: 50 }, { backend: 'webgpu', ms: 200, adapterName: 'google swiftshader', software: true });

describe('switching backend after the probe', () => {
  it('moves a running wasm race to webgpu when webgpu won', () => {
    expect(switchDecision(gpuWins, 'wasm', false)).toEqual({ move: true, to: 'webgpu' });
    expect(switchDecision(gpuWins, null, false)).toEqual({ move: true, to: 'webgpu' });
  });

  it('stays when wasm won, when already on webgpu, or when the race has finished', () => {
    expect(switchDecision(wasmWins, 'wasm', false)).toEqual({ move: false, why: 'wasm won the probe' });
    expect(switchDecision(gpuWins, 'webgpu', false)).toEqual({ move: false, why: 'already on webgpu' });
    expect(switchDecision(gpuWins, 'wasm', true)).toEqual({ move: false, why: 'the race has finished' });
  });

  it('says where and why it moved', () => {
    expect(movedSentence(gpuWins, [5, 5])).toBe('moved to webgpu at iteration 5: 3.1× faster than wasm on this adapter');
    expect(movedSentence(gpuWins, [4, 6, 5])).toBe('moved to webgpu at iterations 4–6: 3.1× faster than wasm on this adapter');
    const wasmFailed = chooseBackend({ backend: 'wasm', ms: null, error: 'no wasm' }, { backend: 'webgpu', ms: 10 });
    expect(movedSentence(wasmFailed, [0])).toBe('moved to webgpu at iteration 0: wasm failed its probe');
  });
});
