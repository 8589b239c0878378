/**
 * Headless training: `npm run -s train -- --env gridhouse --horizon long --method beacon --iters 200
 *   --seed 1 --backend wasm --out runs/beacon.jsonl [any config field as --name value]`.
 *
 * Writes one JSON line per iteration (to --out, else stdout) and shows progress on stderr: a bar on a
 * terminal, plain lines otherwise. Bad flags exit with 2; a non-finite loss stops the run with exit 1,
 * the policy keeping its last good weights.
 */
import { mkdirSync, writeFileSync, appendFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_CONFIG } from '../src/config.ts';
import { NonFiniteLossError } from '../src/trainer/ppo.ts';
import { recordToJson } from '../src/trainer/iteration-record.ts';
import { Trainer } from '../src/trainer/trainer.ts';
import { configHelp, parseConfigFlags, UsageError } from './config-flags.ts';
import { initNodeBackend } from './node-backend.ts';
import { progressReporter } from './progress.ts';

const USAGE = `usage: npm run -s train -- [--name value …] [--out FILE]\n${configHelp()}\n  --out FILE           write the JSON lines to FILE instead of stdout`;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseConfigFlags(argv, DEFAULT_CONFIG, { out: true, help: false });
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (parsed.extra.has('help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { config } = parsed;
  const out = parsed.extra.get('out');
  const backend = await initNodeBackend(config.backend);
  process.stderr.write(`backend: ${backend.describe}\n`);
  if (out) {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, '');
  }
  const write = (line: string) => (out ? appendFileSync(out, `${line}\n`) : process.stdout.write(`${line}\n`));
  const trainer = new Trainer(config, backend.advantageEngine());
  const progress = progressReporter(config.iters, process.stderr);
  try {
    for (let i = 0; i < config.iters; i++) {
      const record = await trainer.step();
      write(recordToJson(record));
      progress.update(record);
    }
  } catch (e) {
    if (e instanceof NonFiniteLossError) {
      progress.done();
      process.stderr.write(`training stopped at iteration ${trainer.iteration + 1}: ${e.message}\n`);
      return 1;
    }
    throw e;
  } finally {
    trainer.dispose();
    backend.close();
  }
  progress.done();
  return 0;
}

main(process.argv.slice(2)).then((code) => process.exit(code), (e) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exit(1);
});
