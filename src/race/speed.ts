/**
 * The page's training speeds and how each paces the training worker: the part of the page settings
 * (src/page/page-settings.ts) that the worker reads too, so it lives below both.
 */
export const SPEEDS = ['slow', 'normal', 'fast', 'nodraw'] as const;
export type Speed = (typeof SPEEDS)[number];

/** Per speed: iterations between two episode/credit snapshots (0 = none sent) and pause between iterations. */
export const SPEED_PACING: Record<Speed, { snapshotEvery: number; pauseMs: number }> = {
  slow: { snapshotEvery: 1, pauseMs: 1500 },
  normal: { snapshotEvery: 1, pauseMs: 0 },
  fast: { snapshotEvery: 10, pauseMs: 0 },
  nodraw: { snapshotEvery: 0, pauseMs: 0 },
};
