/**
 * Limits on settings taken together, which no single field's range can express: each field may be in
 * its range while their product is too big. Checked wherever settings are read (parseConfig: the CLI's
 * flags and the page's URL; the page's settings form; the trainer as a last guard), before anything
 * trains, with a message that names the settings and the limit.
 */
import { MAX_BATCH_SIZE } from '../envs/types.ts';

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
