/**
 * The train command's own flags (every training setting of src/config.ts is a flag too), in a module of
 * their own so that tests and the reliability fuzz can parse train's command lines without running it.
 */
import { MAX_SEEDS, MAX_SEEDS_ANY_BACKEND } from '../src/setting-limits.ts';
import { ESTIMATOR_FLAGS } from './estimator-flags.ts';
import type { FlagTable } from './flags.ts';

export const TRAIN_FLAGS = {
  out: { kind: 'string', doc: 'write the JSON lines to FILE instead of stdout' },
  checkpoint: { kind: 'string', doc: 'write checkpoints to FILE (atomically): every --checkpointEvery iterations, at the end, on SIGINT/SIGTERM' },
  checkpointEvery: { kind: { type: 'int', min: 1, max: 100000 }, doc: 'iterations between checkpoints (default 10; needs --checkpoint or --resume)' },
  resume: { kind: 'string', doc: 'continue the run in checkpoint FILE to --iters, with its settings; later checkpoints go back to FILE unless --checkpoint' },
  seeds: {
    kind: { type: 'int', min: 1, max: MAX_SEEDS_ANY_BACKEND },
    doc: `train seeds seed, seed + 1, …, seed + K − 1 side by side, each line naming its seed (default 1; at most ${MAX_SEEDS.webgpu} on webgpu, ${MAX_SEEDS.wasm} on wasm, cpu and auto)`,
  },
  ...ESTIMATOR_FLAGS,
} as const satisfies FlagTable;
