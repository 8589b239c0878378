/**
 * User Timing marks on the path to the first chart point (docs/performance.md, "The first point"): each is
 * set once per page or worker, the first time it is reached, so a long run adds nothing. They show in the
 * browser's performance panel, and `npm run bench:first-point` reads them from the page and each worker.
 */
export const TIMELINE_MARKS = {
  /** The page's script has run its imports (main.ts). */
  pageScript: 'beacon:page-script',
  /** <beacon-live-app> has rendered the first time (the panels and charts exist). */
  pageBuilt: 'beacon:page-built',
  /** A training worker's script has loaded and run its imports (training-worker.ts). */
  workerScript: 'beacon:worker-script',
  /** A worker's tfjs backend is selected and initialised (worker-backend.ts). */
  backendReady: 'beacon:backend-ready',
  /** A worker has built its trainer (training-loop.ts). */
  trainerBuilt: 'beacon:trainer-built',
  /** A worker has evaluated iteration 0, the first point (training-loop.ts). */
  firstRecord: 'beacon:first-record',
} as const;

export type TimelineMark = (typeof TIMELINE_MARKS)[keyof typeof TIMELINE_MARKS];

const set = new Set<string>();

/** Sets `name` the first time it is reached in this realm (a no-op where User Timing is absent). */
export function markOnce(name: TimelineMark): void {
  if (set.has(name)) return;
  set.add(name);
  globalThis.performance?.mark?.(name);
}
