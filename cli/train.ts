/**
 * Headless training: `npm run -s train -- --env gridhouse --horizon long --method beacon --iters 200
 *   --seed 1 --backend wasm --out runs/beacon.jsonl [any config field as --name value]
 *   [--checkpoint runs/beacon.ckpt [--checkpointEvery 10]]`, and later
 *   `npm run -s train -- --resume runs/beacon.ckpt --iters 400 [--out runs/more.jsonl]`.
 *
 * Writes one JSON line per iteration (to --out, else stdout) and shows progress on stderr: a bar on a
 * terminal, plain lines otherwise. Bad flags exit with 2; a non-finite loss stops the run with exit 1,
 * the policy keeping its last good weights.
 *
 * Checkpoints (src/trainer/checkpoint.ts) are written atomically every N iterations, at the end, and
 * when SIGINT or SIGTERM stops the run after the iteration in progress (a second signal exits at once;
 * the previous checkpoint is whole either way). A resumed run takes every setting from its checkpoint,
 * writes its later checkpoints back to it (or to --checkpoint), and its --out gets only the records it
 * trains; the records equal those the uninterrupted run would have written. A damaged or unreadable
 * checkpoint, or a setting flag that contradicts it, exits with 2 before anything is written.
 *
 * `--seeds K` trains seeds seed, seed + 1, …, seed + K − 1 (the page's numbering, src/race/seeds.ts) in
 * lock-step through SeedRuns (src/worker/seed-runs.ts, the page's own path: one batch on webgpu, one
 * seed after the other on wasm and cpu): each iteration writes one line per seed, in seed order. Every
 * line names its `seed`, so seed s's lines equal those of `--seed s` alone (timings aside). With more
 * than one seed the checkpoint is a seed bundle (src/trainer/seed-checkpoints.ts) holding every seed;
 * a resumed run takes its seeds from it.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_CONFIG, type TrainConfig } from '../src/config.ts';
import { CheckpointError } from '../src/trainer/checkpoint.ts';
import { recordToJson, type IterationRecord } from '../src/trainer/iteration-record.ts';
import type { RunState } from '../src/trainer/run.ts';
import { encodeSeedCheckpoints } from '../src/trainer/seed-checkpoints.ts';
import { seedConfigs } from '../src/race/seeds.ts';
import { seedsLimitIssue } from '../src/setting-limits.ts';
import { SeedRuns } from '../src/worker/seed-runs.ts';
import { StateError } from '../src/trainer/state-parts.ts';
import { readSeedCheckpointFile, writeCheckpointFile } from './checkpoint-file.ts';
import { customEngine, estimatorSource } from './custom-method.ts';
import { readShaderSources } from '../src/gpu/shaders-node.ts';
import { rolloutShaders } from '../src/engine/advantage-engine.ts';
import { EstimatorError } from '../src/estimator/failure.ts';
import { flagsHelp, parseFlags, runCommand, UsageError } from './flags.ts';
import { initNodeBackend } from './node-backend.ts';
import { progressReporter } from './progress.ts';
import { TRAIN_FLAGS } from './train-flags.ts';

const USAGE = `usage: npm run -s train -- [--name value …] [--seeds K] [--out FILE] [--checkpoint FILE [--checkpointEvery N]]
       npm run -s train -- --resume FILE --iters M [--out FILE] [--checkpoint FILE] [--checkpointEvery N]
       npm run -s train -- --method custom --estimator FILE.js [--estimatorTimeout SECONDS] [--name value …]
${flagsHelp(TRAIN_FLAGS, DEFAULT_CONFIG)}`;

const DEFAULT_CHECKPOINT_EVERY = 10;
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * The resumed run's config: the checkpoint's, with the new budget. Any other setting flag must repeat
 * the checkpoint's value: a different one would make the continuation a different run.
 */
function resumedConfig(state: RunState, given: Set<keyof TrainConfig>, flags: TrainConfig, path: string): TrainConfig {
  for (const key of given) {
    if (key === 'iters' || flags[key] === state.config[key]) continue;
    throw new UsageError(
      `--${key} ${String(flags[key])} conflicts with checkpoint ${path}, whose ${key} is ${String(state.config[key])}: a resumed run takes every setting from its checkpoint (leave --${key} out)`,
    );
  }
  if (!given.has('iters'))
    throw new UsageError(`--resume needs --iters M, the iteration to continue to (checkpoint ${path} is at iteration ${state.iteration})`);
  if (flags.iters < state.iteration) throw new UsageError(`--iters ${flags.iters} is behind checkpoint ${path}, which is at iteration ${state.iteration}`);
  return { ...state.config, iters: flags.iters };
}

