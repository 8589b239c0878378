/**
 * The settings a visitor's estimator receives: the run's advantage settings (docs/maths.md §3–4: γ, λ,
 * R_ms, normalisation, …) as plain numbers, strings and booleans, with nothing undefined, so they cross
 * a worker boundary as they are.
 */
import type { AdvantageSettings } from '../advantages/types.ts';
import type { EstimatorSettings } from './sandbox-core.ts';

export function estimatorSettings(settings: AdvantageSettings): EstimatorSettings {
  const out: EstimatorSettings = {};
  for (const [k, v] of Object.entries(settings)) if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') out[k] = v;
  return out;
}
