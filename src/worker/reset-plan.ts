/**
 * The rebuilds a training loop (training-loop.ts) plans besides the page's own resets: after a lost
 * device, for a `move` to another backend, and after a fault of WebGPU. Each continues the run from
 * its last completed iteration's state; a page reset not yet done keeps its own starting point and only
 * takes what the event changes (a forced backend selection, or the backend itself). Pure: the loop
 * hands over where the run stands and gets the rebuild to do.
 */
import type { RaceConfig } from '../config.ts';
import type { PolicyWeights } from '../policy/policy.ts';
import type { RunState } from '../trainer/checkpoint.ts';

/**
 * A rebuild to do. `checkpoint`: bytes of a saved run to continue (from the page); `state`: the state
 * to continue after a device loss, a move or a GPU fault (the last completed iteration's, kept in
 * memory), one per seed.
 */
export interface PendingReset {
  config: RaceConfig;
  running: boolean;
  /** Select the backend anew even if it is current (after a device loss). */
  force: boolean;
  prior?: PolicyWeights | null;
  extraSeeds?: (PolicyWeights | null)[];
  checkpoint?: ArrayBuffer | null;
  state?: RunState[] | null;
  /** Why the run leaves WebGPU for this rebuild (a GPU fault), announced with the new backend. */
  fallback?: string;
}

/** Where a run stands: what a rebuild that continues it needs. */
export interface RunPosition {
  config: RaceConfig;
  /** Whether the page last asked to run. */
  wanted: boolean;
  prior: PolicyWeights | null | undefined;
  extraSeeds: (PolicyWeights | null)[] | undefined;
  /** Every seed's state after the last completed iteration. */
  lastState: RunState[] | null;
}

const continuing = (at: RunPosition, config: RaceConfig): PendingReset => ({
  config,
  running: at.wanted,
  force: false,
  prior: at.prior,
  extraSeeds: at.extraSeeds,
  state: at.lastState,
});

/** After a lost device: the same run on a newly selected backend (forced). */
export function resetAfterDeviceLoss(pending: PendingReset | null, at: RunPosition): PendingReset {
  if (pending) return { ...pending, force: true };
  return { ...continuing(at, at.config), force: true };
}

/** A `move` to `to` (at an iteration boundary): null when there is nothing to do. */
export function resetForMove(pending: PendingReset | null, at: RunPosition, to: 'webgpu' | 'wasm'): PendingReset | null {
  if (pending) return { ...pending, config: { ...pending.config, backend: to } };
  if (at.config.backend === to) return null;
  return continuing(at, { ...at.config, backend: to });
}

/** After a fault of WebGPU (`reason`): the same run on wasm, saying why. */
export function resetAfterGpuFault(pending: PendingReset | null, at: RunPosition, reason: string): PendingReset {
  if (pending) return { ...pending, config: { ...pending.config, backend: 'wasm' }, fallback: reason };
  return { ...continuing(at, { ...at.config, backend: 'wasm' }), fallback: reason };
}
