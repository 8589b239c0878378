/** The default time limit of one estimate() call, in seconds (the page's, and the CLI's `--estimatorTimeout`). */
export const DEFAULT_ESTIMATOR_TIMEOUT_S = 10;
