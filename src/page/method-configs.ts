/**
 * The two trainers' configs, derived from the one page config.
 *
 * Both trainers share the seed, the task stream and every shared setting. The BEACON ablation switches
 * (trajectory term off, random segments, milestone dropout) change BEACON only: the GRPO panel always
 * shows the plain baseline it is compared with, as in the paper's ablation table (docs/maths.md §6).
 */
import type { TrainConfig } from '../config.ts';
import type { Method } from '../advantages/types.ts';

export const PAGE_METHODS = ['grpo', 'beacon'] as const satisfies readonly Method[];

export function beaconConfig(config: TrainConfig): TrainConfig {
  return { ...config, method: 'beacon' };
}

export function grpoConfig(config: TrainConfig): TrainConfig {
  return { ...config, method: 'grpo', trajectoryTerm: true, randomSegments: false, milestoneDropout: 0 };
}

export function methodConfig(method: Method, config: TrainConfig): TrainConfig {
  return method === 'grpo' ? grpoConfig(config) : beaconConfig(config);
}
