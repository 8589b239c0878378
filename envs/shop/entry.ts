/** The shop's registry entry (envs/index.ts): its factory and its facts. */
import type { EnvEntry } from '../entry.ts';
import { createShop } from './shop.ts';

export const SHOP: EnvEntry = {
  create: createShop,
  label: 'Shop',
  // Long shop tasks need the prior to learn to match words, which takes more passes than the shared
  // sftEpochs (docs/maths.md §9, §10). `npx tsx bench/sft-calibration.ts --env shop --episodes 256
  // --seeds 5 --sftEpochs E` (first-iteration success, 64 evaluation episodes per seed, seeds 1–5):
  // 256 × 10 → 2.5% (2, 0, 6, 3, 2), 256 × 11 → 5.0% (6, 2, 9, 8, 0), 256 × 12 → 7.2% (6, 2, 14, 9, 5),
  // 256 × 14 → 14.4% (6, 8, 27, 25, 6); earlier, seed 1 only: 0% at 256 × 4, 0% at 128 × 20, 1.6% at
  // 192 × 20, 14.1% at 256 × 20. 256 × 11 starts at a few percent, the paper's regime; the regime that
  // follows is in docs/results/regime-shop.json (`npm run bench:regime -- --env shop`).
  priorEpisodes: 256,
  priorEpochs: 11,
  // Not piloted yet: the study's profiles do not run the shop.
  secondsPerKiloStep: {},
  episodeView: 'page',
};
