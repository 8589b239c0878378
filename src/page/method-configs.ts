/**
 * Each raced entry's config, derived from the one page config through the method registry
 * (src/methods/registry.ts) and the race entries (src/race/entries.ts): every entry shares the seed,
 * the task stream and every shared setting; its method resets the switches that do not apply to it, and
 * a named variant then overrides its own few settings (the released variant's γ, λ, R_ms, normalisation)
 * for its panel only. Which entries race is the page setting `methods` (page-settings.ts), checked
 * against the same table: the registry and the entry table stay the only lists.
 */
import type { RaceConfig, TrainConfig } from '../config.ts';
import { entryConfig, type RaceEntryName } from '../race/entries.ts';

export function methodConfig(entry: RaceEntryName, config: RaceConfig): TrainConfig {
  return entryConfig(entry, config);
}
