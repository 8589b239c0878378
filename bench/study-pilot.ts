/**
 * `npx tsx bench/study-pilot.ts [--iters 4 --env E --horizon H --quick]`: what one study run costs, per
 * env, horizon and method variant of the study profile, at the profile's batch and width (seed 1, one
 * thread): seconds to build the SFT prior and measure iteration 0, then seconds per iteration and per
 * 1000 env steps over the first iterations, and the mean episode length. The study's budget and its
 * ETA prior (src/study/profile.ts) come from this output. Prints one line per variant (--json: JSON).
 */
import { ENV_NAMES, HORIZONS } from '../envs/index.ts';
import { runConfig, runSpec, stepBudget } from '../src/study/matrix.ts';
import { PROFILES } from '../src/study/profile.ts';
import { TrainingRun } from '../src/trainer/run.ts';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { initNodeBackend } from '../cli/node-backend.ts';

const FLAGS = {
  env: { kind: { type: 'enum', values: ENV_NAMES }, doc: 'only this environment' },
  horizon: { kind: { type: 'enum', values: HORIZONS }, doc: 'only this horizon' },
  iters: { kind: { type: 'int', min: 1, max: 100 }, doc: 'iterations per variant; default 4' },
  quick: { kind: 'switch', doc: 'the quick profile’s budget' },
  json: { kind: 'switch', doc: 'one JSON object per line' },
} as const;
const USAGE = `usage: npx tsx bench/study-pilot.ts [flags]\n${flagsHelp(FLAGS)}`;

async function main(): Promise<number> {
  const { flags, help } = parseFlags(process.argv.slice(2), FLAGS);
  if (help) {
    console.log(USAGE);
    return 0;
  }
  const profile = flags.quick ? PROFILES.quick : PROFILES.full;
  const iters = flags.iters ?? 4;
  const backend = await initNodeBackend('wasm');
  for (const env of flags.env ? [flags.env] : profile.envs) {
    for (const horizon of flags.horizon ? [flags.horizon] : profile.horizons) {
      for (const variant of profile.variants) {
        const spec = runSpec(env, horizon, variant, 1);
        const config = { ...runConfig(spec, profile.budget), iters };
        const run = new TrainingRun(config, backend.advantageEngine(config.method));
        const t0 = performance.now();
        await run.evaluateStart();
        const startSeconds = (performance.now() - t0) / 1000;
        let steps = 0;
        let ms = 0;
        const split = { rollout: 0, advantage: 0, update: 0, critic: 0 };
        const t1 = performance.now();
        await run.run((r) => {
          steps += r.envSteps;
          for (const k of Object.keys(split) as (keyof typeof split)[]) split[k] += r.ms[k] ?? 0;
        });
        ms = performance.now() - t1;
        run.dispose();
        const row = {
          env,
          horizon,
          variant,
          startSeconds,
          secondsPerIteration: ms / 1000 / iters,
          secondsPerKiloStep: ms / steps,
          meanEpisodeLength: steps / iters / (config.tasksPerIteration * config.groupSize),
          budgetSteps: stepBudget(spec, profile.budget),
          split: Object.fromEntries(Object.entries(split).map(([k, v]) => [k, +(v / steps).toFixed(4)])),
        };
        console.log(
          flags.json
            ? JSON.stringify(row)
            : `${env} ${horizon.padEnd(6)} ${variant.padEnd(16)} start ${startSeconds.toFixed(1)} s · ${row.secondsPerIteration.toFixed(2)} s/it · ${row.secondsPerKiloStep.toFixed(3)} s/1k steps · episode ${row.meanEpisodeLength.toFixed(1)} · split ms/step ${JSON.stringify(row.split)}`,
        );
      }
    }
  }
  backend.close();
  return 0;
}

runCommand(main, USAGE);
