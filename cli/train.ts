/**
 * Headless training: `npm run -s train -- --env gridhouse --horizon long --method beacon --iters 200
 *   --seed 1 --backend wasm --out runs/beacon.jsonl [any config field as --name value]`.
 *
 * Writes one JSON line per iteration (to --out, else stdout) and shows progress on stderr: a bar on a
 * terminal, plain lines otherwise. Bad flags exit with 2; a non-finite loss stops the run with exit 1,
 * the policy keeping its last good weights.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_CONFIG } from '../src/config.ts';
import { recordToJson } from '../src/trainer/iteration-record.ts';
import { TrainingRun } from '../src/trainer/run.ts';
import { flagsHelp, parseFlags, runCommand } from './flags.ts';
import { initNodeBackend } from './node-backend.ts';
import { progressReporter } from './progress.ts';

const FLAGS = {
  out: { kind: 'string', doc: 'write the JSON lines to FILE instead of stdout' },
} as const;

const USAGE = `usage: npm run -s train -- [--name value …] [--out FILE]\n${flagsHelp(FLAGS, DEFAULT_CONFIG)}`;

async function main(argv: string[]): Promise<number> {
  const { flags, config, help } = parseFlags(argv, FLAGS, DEFAULT_CONFIG);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { out } = flags;
  const backend = await initNodeBackend(config.backend);
  process.stderr.write(`backend: ${backend.describe}\n`);
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, '');
  }
  const write = (line: string) => (out ? appendFileSync(out, `${line}\n`) : process.stdout.write(`${line}\n`));
  const run = new TrainingRun(config, backend.advantageEngine(config.method));
  const progress = progressReporter(config.iters, process.stderr);
  try {
    const result = await run.run((record) => {
      write(recordToJson(record));
      progress.update(record);
    });
    progress.done();
    if (result.status === 'diverged') {
      process.stderr.write(`${result.message}\n`);
      return 1;
    }
    return 0;
  } finally {
    run.dispose();
    backend.close();
  }
}

runCommand(() => main(process.argv.slice(2)), USAGE);
