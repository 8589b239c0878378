/**
 * When every panel of the page's first race shows its first point: what the page may do later (register
 * the service worker, whose install fetches the whole build) waits for it, so it does not share the
 * network and the cores with the workers' first seconds (docs/performance.md, "The first point").
 */
import { markOnce, TIMELINE_MARKS } from '../timeline-marks.ts';

let shown!: () => void;

/** Resolves once every panel of the first race has a point (or never, if none ever does: pair it with a bound). */
export const firstPointsShown = new Promise<void>((resolve) => (shown = resolve));

/** Called by the training controller when every panel has its first point. */
export function noteFirstPoints(): void {
  markOnce(TIMELINE_MARKS.firstPoints);
  shown();
}

/** `firstPointsShown`, or `ms` after now, whichever comes first. */
export function firstPointsOr(ms: number): Promise<void> {
  return Promise.race([firstPointsShown, new Promise<void>((resolve) => setTimeout(resolve, ms))]);
}
