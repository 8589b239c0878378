/**
 * `auto` by measurement: given the probe's timings of wasm and of the WebGPU adapter (backend-probe.ts),
 * which backend trains, and the sentence the badge shows for it. Pure, so it is tested in Node.
 */
import type { ProbeTiming } from '../worker/backend-probe.ts';
import { PROBE_TIMED_ITERATIONS as TIMED_ITERATIONS } from '../race/probe-iterations.ts';
/** How long a backend's warm-up (worker start, device, first compilation, one iteration) may take. */
export const PROBE_WARMUP_DEADLINE_MS = 120_000;

export interface ProbeOutcome {
  chosen: 'webgpu' | 'wasm';
  /** Timed step on each backend, ms; null where it could not run or was stopped. */
  wasmMs: number | null;
  webgpuMs: number | null;
  /** The WebGPU probe overran its deadline and was stopped (after this many ms). */
  webgpuStoppedAfterMs?: number;
  /** Which part overran: the warm-up, or the timed iterations (the default, for verdicts stored before). */
  webgpuStoppedIn?: 'warm-up' | 'timed';
  /** What was measured, for the badge: "a steady iteration of this race (…): wasm 140 ms, WebGPU 38 ms". */
  measured?: string;
  /** When it was measured (ms since the epoch): a verdict is measured again after VERDICT_MAX_AGE_MS. */
  measuredAt?: number;
  adapterName?: string;
  /** The adapter runs WebGPU on the CPU (SwiftShader, llvmpipe, a fallback adapter). */
  software: boolean;
  /** Why: "wasm: 4× faster than this GPU adapter". */
  reason: string;
}

/**
 * How long WebGPU's timed iterations may take, given wasm's steady iteration: the deadline starts after
 * the warm-up (compilation is not timed), and stops a software adapter 40× slower than wasm.
 */
export function webgpuProbeDeadlineMs(wasmMs: number | null): number {
  return Math.min(120_000, Math.max(6000, 40 * TIMED_ITERATIONS * (wasmMs ?? 0)));
}

/** A stopped probe: after how long, in which part, on which adapter. */
export interface StoppedProbe {
  stoppedAfterMs: number;
  stoppedIn: 'warm-up' | 'timed';
  adapterName?: string;
  software?: boolean;
}

/** A speed ratio as the badge writes it: "3.1×", "30×". */
export function times(ratio: number): string {
  return ratio >= 10 ? `${Math.round(ratio)}×` : `${ratio.toFixed(1)}×`;
}

/** Picks the faster backend; `webgpu` is a timing, or the deadline it overran. */
export function chooseBackend(wasm: ProbeTiming, webgpu: ProbeTiming | StoppedProbe): ProbeOutcome {
  const software = webgpu.software === true;
  const adapter = webgpu.adapterName;
  const soft = software ? ` (a software adapter${adapter ? `: ${adapter}` : ''}: WebGPU runs on the CPU)` : '';
  const base = { wasmMs: wasm.ms, software, ...(adapter !== undefined ? { adapterName: adapter } : {}) };
  if ('stoppedAfterMs' in webgpu) {
    const after = `${(webgpu.stoppedAfterMs / 1000).toFixed(1)} s`;
    const stopped = { ...base, chosen: 'wasm' as const, webgpuMs: null, webgpuStoppedAfterMs: webgpu.stoppedAfterMs, webgpuStoppedIn: webgpu.stoppedIn };
    if (webgpu.stoppedIn === 'warm-up')
      return { ...stopped, reason: `wasm: this GPU adapter's warm-up iteration (device, shader compilation) was stopped after ${after}${soft}` };
    // Not one of the timed iterations fitted: their mean is over a third of the deadline each.
    const ratio = wasm.ms ? webgpu.stoppedAfterMs / TIMED_ITERATIONS / wasm.ms : NaN;
    return {
      ...stopped,
      reason: `wasm: ${Number.isFinite(ratio) ? `over ${times(ratio)} faster than this GPU adapter` : 'faster than this GPU adapter'}, whose ${TIMED_ITERATIONS} timed iterations were stopped after ${after}${soft}`,
    };
  }
  const out = { ...base, webgpuMs: webgpu.ms };
  if (webgpu.ms === null) return { ...out, chosen: 'wasm', reason: `wasm: WebGPU failed its probe (${webgpu.error ?? 'unknown error'})${soft}` };
  if (wasm.ms === null) return { ...out, chosen: 'webgpu', reason: `webgpu: wasm failed its probe (${wasm.error ?? 'unknown error'})${soft}` };
  if (wasm.ms < webgpu.ms) return { ...out, chosen: 'wasm', reason: `wasm: ${times(webgpu.ms / wasm.ms)} faster than this GPU adapter${soft}` };
  return { ...out, chosen: 'webgpu', reason: `webgpu: ${times(wasm.ms / webgpu.ms)} faster than wasm${soft}` };
}

/** A duration as the badge writes it: "140 ms", "1.4 s". */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * What the probe measured, for the badge: "a steady iteration of this race (gridhouse, short horizon, 8 × 8
 * runs, width 64): wasm 140 ms, WebGPU 38 ms". `workload` names the race (empty: left out).
 */
export function measuredSentence(outcome: ProbeOutcome, workload: string): string {
  const what = `a steady iteration of this race${workload ? ` (${workload})` : ''}, the median of ${TIMED_ITERATIONS} after a warm-up`;
  const wasm = outcome.wasmMs !== null ? `wasm ${duration(outcome.wasmMs)}` : 'wasm failed';
  const stoppedAt = outcome.webgpuStoppedAfterMs;
  const webgpu =
    outcome.webgpuMs !== null
      ? `WebGPU ${duration(outcome.webgpuMs)}`
      : stoppedAt === undefined
        ? 'WebGPU failed'
        : outcome.webgpuStoppedIn === 'warm-up'
          ? `WebGPU's warm-up stopped after ${duration(stoppedAt)}`
          : `WebGPU over ${duration(stoppedAt / TIMED_ITERATIONS)} (stopped after ${duration(stoppedAt)})`;
  return `${what}: ${wasm}, ${webgpu}`;
}

/** The race's workload in a few words, for `measuredSentence`: "gridhouse, short horizon, 8 × 8 runs, width 64". */
export function workloadWords(config: { env: string; horizon: string; tasksPerIteration: number; groupSize: number; hiddenSize: number }): string {
  return `${config.env}, ${config.horizon} horizon, ${config.tasksPerIteration} × ${config.groupSize} runs, width ${config.hiddenSize}`;
}
