/**
 * The page's defaults: the training settings a visitor gets when the URL says nothing.
 *
 * They differ from the CLI's defaults (src/config.ts) only where the page needs the difference between
 * GRPO and BEACON to show within a few minutes on an ordinary laptop. This is the one place to change
 * them; the URL codec treats these values as "default" (they are left out of a shared link).
 */
import { DEFAULT_CONFIG, raceConfigOf, type RaceConfig, type TrainConfig } from '../config.ts';

/**
 * Overrides on `DEFAULT_CONFIG` for the page. Change these after measuring.
 *
 * Measured with `npm run bench:regime` (these settings, the auto SFT prior, wasm, 5 seeds, 30
 * iterations; docs/results/regime.json): on `long` GridHouse both methods start at 2–6% success; BEACON
 * reaches 60% at iteration 7–8 and ~99%, GRPO at 12–16 (one seed of five never starts) and ~75%. On
 * TextHouse BEACON reaches 60% at 13–18, GRPO at 19–30. The race shows the paper's regime within a
 * minute or two: coarse credit learning slowly against milestone credit learning fast.
 */
const PAGE_CONFIG_OVERRIDES = {
  env: 'gridhouse',
  horizon: 'long',
  tasksPerIteration: 8,
  groupSize: 8,
  hiddenSize: 64,
  iters: 300,
} as const satisfies Partial<TrainConfig>;

/**
 * The page races several methods, so `method` is not a page setting: the race's shared config has none,
 * and each race entry's trainer gets its own (src/race/entries.ts `entryConfig`).
 */
export const PAGE_DEFAULT_CONFIG: RaceConfig = { ...raceConfigOf(DEFAULT_CONFIG), ...PAGE_CONFIG_OVERRIDES };
