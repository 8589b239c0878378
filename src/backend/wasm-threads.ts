/**
 * Whether a worker's wasm backend loads tfjs's threaded build, and with how many threads.
 *
 * The threaded build (tfjs-backend-wasm-threaded-simd) is Emscripten with pthreads: when it loads it
 * starts a pool of 8 helper workers inside our training worker and resolves only once all 8 have loaded
 * the module, whatever thread count is asked for. That costs 8 nested workers per raced method, and it
 * buys nothing when a worker's share of the cores is one thread. In Firefox (ESR 153, isolated pages)
 * that start stalls: with two training workers spawning their pools at once, some helpers never report
 * loaded, or `new Worker` itself blocks the training worker, so the backend never finishes initialising
 * and the page stays at "Starting…". The single-threaded build (plain or SIMD, tfjs picks) starts no
 * helper worker and runs the same kernels.
 */

export interface WasmThreadPlan {
  /** Load the threaded build (pthreads); false: the single-threaded build. */
  threaded: boolean;
  /** Threads for XNNPACK's pool (1 when not threaded). */
  threads: number;
  /** Why threads that were wanted are not used, for the badge; absent when nothing was given up. */
  note?: string;
}

export interface WasmThreadEnvironment {
  /** `crossOriginIsolated`: SharedArrayBuffer, hence pthreads, exists only then. */
  isolated: boolean;
  userAgent: string;
  /** `navigator.hardwareConcurrency`, used when the page did not say how many threads this worker gets. */
  cores: number;
}

/** Gecko (Firefox and its forks) names itself "Gecko/<date>"; Chromium and WebKit say "like Gecko". */
export function isGecko(userAgent: string): boolean {
  return /\bGecko\/\d/.test(userAgent) && !/like Gecko/.test(userAgent);
}

/** One sentence for the badge: why the wasm backend runs on one thread though more were wanted. */
export const GECKO_THREADS_NOTE =
  'wasm runs on one thread: in Firefox the threaded wasm build, which starts 8 helper workers inside each training worker, stalls on start';

/**
 * The plan for a worker that may use `wanted` threads (null: one per core). Threads only when the page
 * is cross-origin isolated, more than one thread is wanted, and the browser starts the helper pool.
 */
export function planWasmThreads(wanted: number | null, env: WasmThreadEnvironment): WasmThreadPlan {
  const threads = Math.max(1, Math.floor(wanted ?? env.cores ?? 1));
  // Not isolated: no SharedArrayBuffer, tfjs would load the single-threaded build anyway.
  if (!env.isolated || threads <= 1) return { threaded: false, threads: 1 };
  if (isGecko(env.userAgent)) return { threaded: false, threads: 1, note: GECKO_THREADS_NOTE };
  return { threaded: true, threads };
}
