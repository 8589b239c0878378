/** What a checkpoint holds of a trainer (trainer.ts `saveState`, `loadState`; checkpoint.ts stores it). */
import type { TrainConfig } from '../config.ts';
import type { RngState } from '../prng.ts';
import type { PartState } from './state-parts.ts';

/**
 * Everything a trainer needs to continue exactly where it was (between two iterations): the config in
 * force, the iteration, every random stream's position, the prior's identity, and each state part
 * (the policy, its optimiser, and whatever a learner registers).
 */
export interface TrainerState {
  iteration: number;
  config: TrainConfig;
  /** `priorKey` of the prior the run started from, or null for random init (sftEpisodes 0). */
  priorKey: string | null;
  streams: Record<string, RngState>;
  parts: Record<string, PartState>;
}
