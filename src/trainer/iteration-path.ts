/**
 * What an iteration's phases took (iteration-record.ts `path`) and why a phase that was asked for the
 * GPU path did not take it (`fallback`): the trainer notes each phase as it runs, and the record carries
 * the result, so that a figure measured on webgpu says whether its update was the fused one.
 */
import type { IterationPath, IterationRecord } from './iteration-record.ts';

type Phase = keyof IterationPath;

/** A phase's path and, where the GPU path was asked for and refused, the refusal's reason. */
export interface PhaseRoute<P extends Phase = Phase> {
  path: IterationPath[P];
  fallback: string | null;
}

/** One iteration's notes; starts from the rollout's (chosen once per trainer, collector-choice.ts). */
export class IterationRoute {
  private readonly path: IterationPath;
  private readonly fallbacks: string[] = [];

  constructor(rollout: PhaseRoute<'rollout'>) {
    this.path = { rollout: rollout.path, update: 'none', metrics: 'host' };
    if (rollout.fallback) this.fallbacks.push(`rollout: ${rollout.fallback}`);
  }

  /** Notes that `phase` took `route.path`, and its refusal's reason if it fell back. */
  note<P extends Phase>(phase: P, route: PhaseRoute<P>): void {
    this.path[phase] = route.path;
    if (route.fallback) this.fallbacks.push(`${phase}: ${route.fallback}`);
  }

  /** The record's fields: `path`, and `fallback` only where a phase fell back. */
  fields(): Pick<IterationRecord, 'path' | 'fallback'> {
    return { path: { ...this.path }, ...(this.fallbacks.length ? { fallback: this.fallbacks.join('; ') } : {}) };
  }
}
