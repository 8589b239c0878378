/**
 * The estimator code a saved run carries: the custom method's engine adds it to every checkpoint as
 * the state part `estimator` (src/engine/custom-advantage-engine.ts), so a run file or an autosave
 * holds the code it was trained with. Pure, so the page can read it without loading tfjs.
 */
import type { PartState } from '../state/state-part.ts';

/** The checkpoint part that holds the estimator's source. */
export const ESTIMATOR_PART = 'estimator';

/** The estimator source a saved state carries, or null (a built-in method's state). */
export function savedEstimatorSource(state: { parts: Record<string, PartState | undefined> }): string | null {
  const json = state.parts[ESTIMATOR_PART]?.json;
  return json !== null && json !== undefined && typeof json === 'object' && !Array.isArray(json) && typeof json.source === 'string' ? json.source : null;
}

/** The code in a panel's saved bytes (a checkpoint per seed), or null when they carry none or are unreadable. */
export async function savedSourceOf(bytes: ArrayBuffer): Promise<string | null> {
  const { decodeSeedCheckpoints } = await import('../trainer/seed-checkpoints.ts');
  try {
    const states = await decodeSeedCheckpoints(bytes.slice(0));
    return states.length ? savedEstimatorSource(states[0]) : null;
  } catch {
    return null;
  }
}
