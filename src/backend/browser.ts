/**
 * Browser backend host, for the page and its training worker: WebGPU from `navigator.gpu` (Chromium
 * exposes it in dedicated workers too), wasm binaries bundled by Vite.
 *
 * The `?url` imports make Vite serve the three .wasm files in dev and copy them into `dist/assets`
 * on build, with URLs relative to the bundle (`base: './'`), so the wasm backend works from any base
 * path. Whether the threaded build may load is decided by wasm-threads.ts; among the others tfjs picks
 * SIMD where the browser has it.
 */
import * as tf from '@tensorflow/tfjs-core';
// Static: the wasm backend is part of the worker's own script, not a chunk fetched after it (every
// further fetch is a round trip before the first point; a wasm race, the usual start, needs it first).
import * as wasmBackend from '@tensorflow/tfjs-backend-wasm';
import wasmPlainUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { selectBackend, type BackendChoice, type BackendHost, type BackendOptions, type BackendReport } from './select.ts';
import { planWasmThreads } from './wasm-threads.ts';

/** Set by the test-only `deviceLostNoNewDevice` fault (docs/page-failures.md): WebGPU offers no adapter. */
let withheld: string | null = null;

/** Test hook: from now on this worker's WebGPU selection finds no adapter and says `reason`. */
export function withholdWebGpu(reason: string): void {
  withheld = reason;
}

function browserGpu(): GPU | string {
  if (withheld !== null) return withheld;
  if ('gpu' in navigator && navigator.gpu) return navigator.gpu;
  if (!globalThis.isSecureContext) return 'no WebGPU API: the page is not a secure context (open it over https or on localhost)';
  return 'no WebGPU API: this browser does not expose navigator.gpu (WebGPU disabled or unsupported)';
}

/** Threads the page gave this worker's wasm backend (null: one per core). */
let wasmThreads: number | null = null;
/** The threaded build was chosen for this worker (so a stalled start can drop it). */
let wasmThreaded = false;

/**
 * Sets how many threads the wasm backend of this worker may use, before it initialises. The page runs
 * one worker per method, so each gets its share of the cores: more threads than cores only adds
 * contention.
 */
export function setWasmThreads(threads: number): void {
  wasmThreads = Math.max(1, Math.floor(threads));
}

/** tfjs loads the threaded build when this flag holds (and SIMD does); false forces a single-threaded one. */
const THREADS_FLAG = 'WASM_HAS_MULTITHREAD_SUPPORT';

const browserHost: BackendHost = {
  gpu: browserGpu,
  wasmModule: () => Promise.resolve(wasmBackend),
  configureWasm: (wasm) => {
    wasm.setWasmPaths({
      'tfjs-backend-wasm.wasm': wasmPlainUrl,
      'tfjs-backend-wasm-simd.wasm': wasmSimdUrl,
      'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimdUrl,
    });
    const plan = planWasmThreads(wasmThreads, {
      isolated: globalThis.crossOriginIsolated === true,
      userAgent: navigator.userAgent,
      cores: navigator.hardwareConcurrency || 1,
    });
    wasmThreaded = plan.threaded;
    if (!plan.threaded) tf.env().set(THREADS_FLAG, false);
    wasm.setThreadsCount(plan.threads);
    return plan.note;
  },
  dropWasmThreads: () => {
    if (!wasmThreaded) return false;
    wasmThreaded = false;
    tf.env().set(THREADS_FLAG, false);
    return true;
  },
};

/** Selects and initialises a tfjs backend in the page or a worker (see select.ts for the choice semantics). */
export function initBackend(choice: BackendChoice, options: BackendOptions = {}): Promise<BackendReport> {
  return selectBackend(choice, browserHost, options);
}
