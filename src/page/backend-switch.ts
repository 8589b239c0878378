/**
 * Whether a race that started on wasm under `auto` moves to WebGPU once the background probe has spoken,
 * and the sentence the badge shows for it. The race never waits for the probe: it starts on wasm (or on
 * a remembered winner, backend-verdict.ts), and moves at an iteration boundary, continuing from the
 * state each run has (the restore path of a lost GPU device). Pure, so it is tested in Node.
 */
import { type ProbeOutcome, times } from './backend-choice.ts';

export type SwitchDecision = { move: true; to: 'webgpu' } | { move: false; why: string };

/**
 * `current`: the backend the race's workers run on (null while none has reported); `finished`: every
 * run reached its budget (nothing left to speed up).
 */
export function switchDecision(outcome: ProbeOutcome, current: string | null, finished: boolean): SwitchDecision {
  if (outcome.chosen !== 'webgpu') return { move: false, why: 'wasm won the probe' };
  if (current === 'webgpu') return { move: false, why: 'already on webgpu' };
  if (finished) return { move: false, why: 'the race has finished' };
  return { move: true, to: 'webgpu' };
}

/**
 * The badge's sentence after a move: "moved to webgpu at iteration 5: 3.1× faster than wasm on this
 * adapter". `iterations`: where each run continued on the new backend (a range when they differ).
 */
export function movedSentence(outcome: ProbeOutcome, iterations: readonly number[]): string {
  const lo = Math.min(...iterations);
  const hi = Math.max(...iterations);
  const at = iterations.length === 0 ? '' : lo === hi ? ` at iteration ${lo}` : ` at iterations ${lo}–${hi}`;
  const ratio = outcome.wasmMs !== null && outcome.webgpuMs !== null && outcome.webgpuMs > 0 ? outcome.wasmMs / outcome.webgpuMs : null;
  const why =
    ratio !== null
      ? `${times(ratio)} faster than wasm on this adapter`
      : outcome.wasmMs === null
        ? 'wasm failed its probe'
        : 'faster than wasm on this adapter';
  return `moved to webgpu${at}: ${why}`;
}
