/**
 * The estimator flags every command that can run a visitor's estimator shares (train, study,
 * advantages): `--estimator FILE` and `--estimatorTimeout` seconds per call.
 */
import { DEFAULT_ESTIMATOR_TIMEOUT_S } from '../src/estimator/sandbox-host.ts';
import type { FlagTable } from './flags.ts';

export const ESTIMATOR_FLAGS = {
  estimator: {
    kind: 'string',
    doc: 'your own estimator: an ES module whose default export is estimate(batch, settings) (docs/estimator.md); with --method custom',
  },
  estimatorTimeout: {
    kind: { type: 'number', min: 0, max: 3600, minExclusive: true },
    doc: `time limit of one estimate() call, in seconds (default ${DEFAULT_ESTIMATOR_TIMEOUT_S})`,
  },
} as const satisfies FlagTable;
