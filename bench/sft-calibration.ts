/**
 * `npx tsx bench/sft-calibration.ts [-- --env E --episodes 0,6,160 --seeds 3 --json --any-setting v]`: how strong the SFT
 * prior is for each count of oracle episodes: the success and partial success of the starting policy
 * (iteration 0, measured on the evaluation stream) on long tasks at the page defaults, per seed. The
 * `auto` counts of src/trainer/sft-prior.ts were chosen from its output: first-iteration success of a
 * few percent, as in the paper's regime. Prints figures; asserts nothing.
 */
import { ENV_NAMES } from '../envs/index.ts';
import { PAGE_DEFAULT_CONFIG } from '../src/page/page-defaults.ts';
import { TrainingRun } from '../src/trainer/run.ts';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { initNodeBackend } from '../cli/node-backend.ts';

const FLAGS = {
  env: { kind: { type: 'enum', values: ENV_NAMES }, doc: 'only this environment' },
  episodes: { kind: { type: 'list', min: 0, max: 4096 }, doc: 'prior sizes to measure; default 0,6,160' },
  seeds: { kind: { type: 'int', min: 1, max: 20 }, doc: 'seeds 1…N per size; default 3' },
  json: { kind: 'switch', doc: 'one JSON object per line' },
} as const;
const BASE = { ...PAGE_DEFAULT_CONFIG, horizon: 'long', method: 'grpo', backend: 'wasm' } as const;
const USAGE = `usage: npx tsx bench/sft-calibration.ts [-- flags]\n${flagsHelp(FLAGS, BASE)}`;

async function main(): Promise<number> {
  const { flags, config: base, help } = parseFlags(process.argv.slice(2), FLAGS, BASE);
  if (help) {
    console.log(USAGE);
    return 0;
  }
  const backend = await initNodeBackend('wasm');
  for (const env of flags.env ? [flags.env] : ENV_NAMES) {
    for (const episodes of flags.episodes ?? [0, 6, 160]) {
      for (let seed = 1; seed <= (flags.seeds ?? 3); seed++) {
        const config = { ...base, env, seed, sftEpisodes: episodes };
        const t0 = performance.now();
        const run = new TrainingRun(config, backend.advantageEngine('grpo'));
        const r = await run.evaluateStart();
        run.dispose();
        const row = { env, episodes, seed, success: r.success, partial: r.partial, seconds: (performance.now() - t0) / 1000 };
        console.log(
          flags.json
            ? JSON.stringify(row)
            : `${env.padEnd(10)} ${String(episodes).padStart(5)} episodes · seed ${seed} · success ${(100 * r.success).toFixed(1)}% · partial ${(100 * r.partial).toFixed(1)}% · ${row.seconds.toFixed(1)} s`,
        );
      }
    }
  }
  return 0;
}

runCommand(main, USAGE);
