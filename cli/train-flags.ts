/**
 * The train command's own flags (every training setting of src/config.ts is a flag too), in a module of
 * their own so that tests and the reliability fuzz can parse train's command lines without running it.
 */
import { ESTIMATOR_FLAGS } from './estimator-flags.ts';
import type { FlagTable } from './flags.ts';

export const TRAIN_FLAGS = {
  out: { kind: 'string', doc: 'write the JSON lines to FILE instead of stdout' },
  checkpoint: { kind: 'string', doc: 'write checkpoints to FILE (atomically): every --checkpointEvery iterations, at the end, on SIGINT/SIGTERM' },
  checkpointEvery: { kind: { type: 'int', min: 1, max: 100000 }, doc: 'iterations between checkpoints (default 10; needs --checkpoint or --resume)' },
  resume: { kind: 'string', doc: 'continue the run in checkpoint FILE to --iters, with its settings; later checkpoints go back to FILE unless --checkpoint' },
  ...ESTIMATOR_FLAGS,
} as const satisfies FlagTable;
