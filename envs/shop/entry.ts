/** The shop's registry entry (envs/index.ts): its factory and its facts. */
import type { EnvEntry } from '../entry.ts';
import { createShop } from './shop.ts';

export const SHOP: EnvEntry = {
  create: createShop,
  label: 'Shop',
  // No prior size reaches the paper's regime here (`npx tsx bench/sft-calibration.ts --env shop`: 0% at
  // 0, 8, 16, 32, 64, 128, 256 and 512 episodes, 2–3 seeds: imitation has to learn to match words,
  // docs/maths.md §10), so `auto` takes a cheap 64 that lifts partial success.
  priorEpisodes: 64,
  // Not piloted yet: the study's profiles do not run the shop.
  secondsPerKiloStep: {},
  episodeView: 'page',
};
