/**
 * Paces the Node main thread while a GPU promise is pending (Node only; node-webgpu.ts installs it).
 *
 * Dawn's Node binding resolves its promises by polling: while any is pending, its AsyncRunner queues a
 * `setImmediate` tick after tick, each with a new native function (its source says "TODO: Create once,
 * reuse"). With nothing else to do the event loop spins through those ticks as fast as it can, so a GPU
 * wait holds a core at 100% and makes garbage at about 80 MB/s (measured with V8's sampling heap
 * profiler: nearly all of an iteration's allocation). On a software adapter the spinning thread takes a
 * core from the device's own worker threads, and the garbage brings a major collection every few
 * seconds whose pauses (up to 90 ms on the main thread) land in the host's own work, more of them the
 * longer the waits, so the host looked slower at 4,096 runs than at 64 for work that does not grow.
 *
 * Once a wait has lasted PACE_AFTER_MS, each turn of the event loop sleeps PACE_SLEEP_MS (Atomics.wait,
 * off the CPU), so the binding ticks at most a few thousand times a second instead of hundreds of
 * thousands: a promise settles at most PACE_SLEEP_MS later than it would have, and a short wait (a real
 * GPU's, at the page defaults) is not paced at all. Browsers resolve GPU promises without polling.
 */
import { GPU_PROMISE_METHODS } from './webgpu-call-counter.ts';

/** A wait shorter than this is not paced. */
export const PACE_AFTER_MS = 2;
/** How long each turn of the event loop sleeps while a longer wait lasts. */
export const PACE_SLEEP_MS = 0.5;

type Method = (...args: unknown[]) => unknown;
const PACED = Symbol.for('beacon.gpuWaitPaced');

/** What the pacer is doing and has done (for tests). */
export interface PacerState {
  /** GPU promises pending now. */
  pending: number;
  /** Event-loop turns slept through so far. */
  sleeps: number;
}

const state: PacerState = { pending: 0, sleeps: 0 };
let waitStarted = 0;
let turning = false;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function turn(): void {
  if (state.pending === 0) {
    turning = false;
    return;
  }
  if (performance.now() - waitStarted >= PACE_AFTER_MS) {
    Atomics.wait(sleeper, 0, 0, PACE_SLEEP_MS);
    state.sleeps++;
  }
  setImmediate(turn);
}

function track(result: unknown): unknown {
  if (typeof (result as PromiseLike<unknown> | undefined)?.then !== 'function') return result;
  if (state.pending++ === 0) waitStarted = performance.now();
  if (!turning) {
    turning = true;
    setImmediate(turn);
  }
  const settle = () => void state.pending--;
  (result as PromiseLike<unknown>).then(settle, settle);
  return result;
}

/**
 * Wraps the promise methods (GPU_PROMISE_METHODS) of the GPU* classes in `scope` (Dawn's globals) so that their pending
 * promises pace the event loop. Idempotent per prototype.
 */
export function paceGpuWaits(scope: object): void {
  for (const [className, method] of GPU_PROMISE_METHODS) {
    const proto = (scope as Record<string, { prototype?: Record<string | symbol, unknown> } | undefined>)[className]?.prototype;
    const original = proto?.[method];
    if (!proto || typeof original !== 'function' || (original as { [PACED]?: true })[PACED]) continue;
    const paced = function (this: unknown, ...args: unknown[]) {
      return track((original as Method).apply(this, args));
    };
    Object.defineProperty(paced, PACED, { value: true });
    proto[method] = paced;
  }
}

/** The pacer's counts (a copy). */
export function pacerState(): PacerState {
  return { ...state };
}
