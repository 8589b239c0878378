/** GridHouse's registry entry (envs/index.ts): its factory and its facts. */
import type { EnvEntry } from '../entry.ts';
import { createGridHouse } from './gridhouse.ts';

export const GRIDHOUSE: EnvEntry = {
  create: createGridHouse,
  label: 'GridHouse',
  // Imitation is easy here (8 candidates): measured with `npx tsx bench/sft-calibration.ts`
  // (iteration-0 success, 3–5 seeds): 4 → ~1%, 6 → 2–3%, 7 → 5–38%, 8 → 17–42%.
  priorEpisodes: 6,
  // Pilot measurements (bench/study-pilot.ts); see the study profile's notes (src/study/profile.ts).
  secondsPerKiloStep: {
    short: { grpo: 0.239, beacon: 0.194, gigpo: 0.171, ppo: 0.29, sft: 0.208 },
    medium: { grpo: 0.135, beacon: 0.133, gigpo: 0.133, ppo: 0.123, sft: 0.171 },
    long: { grpo: 0.165, beacon: 0.1, gigpo: 0.092, ppo: 0.108, sft: 0.141 },
  },
  episodeView: 'map',
};
