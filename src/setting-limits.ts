/**
 * Limits on settings taken together, which no single field's range can express: each field may be in
 * its range while their product is too big. Checked wherever settings are read (parseConfig: the CLI's
 * flags and the page's URL; the page's settings form; the trainer as a last guard), before anything
 * trains, with a message that names the settings and the limit.
 */
import { MAX_BATCH_SIZE } from '../envs/types.ts';
import type { BackendChoice } from './backend/names.ts';

/** The most runs one iteration can play: they are stepped together as one environment batch. */
export const MAX_RUNS_PER_ITERATION = MAX_BATCH_SIZE;

/** The settings these limits read: a structural view, so config.ts can call this module without a cycle. */
export interface RunsPerIteration {
  tasksPerIteration: number;
  groupSize: number;
  /** The two detectors that replace Φ (docs/maths.md §6): one at a time. */
  looseMilestones?: boolean;
  fineMilestones?: boolean;
}

export interface CombinedLimitIssue {
  /** The settings involved, the one to blame (the one changed) first. */
  fields: (keyof RunsPerIteration)[];
  message: string;
}

/** Problems of `config`'s settings taken together, or none. */
export function combinedLimitIssues(config: RunsPerIteration): CombinedLimitIssue[] {
  const issues: CombinedLimitIssue[] = [];
  const runs = config.tasksPerIteration * config.groupSize;
  if (runs > MAX_RUNS_PER_ITERATION)
    issues.push({
      fields: ['tasksPerIteration', 'groupSize'],
      message: `tasksPerIteration × groupSize = ${config.tasksPerIteration} × ${config.groupSize} = ${runs} is over ${MAX_RUNS_PER_ITERATION}, the most runs an iteration can play`,
    });
  if (config.looseMilestones && config.fineMilestones)
    issues.push({
      fields: ['fineMilestones', 'looseMilestones'],
      message: 'looseMilestones and fineMilestones are two different detectors Φ: turn on one of them at most',
    });
  return issues;
}

/** Throws a RangeError with the first combined-limit problem of `config` (a guard for programmatic callers). */
export function checkCombinedLimits(config: RunsPerIteration): void {
  const [issue] = combinedLimitIssues(config);
  if (issue) throw new RangeError(issue.message);
}

/**
 * The most seeds of one method trained side by side, by backend. On webgpu a method's seeds share the
 * rollout, the advantages, the metrics and the update (a seed axis in their kernels:
 * docs/performance.md), on a GPU that the page's 64 runs leave mostly idle; on wasm and cpu they run one after the other,
 * each seed its whole cost, so 5 keeps an iteration bearable. Under `auto` the backend is not known
 * until the page or the command has started one, so the wasm/cpu limit holds: a race of more seeds
 * names `backend=webgpu` (the page's offer of more seeds does).
 */
export const MAX_SEEDS: Readonly<Record<BackendChoice, number>> = { webgpu: 16, wasm: 5, cpu: 5, auto: 5 };
/** The largest of MAX_SEEDS: the range of the `seeds` setting and flag before the backend is taken into account. */
export const MAX_SEEDS_ANY_BACKEND = Math.max(...Object.values(MAX_SEEDS));

/** Why `seeds` seeds are too many on `backend` (a message naming both and the limit), or null. */
export function seedsLimitIssue(seeds: number, backend: BackendChoice): string | null {
  const max = MAX_SEEDS[backend];
  if (seeds <= max) return null;
  const why =
    backend === 'auto'
      ? `under backend auto (up to ${MAX_SEEDS.webgpu} with backend=webgpu, where a method's seeds train as one batch)`
      : backend === 'webgpu'
        ? 'on webgpu'
        : `on ${backend}, where seeds train one after the other (up to ${MAX_SEEDS.webgpu} with backend=webgpu)`;
  return `seeds ${seeds} is over ${max}, the most seeds per method ${why}`;
}
