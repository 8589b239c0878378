/**
 * What the training benches (bench:train, bench:gpu) say of throughput, named for what they divide, and
 * the path check they share (`--require-gpu-path`).
 *
 * - training env steps per second: an iteration's env steps over its whole wall time (rollout,
 *   advantages, update, metrics, and the critic where there is one);
 * - rollout env steps per second: the same steps over the rollout's wall time alone (the record's
 *   `envStepsPerSecond`), which leaves out everything the update costs.
 * Both are given as min / median / max over the measured iterations, never as one iteration's figure.
 */
import type { IterationRecord } from '../src/trainer/iteration-record.ts';

/** The fewest measured iterations (after warm-up) a bench reports a spread over by default. */
export const MIN_MEASURED_ITERATIONS = 5;

export interface Spread {
  min: number;
  median: number;
  max: number;
  /** How many values it is over. */
  n: number;
}

/** min / median / max of `xs` (the median of an even count: the mean of the middle two). */
export function spread(xs: readonly number[]): Spread {
  if (xs.length === 0) throw new RangeError('a spread needs at least one value');
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return { min: s[0], median: s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2, max: s[s.length - 1], n: s.length };
}

/** "min / median / max (n iterations)", each figure rounded to `digits` significant digits. */
export function formatSpread(s: Spread, digits = 3): string {
  const f = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(digits)).toLocaleString('en-US') : String(x));
  return `${f(s.min)} / ${f(s.median)} / ${f(s.max)} (min / median / max of ${s.n})`;
}

/** Training env steps per second of one iteration: its env steps over `seconds`, the whole iteration's wall time. */
export function trainingStepsPerSecond(envSteps: number, seconds: number): number {
  return envSteps / seconds;
}

/** The whole iteration's wall seconds from a record's split (the split covers the iteration end to end). */
export function iterationSeconds(record: Pick<IterationRecord, 'ms'>): number {
  const { rollout, advantage, update, critic = 0 } = record.ms;
  return (rollout + advantage + update + critic) / 1000;
}

/** Both throughputs of a list of records, as spreads. */
export function throughputOf(records: readonly Pick<IterationRecord, 'ms' | 'envSteps'>[]): { training: Spread; rollout: Spread } {
  return {
    training: spread(records.map((r) => trainingStepsPerSecond(r.envSteps, iterationSeconds(r)))),
    rollout: spread(records.map((r) => r.envSteps / (r.ms.rollout / 1000))),
  };
}

/**
 * Each iteration that fell back from the GPU path it was asked for, as "iteration N: phase: reason";
 * empty where none did (and always on wasm and cpu, where nothing asks for the GPU).
 */
export function gpuPathFallbacks(records: readonly Pick<IterationRecord, 'iteration' | 'fallback'>[]): string[] {
  return records.filter((r) => r.fallback !== undefined).map((r) => `iteration ${r.iteration}: ${r.fallback}`);
}

/** The backend's one-line description with its threads: every CPU baseline states them. */
export function withThreads(backend: { describe: string; threads: number | null }): string {
  return backend.threads === null ? backend.describe : `${backend.describe} (${backend.threads} thread${backend.threads === 1 ? '' : 's'})`;
}

/** The path a record took, e.g. "gpu/fused/gpu" (rollout/update/metrics); "?" for a record without one. */
export function pathLabel(record: Pick<IterationRecord, 'path'>): string {
  const p = record.path;
  return p ? `${p.rollout}/${p.update}/${p.metrics}` : '?';
}

/** The flag both benches take. */
export const REQUIRE_GPU_PATH_FLAG = {
  'require-gpu-path': {
    kind: 'switch',
    doc: 'exit with status 3, naming the phase and the reason, if any webgpu iteration (warm-up included) fell back from the GPU path',
  },
} as const;

/** The exit status of a bench whose `--require-gpu-path` found a fallback (1 is any other failure, 2 a usage error). */
export const GPU_PATH_EXIT = 3;

/** Writes the fallbacks of `label` to stderr and returns GPU_PATH_EXIT, or returns 0 where there are none. */
export function requireGpuPath(label: string, fallbacks: readonly string[]): number {
  if (fallbacks.length === 0) return 0;
  process.stderr.write(`--require-gpu-path: ${label} fell back from the GPU path:\n${fallbacks.map((f) => `  ${f}\n`).join('')}`);
  return GPU_PATH_EXIT;
}
