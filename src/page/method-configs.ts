/**
 * Each raced method's config, derived from the one page config through the method registry
 * (src/methods/registry.ts): every method shares the seed, the task stream and every shared setting, and
 * resets the switches that do not apply to it. Which methods race is the page setting `methods`
 * (page-settings.ts), checked against the registry: the registry stays the only list of methods.
 */
import type { TrainConfig } from '../config.ts';
import { methodSpec, type Method } from '../methods/registry.ts';

export function methodConfig(method: Method, config: TrainConfig): TrainConfig {
  return methodSpec(method).configFor(config);
}