async function main(argv: string[]): Promise<number> {
  const { flags, config: flagConfig, settingsGiven, help } = parseFlags(argv, TRAIN_FLAGS, DEFAULT_CONFIG);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { out, resume } = flags;
  const checkpointPath = flags.checkpoint ?? resume;
  if (flags.checkpointEvery !== undefined && !checkpointPath) throw new UsageError('--checkpointEvery needs --checkpoint FILE (or --resume FILE)');
  const every = flags.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY;
  // Everything about the checkpoint is checked before the backend starts or any file is touched.
  const states = resume ? await readSeedCheckpointFile(resume) : null;
  const state = states?.[0] ?? null;
  const config = state ? resumedConfig(state, settingsGiven, flagConfig, resume!) : flagConfig;
  const seedCount = states?.length ?? flags.seeds ?? 1;
  if (states && flags.seeds !== undefined && flags.seeds !== states.length)
    throw new UsageError(`--seeds ${flags.seeds} conflicts with checkpoint ${resume}, which holds ${states.length} seed(s) (leave --seeds out)`);
  const tooMany = seedsLimitIssue(seedCount, config.backend);
  if (tooMany) throw new UsageError(`--${tooMany}`);
  const source = estimatorSource(config, flags, state, resume);

  const backend = await initNodeBackend(config.backend);
  process.stderr.write(`backend: ${backend.describe}\n`);
  // The custom method's sandbox loads the visitor's module before anything is written, so a module
  // that does not load, or has no default export, stops the command at once (exit 2).
  const engine = () =>
    source === null ? Promise.resolve(backend.advantageEngine(config.method)) : customEngine(source, flags, rolloutShaders(backend.name, readShaderSources));
  const runs = (await SeedRuns.create(seedConfigs(config, seedCount), [], engine, () => false))!;
  let signal: keyof typeof SIGNAL_EXIT | null = null;
  const onSignal = (name: keyof typeof SIGNAL_EXIT) => {
    if (signal) process.exit(SIGNAL_EXIT[name]); // a second signal: leave now; the last checkpoint is whole
    signal = name;
    process.stderr.write(
      `\n${name}: stopping after the iteration in progress${checkpointPath ? ', then writing the checkpoint' : ''} (again to quit at once)\n`,
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (states) {
      await runs.restore(states);
      runs.updateSettings({ iters: config.iters });
      process.stderr.write(`resumed ${resume} at iteration ${runs.iteration} of ${config.iters}\n`);
    }
    if (out) {
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, '');
    }
    const write = (line: string) => (out ? appendFileSync(out, `${line}\n`) : process.stdout.write(`${line}\n`));
    const checkpoint = async () => {
      if (checkpointPath) writeCheckpointFile(checkpointPath, await encodeSeedCheckpoints(await runs.state()));
    };
    const progress = progressReporter(config.iters, process.stderr, runs.iteration);
    while (!signal && !runs.finished) {
      const records = await runs.step();
      // Each line names its seed (appended, so a line's other fields keep their order).
      for (const { seed, record } of records) {
        const line: IterationRecord & { seed: number } = { ...record, seed };
        write(recordToJson(line));
      }
      if (records.length > 0) progress.update(records[records.length - 1].record);
      if (runs.halted === null && runs.iteration % every === 0) await checkpoint();
      // On wasm and cpu an iteration may never leave the microtask queue, so a signal handler (a
      // macrotask) would wait for the whole run: give the event loop a turn after every iteration.
      await new Promise((resolve) => setImmediate(resolve));
    }
    progress.done();
    await checkpoint();
    if (runs.halted !== null) {
      process.stderr.write(`${runs.halted}\n`);
      return 1;
    }
    if (signal) {
      const where = checkpointPath ? `; checkpoint ${checkpointPath} (continue with --resume ${checkpointPath} --iters ${config.iters})` : '';
      process.stderr.write(`stopped by ${signal} after iteration ${runs.iteration}${where}\n`);
      return SIGNAL_EXIT[signal];
    }
    return 0;
  } finally {
    runs.dispose();
    backend.close();
  }
}

runCommand(() => main(process.argv.slice(2)), USAGE, [CheckpointError, StateError, EstimatorError]);
