/**
 * `auto` by measurement: given the probe's timings of wasm and of the WebGPU adapter (backend-probe.ts),
 * which backend trains, and the sentence the badge shows for it. Pure, so it is tested in Node.
 */
import type { ProbeTiming } from '../worker/backend-probe.ts';

export interface ProbeOutcome {
  chosen: 'webgpu' | 'wasm';
  /** Timed step on each backend, ms; null where it could not run or was stopped. */
  wasmMs: number | null;
  webgpuMs: number | null;
  /** The WebGPU probe overran its deadline and was stopped (after this many ms). */
  webgpuStoppedAfterMs?: number;
  adapterName?: string;
  /** The adapter runs WebGPU on the CPU (SwiftShader, llvmpipe, a fallback adapter). */
  software: boolean;
  /** Why: "wasm: 4× faster than this GPU adapter". */
  reason: string;
}

/**
 * How long the WebGPU probe may take, given wasm's timed step: long enough for a real GPU's first
 * shader compilations, short enough that a software adapter cannot hold up the page's start.
 */
export function webgpuProbeDeadlineMs(wasmMs: number | null): number {
  return Math.min(120_000, Math.max(6000, 40 * (wasmMs ?? 0)));
}

/** A speed ratio as the badge writes it: "3.1×", "30×". */
export function times(ratio: number): string {
  return ratio >= 10 ? `${Math.round(ratio)}×` : `${ratio.toFixed(1)}×`;
}

/** Picks the faster backend; `webgpu` is a timing, or the deadline it overran. */
export function chooseBackend(wasm: ProbeTiming, webgpu: ProbeTiming | { stoppedAfterMs: number; adapterName?: string; software?: boolean }): ProbeOutcome {
  const software = webgpu.software === true;
  const adapter = webgpu.adapterName;
  const soft = software ? ` (a software adapter${adapter ? `: ${adapter}` : ''}: WebGPU runs on the CPU)` : '';
  const base = { wasmMs: wasm.ms, software, ...(adapter !== undefined ? { adapterName: adapter } : {}) };
  if ('stoppedAfterMs' in webgpu) {
    const ratio = wasm.ms ? webgpu.stoppedAfterMs / wasm.ms : NaN;
    return {
      ...base,
      chosen: 'wasm',
      webgpuMs: null,
      webgpuStoppedAfterMs: webgpu.stoppedAfterMs,
      reason: `wasm: ${Number.isFinite(ratio) ? `over ${times(ratio)} faster than this GPU adapter` : 'faster than this GPU adapter'}, whose probe was stopped after ${(webgpu.stoppedAfterMs / 1000).toFixed(1)} s${soft}`,
    };
  }
  const out = { ...base, webgpuMs: webgpu.ms };
  if (webgpu.ms === null) return { ...out, chosen: 'wasm', reason: `wasm: WebGPU failed its probe (${webgpu.error ?? 'unknown error'})${soft}` };
  if (wasm.ms === null) return { ...out, chosen: 'webgpu', reason: `webgpu: wasm failed its probe (${wasm.error ?? 'unknown error'})${soft}` };
  if (wasm.ms < webgpu.ms) return { ...out, chosen: 'wasm', reason: `wasm: ${times(webgpu.ms / wasm.ms)} faster than this GPU adapter${soft}` };
  return { ...out, chosen: 'webgpu', reason: `webgpu: ${times(wasm.ms / webgpu.ms)} faster than wasm${soft}` };
}
