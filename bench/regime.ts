/**
 * `npm run bench:regime [-- --iters 30 --seeds 5 --env E --out docs/results/regime.json]`: is the race
 * in the paper's regime? At the page defaults (long tasks, the auto SFT prior, the same budget and
 * settings for every method, nothing tuned per method), per environment, method and seed: success of the
 * starting policy (iteration 0), of the first 3 iterations, of the last 5, and iterations to 60%
 * (src/metrics/iterations-to-target.ts). The paper's regime: GRPO starts low but above 0 and learns;
 * BEACON learns faster. Prints a table and writes every record; asserts nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ENV_NAMES } from '../envs/index.ts';
import { DEFAULT_RACE, methodSpec } from '../src/methods/registry.ts';
import { itersToTarget } from '../src/metrics/iterations-to-target.ts';
import { methodConfig } from '../src/page/method-configs.ts';
import { PAGE_DEFAULT_CONFIG } from '../src/page/page-defaults.ts';
import { TrainingRun } from '../src/trainer/run.ts';
import { priorEpisodes } from '../src/trainer/prior-size.ts';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { initNodeBackend } from '../cli/node-backend.ts';

const FLAGS = {
  env: { kind: { type: 'enum', values: ENV_NAMES }, doc: 'only this environment' },
  seeds: { kind: { type: 'int', min: 1, max: 20 }, doc: 'seeds 1…N; default 5' },
  iters: { kind: { type: 'int', min: 5, max: 1000 }, doc: 'iterations per run; default 30' },
  out: { kind: 'string', doc: 'JSON file for every run’s figures; default docs/results/regime.json' },
} as const;
const USAGE = `usage: npm run bench:regime [-- flags]\n${flagsHelp(FLAGS)}`;

const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

async function main(): Promise<number> {
  const { flags, help } = parseFlags(process.argv.slice(2), FLAGS);
  if (help) {
    console.log(USAGE);
    return 0;
  }
  const seeds = flags.seeds ?? 5;
  const iters = flags.iters ?? 30;
  const backend = await initNodeBackend('wasm');
  const runs: Record<string, unknown>[] = [];
  for (const env of flags.env ? [flags.env] : ENV_NAMES) {
    for (const method of DEFAULT_RACE) {
      for (let seed = 1; seed <= seeds; seed++) {
        const config = methodConfig(method, { ...PAGE_DEFAULT_CONFIG, env, seed, iters, backend: 'wasm' });
        const t0 = performance.now();
        const run = new TrainingRun(config, backend.advantageEngine(method));
        const start = (await run.evaluateStart()).success;
        const success: number[] = [];
        await run.run((r) => void success.push(r.success));
        run.dispose();
        const row = {
          env,
          method,
          seed,
          priorEpisodes: priorEpisodes(config),
          iteration0: start,
          first3: mean(success.slice(0, 3)),
          last5: mean(success.slice(-5)),
          itersTo60: itersToTarget(success),
          seconds: (performance.now() - t0) / 1000,
          success,
        };
        runs.push(row);
        process.stderr.write(
          `${env} ${methodSpec(method).label} seed ${seed}: start ${(100 * start).toFixed(1)}%, first 3 ${(100 * row.first3).toFixed(1)}%, last 5 ${(100 * row.last5).toFixed(1)}%, to 60% ${row.itersTo60 ?? 'never'} (${row.seconds.toFixed(0)} s)\n`,
        );
      }
    }
  }
  const out = flags.out ?? 'docs/results/regime.json';
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ command: `npm run bench:regime -- ${process.argv.slice(2).join(' ')}`.trim(), settings: { ...PAGE_DEFAULT_CONFIG, iters, seeds }, runs }, null, 1)}\n`,
  );
  console.log(
    `| env | method | prior episodes | iteration 0 | iterations 1–3 | last 5 of ${iters} | iterations to 60% (per seed) |\n| --- | --- | --- | --- | --- | --- | --- |`,
  );
  for (const env of flags.env ? [flags.env] : ENV_NAMES) {
    for (const method of DEFAULT_RACE) {
      const sel = runs.filter((r) => r.env === env && r.method === method) as {
        iteration0: number;
        first3: number;
        last5: number;
        itersTo60: number | null;
        priorEpisodes: number;
      }[];
      const pct = (xs: number[]) => `${(100 * mean(xs)).toFixed(1)}% (${xs.map((x) => (100 * x).toFixed(0)).join(', ')})`;
      console.log(
        `| ${env} | ${methodSpec(method).label} | ${sel[0].priorEpisodes} | ${pct(sel.map((r) => r.iteration0))} | ${pct(sel.map((r) => r.first3))} | ${pct(sel.map((r) => r.last5))} | ${sel.map((r) => r.itersTo60 ?? 'never').join(', ')} |`,
      );
    }
  }
  console.log(`(wrote ${out})`);
  backend.close();
  return 0;
}

runCommand(main, USAGE);
