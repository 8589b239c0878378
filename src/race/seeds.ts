/**
 * Seed i of a race started at `seed` is `seed + i`, the same numbering the study uses for its seeds
 * (src/study/matrix.ts), so seed s of a method on the page is exactly the single-seed run of seed s.
 * The page (src/page/seeds.ts, which combines the seeds' records) and the training worker both read it.
 */
import type { TrainConfig } from '../config.ts';

/** The seeds a race of `count` seeds starting at `first` trains, in order. */
export function seedList(first: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => first + i);
}

/** The page config of each seed: the same settings, only the seed differs. */
export function seedConfigs<C extends Pick<TrainConfig, 'seed'>>(config: C, count: number): C[] {
  return seedList(config.seed, count).map((seed) => ({ ...config, seed }));
}
