/** TextHouse's registry entry (envs/index.ts): its factory and its facts. */
import type { EnvEntry } from '../entry.ts';
import { createTextHouse } from './texthouse.ts';

export const TEXTHOUSE: EnvEntry = {
  create: createTextHouse,
  label: 'TextHouse',
  // Imitation is much harder than in GridHouse (up to 39 candidates): measured with
  // `npx tsx bench/sft-calibration.ts` (iteration-0 success, 3–5 seeds): 64 → 2%, 96 → 2–5%, 112 → 5–17%, 128 → 8–16%.
  priorEpisodes: 112,
  // Pilot measurements (bench/study-pilot.ts); see the study profile's notes (src/study/profile.ts).
  secondsPerKiloStep: {
    short: { grpo: 0.12, beacon: 0.138, gigpo: 0.146, ppo: 0.243, sft: 0.126 },
    medium: { grpo: 0.158, beacon: 0.154, gigpo: 0.175, ppo: 0.181, sft: 0.171 },
    long: { grpo: 0.194, beacon: 0.164, gigpo: 0.15, ppo: 0.159, sft: 0.167 },
  },
  episodeView: 'transcript',
};
