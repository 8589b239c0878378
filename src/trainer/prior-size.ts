/**
 * How many oracle episodes an SFT prior clones (docs/maths.md §9), `auto` resolved. Kept apart from the
 * prior's training (sft-prior.ts) so the page can name the prior without loading tfjs.
 */
import type { EnvName } from '../../envs/index.ts';
import type { TrainConfig } from '../config.ts';

/**
 * `sftEpisodes: auto`: per environment, the prior size that puts long tasks in the paper's regime at the
 * page defaults (first-iteration success of a few percent, not 0 and not most). Imitation is much
 * easier in GridHouse than in TextHouse (8 candidates against up to 39), so one count cannot serve both.
 * Measured with `npx tsx bench/sft-calibration.ts` (iteration-0 success, 3–5 seeds): GridHouse 4 → ~1%,
 * 6 → 2–3%, 7 → 5–38%, 8 → 17–42%; TextHouse 64 → 2%, 96 → 2–5%, 112 → 5–17%, 128 → 8–16%. The
 * regime that follows is in docs/results/regime.json (`npm run bench:regime`). Shop: no prior size
 * reaches the regime (0% at 0, 8, 16, 32, 64, 128, 256 and 512 episodes, 2–3 seeds: imitation has to
 * learn to match words, docs/maths.md §10), so it takes a cheap 64 that lifts partial success.
 */
const AUTO_PRIOR_EPISODES: Record<EnvName, number> = { gridhouse: 6, texthouse: 112, shop: 64 };

/** The number of oracle episodes of `config`'s prior, `auto` resolved. */
export function priorEpisodes(config: Pick<TrainConfig, 'env' | 'sftEpisodes'>): number {
  return config.sftEpisodes === 'auto' ? AUTO_PRIOR_EPISODES[config.env] : config.sftEpisodes;
}
