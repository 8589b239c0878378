/**
 * What the registry (index.ts) holds for one environment: its factory and the facts specific to it, so
 * that nothing outside the environment's folder is keyed by its name.
 */
import type { EnvFactory, Horizon } from './types.ts';

/**
 * How the page's episode view draws a run: `map`, the environment's `renderFrame` snapshots on a
 * canvas (with the text in a disclosure); `page`, the environment's `renderPage` snapshots of the web
 * page the agent sees; `transcript`, the observations and commands as text.
 */
export type EpisodeView = 'map' | 'page' | 'transcript';

export interface EnvEntry {
  readonly create: EnvFactory;
  /** Display name ("GridHouse"). */
  readonly label: string;
  /**
   * `sftEpisodes: auto`: the SFT prior's oracle episodes that put long tasks in the paper's regime at
   * the page defaults (first-iteration success of a few percent; docs/maths.md §9).
   */
  readonly priorEpisodes: number;
  /**
   * `sftEpisodes: auto`: the passes over those episodes (`sftEpochs`) the calibrated prior needs, where
   * the shared default is not enough (docs/maths.md §9); absent, `auto` passes `sftEpochs`.
   */
  readonly priorEpochs?: number;
  /**
   * The study's timing profile: measured seconds per 1000 env steps by horizon and method on one worker
   * (bench/study-pilot.ts), the ETA's prior and the shard balancer's cost model until runs are measured.
   */
  readonly secondsPerKiloStep: Partial<Record<Horizon, Readonly<Record<string, number>>>>;
  readonly episodeView: EpisodeView;
}
