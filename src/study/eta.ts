/**
 * The study's cost model: each run's expected seconds (its env-step budget times seconds per env step),
 * for the time-left estimate and for balancing shards. A run's seconds per step come from finished runs
 * of the same cell (env, horizon, variant), else of the same env and horizon, else from the profile's
 * pilot measurements for its method (profile.ts `secondsPerKiloStep`); the variant matters because a
 * policy that never solves its task plays every episode to the step limit, and critic PPO pays for a
 * second network.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import type { Method } from '../methods/registry.ts';
import type { RunSpec } from './matrix.ts';

export interface FinishedTiming {
  spec: Pick<RunSpec, 'env' | 'horizon' | 'variant'>;
  envSteps: number;
  seconds: number;
}

export type KiloStepPrior = Record<string, Partial<Record<Horizon, Partial<Record<Method, number>>>>>;

/** Seconds per 1000 env steps when nothing at all is known about a cell. */
const FALLBACK_SECONDS_PER_KILO_STEP = 0.2;

export class EtaModel {
  private readonly cells = new Map<string, { seconds: number; steps: number }>();

  constructor(
    private readonly budgetOf: (spec: RunSpec) => number,
    private readonly prior: KiloStepPrior,
  ) {}

  private add(key: string, seconds: number, steps: number): void {
    const c = this.cells.get(key) ?? { seconds: 0, steps: 0 };
    c.seconds += seconds;
    c.steps += steps;
    this.cells.set(key, c);
  }

  /** Records a finished run's time. */
  observe(t: FinishedTiming): void {
    if (t.envSteps <= 0) return;
    this.add(`${t.spec.env}|${t.spec.horizon}|${t.spec.variant}`, t.seconds, t.envSteps);
    this.add(`${t.spec.env}|${t.spec.horizon}`, t.seconds, t.envSteps);
  }

  secondsPerStep(spec: RunSpec): number {
    for (const key of [`${spec.env}|${spec.horizon}|${spec.variant}`, `${spec.env}|${spec.horizon}`]) {
      const c = this.cells.get(key);
      if (c && c.steps > 0) return c.seconds / c.steps;
    }
    const byMethod = this.prior[spec.env as EnvName]?.[spec.horizon];
    const known = byMethod ? Object.values(byMethod).filter((x): x is number => typeof x === 'number') : [];
    const perKilo = byMethod?.[spec.method] ?? (known.length ? known.reduce((a, x) => a + x, 0) / known.length : FALLBACK_SECONDS_PER_KILO_STEP);
    return perKilo / 1000;
  }

  /** Expected seconds of a whole run. */
  runSeconds(spec: RunSpec): number {
    return this.budgetOf(spec) * this.secondsPerStep(spec);
  }

  /**
   * Seconds left: queued runs in full, running runs for their remaining steps, over `workers` (a lower
   * bound when the last runs cannot be shared out evenly).
   */
  secondsLeft(queued: readonly RunSpec[], running: readonly { spec: RunSpec; envSteps: number }[], workers: number): number {
    let total = 0;
    for (const s of queued) total += this.runSeconds(s);
    for (const r of running) total += Math.max(0, this.budgetOf(r.spec) - r.envSteps) * this.secondsPerStep(r.spec);
    return total / Math.max(1, workers);
  }
}

/** "42 s", "12.5 min", "1.3 h". */
export function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${(seconds / 60).toFixed(1)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
