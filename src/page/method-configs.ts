/**
 * The methods the page races, and each one's config, derived from the one page config through the
 * method registry (src/methods/registry.ts): every method shares the seed, the task stream and every
 * shared setting, and resets the switches that do not apply to it.
 */
import type { TrainConfig } from '../config.ts';
import { DEFAULT_RACE, methodSpec, type Method } from '../methods/registry.ts';

export const PAGE_METHODS: readonly Method[] = DEFAULT_RACE;

export function methodConfig(method: Method, config: TrainConfig): TrainConfig {
  return methodSpec(method).configFor(config);
}
