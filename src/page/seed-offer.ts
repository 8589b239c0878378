/**
 * The offer of more seeds once a race under `auto` runs on WebGPU: the background probe also times an
 * iteration of 4 and of 8 seeds trained side by side (src/worker/backend-probe.ts), and where 8 seeds
 * cost at most OFFER_MAX_RATIO times one seed's iteration the race offers them, naming the measured
 * ratio: "8 seeds for the price of 1.3". The page never switches by itself: the visitor's click does,
 * restarting the race on webgpu (more than 5 seeds need backend=webgpu: src/setting-limits.ts). Pure,
 * so it is tested in Node.
 */
import { MAX_SEEDS } from '../setting-limits.ts';

/** Seeds the offer proposes. */
export const OFFERED_SEEDS = 8;
/** The most an iteration of OFFERED_SEEDS seeds may cost, in iterations of one seed, for the offer to stand. */
export const OFFER_MAX_RATIO = 1.5;
/** Seed counts the probe times beside one seed (4 is shown with the offer; 8 decides it). */
export const PROBED_SEEDS = [4, OFFERED_SEEDS] as const;

/** Steady-iteration milliseconds on webgpu by seed count (null: that count could not be timed). */
export type SeedTimings = Readonly<Record<number, number | null>>;

export interface SeedOffer {
  seeds: number;
  /** An iteration of `seeds` seeds over one of a single seed, both measured here on webgpu. */
  ratio: number;
  /** The button's words. */
  text: string;
  /** The tooltip: what was measured and what the click does. */
  detail: string;
}

/**
 * The offer, or null: when the race is not on webgpu, already trains OFFERED_SEEDS or more seeds, a
 * timing is missing, or 8 seeds cost more than OFFER_MAX_RATIO × one seed's iteration.
 */
export function seedOffer(timings: SeedTimings, currentSeeds: number, backend: string | null): SeedOffer | null {
  if (backend !== 'webgpu' || currentSeeds >= OFFERED_SEEDS || OFFERED_SEEDS > MAX_SEEDS.webgpu) return null;
  const one = timings[1];
  const many = timings[OFFERED_SEEDS];
  if (one == null || many == null || !(one > 0) || !Number.isFinite(many)) return null;
  const ratio = many / one;
  if (ratio > OFFER_MAX_RATIO) return null;
  const four = timings[4];
  const measured = [`1 seed ${one.toFixed(0)} ms`, ...(four == null ? [] : [`4 seeds ${four.toFixed(0)} ms`]), `${OFFERED_SEEDS} seeds ${many.toFixed(0)} ms`];
  return {
    seeds: OFFERED_SEEDS,
    ratio,
    text: `${OFFERED_SEEDS} seeds for the price of ${ratio.toFixed(1)}: switch`,
    detail: `Measured here on webgpu, a steady iteration of each method: ${measured.join(', ')}. Switching restarts the race with ${OFFERED_SEEDS} seeds per method on webgpu, drawn as mean ± sd.`,
  };
}
