/**
 * The page's defaults: the training settings a visitor gets when the URL says nothing.
 *
 * They differ from the CLI's defaults (src/config.ts) only where the page needs the difference between
 * GRPO and BEACON to show within a few minutes on an ordinary laptop. This is the one place to change
 * them; the URL codec treats these values as "default" (they are left out of a shared link).
 */
import { DEFAULT_CONFIG, type TrainConfig } from '../config.ts';

/**
 * Overrides on `DEFAULT_CONFIG` for the page. Change these after measuring headless runs.
 *
 * Measured (headless Chromium, wasm backend, 2-core machine, seed 1, `npx tsx test/e2e/screenshot.ts`):
 * on `medium` both methods reach ~100% within ~15 iterations (BEACON crosses 60% at 5, GRPO at 8): too
 * easy to tell apart. On `long`, BEACON crosses 60% at iteration 7 and nears 100% by 40, while GRPO is
 * still at 0% after 49 iterations (no run of a group succeeds, so every A_traj is 0); ~0.23 it/s per
 * method, so the gap is visible within a minute.
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
 * The page trains both methods side by side, so `method` is not a page setting; the BEACON trainer uses
 * this config as is, the GRPO trainer a copy made by `grpoConfig` (src/page/method-configs.ts).
 */
export const PAGE_DEFAULT_CONFIG: TrainConfig = { ...DEFAULT_CONFIG, ...PAGE_CONFIG_OVERRIDES, method: 'beacon' };
