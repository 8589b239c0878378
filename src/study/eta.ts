/**
 * The study's time-left estimate: each unfinished run's expected seconds, summed and shared over the
 * workers. A run's seconds per iteration come from finished runs of the same cell (env, horizon,
 * variant), else of the same env and horizon, else from the profile's measured prior; the variant
 * matters because a policy that never solves its task plays every episode to the step limit.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import { variantOf, type RunSpec } from './matrix.ts';

export interface FinishedTiming {
  spec: RunSpec;
  iterations: number;
  seconds: number;
}

export class EtaModel {
  private readonly cells = new Map<string, { seconds: number; iterations: number }>();

  constructor(
    private readonly iters: number,
    private readonly prior: Record<string, Partial<Record<Horizon, number>>>,
  ) {}

  private add(key: string, seconds: number, iterations: number): void {
    const c = this.cells.get(key) ?? { seconds: 0, iterations: 0 };
    c.seconds += seconds;
    c.iterations += iterations;
    this.cells.set(key, c);
  }

  /** Records a finished run's time. */
  observe(t: FinishedTiming): void {
    if (t.iterations <= 0) return;
    this.add(`${t.spec.env}|${t.spec.horizon}|${variantOf(t.spec)}`, t.seconds, t.iterations);
    this.add(`${t.spec.env}|${t.spec.horizon}`, t.seconds, t.iterations);
  }

  secondsPerIteration(spec: RunSpec): number {
    for (const key of [`${spec.env}|${spec.horizon}|${variantOf(spec)}`, `${spec.env}|${spec.horizon}`]) {
      const c = this.cells.get(key);
      if (c && c.iterations > 0) return c.seconds / c.iterations;
    }
    return this.prior[spec.env as EnvName]?.[spec.horizon] ?? 1;
  }

  /**
   * Seconds left: queued runs in full, running runs for their remaining iterations, over `workers`
   * (a lower bound when the last runs cannot be shared out evenly).
   */
  secondsLeft(queued: readonly RunSpec[], running: readonly { spec: RunSpec; iteration: number }[], workers: number): number {
    let total = 0;
    for (const s of queued) total += this.iters * this.secondsPerIteration(s);
    for (const r of running) total += Math.max(0, this.iters - r.iteration) * this.secondsPerIteration(r.spec);
    return total / Math.max(1, workers);
  }
}

/** "42 s", "12.5 min", "1.3 h". */
export function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
