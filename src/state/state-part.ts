/**
 * What a checkpoint saves of a run, part by part (the contract, without tfjs): a `StatePart` saves and
 * restores its state as JSON-safe values plus named float32 arrays, so the checkpoint format
 * (src/trainer/checkpoint.ts) stores any part without knowing what it is. The trainer's parts (weights,
 * optimisers: src/trainer/state-parts.ts) and an engine's (the custom method's code:
 * src/engine/custom-advantage-engine.ts) implement it.
 */
export interface SavedArray {
  shape: number[];
  values: Float32Array;
}

/** JSON-safe values. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface PartState {
  json: Json;
  arrays: Record<string, SavedArray>;
}

export interface StatePart {
  /** A copy of the part's state (never a view of a backend buffer that a later step could overwrite). */
  save(): Promise<PartState>;
  /** Puts `state` in place; throws a `StateError` naming what does not fit. */
  load(state: PartState): Promise<void>;
}

/** A saved state that does not fit the run it is restored into. */
export class StateError extends Error {}
