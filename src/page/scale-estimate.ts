/**
 * What a wide batch will cost on this machine before it runs: the seconds per iteration measured here
 * (the race's own recent iterations, else the backend probe's timed step), scaled by the ratio of runs
 * per iteration. An estimate, and called one: an iteration's cost is not exactly linear in its runs (the
 * update's fixed part, the episode lengths), but on wasm and cpu the rollout and the update both grow
 * with the runs, so the ratio is the honest first guess.
 */

/** Runs per iteration from which a race on wasm or cpu is checked with the visitor first. */
export const COST_CHECK_RUNS = 1024;

/** A measurement of this machine: seconds per iteration at `runs` runs per iteration, and where it came from. */
export interface CostMeasurement {
  secondsPerIteration: number;
  runs: number;
  /** "the race’s last iterations", "the backend probe’s timed step". */
  source: string;
}

export interface CostEstimate {
  backend: string;
  runs: number;
  /** Estimated seconds per iteration at `runs`; null without any measurement on this machine. */
  secondsPerIteration: number | null;
  /** One paragraph for the visitor, the estimate labelled as such. */
  text: string;
}

/** Should loading a race of `runs` runs per iteration on `backend` ask first? Only on the CPU backends. */
export function needsCostCheck(backend: string | null, runs: number): boolean {
  return (backend === 'wasm' || backend === 'cpu') && runs >= COST_CHECK_RUNS;
}

/** The estimate for `runs` runs per iteration on `backend`, from `measured` (or none). */
export function estimateCost(backend: string, runs: number, measured: CostMeasurement | null): CostEstimate {
  const intro = `${runs.toLocaleString('en')} runs per iteration on ${backend}, on this machine’s CPU.`;
  if (!measured || !(measured.secondsPerIteration > 0) || !(measured.runs > 0)) {
    return {
      backend,
      runs,
      secondsPerIteration: null,
      text: `${intro} Nothing has been measured here yet; an iteration costs roughly in proportion to its runs, so expect it to take many times longer than one at the page defaults.`,
    };
  }
  const factor = runs / measured.runs;
  const seconds = measured.secondsPerIteration * factor;
  return {
    backend,
    runs,
    secondsPerIteration: seconds,
    text: `${intro} Estimate: about ${duration(seconds)} per iteration per method (measured ${duration(measured.secondsPerIteration)} per iteration at ${measured.runs.toLocaleString('en')} runs, ${measured.source}, scaled ${factor >= 10 ? Math.round(factor) : factor.toFixed(1)}× by the runs). The page stays responsive (training runs in workers), but the race crawls.`,
  };
}

/** 0.4 s, 12 s, 3.5 min. */
export function duration(seconds: number): string {
  if (seconds < 1) return `${seconds.toFixed(2)} s`;
  if (seconds < 90) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  return `${(seconds / 60).toFixed(1)} min`;
}
