/**
 * How many oracle episodes an SFT prior clones (docs/maths.md §9), `auto` resolved. Kept apart from the
 * prior's training (sft-prior.ts) so the page can name the prior without loading tfjs.
 */
import { envEntry } from '../../envs/index.ts';
import type { TrainConfig } from '../config.ts';

/**
 * The number of oracle episodes of `config`'s prior, `auto` resolved: per environment, the prior size
 * its registry entry gives (`priorEpisodes`, envs/<env>/entry.ts), the one that puts long tasks in the
 * paper's regime at the page defaults (first-iteration success of a few percent, not 0 and not most).
 * The regime that follows is in docs/results/regime.json (`npm run bench:regime`).
 */
export function priorEpisodes(config: Pick<TrainConfig, 'env' | 'sftEpisodes'>): number {
  return config.sftEpisodes === 'auto' ? envEntry(config.env).priorEpisodes : config.sftEpisodes;
}

/**
 * The passes of `config`'s prior over its demonstrations, `auto` resolved: an environment whose prior
 * needs more passes than the shared `sftEpochs` to reach the regime says so in its registry entry
 * (`priorEpochs`); `auto` is its calibrated prior as a whole, size and passes. A prior of a number of
 * episodes passes `sftEpochs`.
 */
export function priorEpochs(config: Pick<TrainConfig, 'env' | 'sftEpisodes' | 'sftEpochs'>): number {
  return config.sftEpisodes === 'auto' ? (envEntry(config.env).priorEpochs ?? config.sftEpochs) : config.sftEpochs;
}
