/** The shop's registry entry (envs/index.ts): its factory and its facts. */
import type { EnvEntry } from '../entry.ts';
import { createShop } from './shop.ts';

export const SHOP: EnvEntry = {
  create: createShop,
  label: 'Shop',
  // Long shop tasks need the prior to learn to match words, which takes more passes than the shared
  // sftEpochs (docs/maths.md §9, §10): `npx tsx bench/sft-calibration.ts --env shop --episodes N --seeds 1
  // --sftEpochs E` gave first-iteration success 0% at 256 × 4, 1.6% at 256 × 10, 0% at 128 × 20, 1.6% at
  // 192 × 20 and 14.1% at 256 × 20 (seed 1; 64 evaluation episodes each). Over 5 seeds (`npm run
  // bench:regime -- --env shop`) 256 × 10 starts at 2.5%, the paper's regime, and both methods learn
  // from it over 100 iterations; 256 × 20 starts at 26.6%, well above a few percent.
  priorEpisodes: 256,
  priorEpochs: 10,
  // Not piloted yet: the study's profiles do not run the shop.
  secondsPerKiloStep: {},
  episodeView: 'page',
};
