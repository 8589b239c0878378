/**
 * How many iterations the backend probe runs (src/worker/backend-probe.ts) and the page words and
 * times (src/page/backend-choice.ts): one warm-up, outside the timed part, then a few steady ones
 * whose median is the figure.
 */

/** Iterations run before the timed part: pipelines compile and code warms up outside it. */
export const PROBE_WARMUP_ITERATIONS = 1;
/** Steady iterations timed; the probe reports their median. */
export const PROBE_TIMED_ITERATIONS = 3;
