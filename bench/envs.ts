/**
 * Environment speed benchmark (`npm run bench:envs`): env-steps per second on one core at B = 256 with
 * uniformly random admissible actions, observation and action features written every step, resets
 * included. Task seeds come in GRPO groups of 8 equal seeds, as in training. Rates are given per second
 * of the process's CPU time (the one-core figure, which a busy machine does not distort much) and per
 * second of wall time. Prints figures; asserts nothing (timing is not a test). Targets: GridHouse
 * ≥ 1,000,000/s, TextHouse ≥ 200,000/s and Shop ≥ 500,000/s, so that stepping never slows training down.
 *
 *   npm run bench:envs [-- --seconds 2] [-- --env gridhouse] [-- --horizon long]
 */
import { Rng } from '../src/prng.ts';
import { ENV_NAMES, HORIZONS, createEnv, type Horizon } from '../envs/index.ts';
import { randomAdmissibleActions } from '../envs/random-policy.ts';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';

const TARGETS: Record<string, number> = { gridhouse: 1_000_000, texthouse: 200_000, shop: 500_000 };
const B = 256;
const GROUP = 8;

const FLAGS = {
  seconds: { kind: { type: 'number', min: 0.1, max: 600 }, doc: 'measuring time per row; default 1' },
  env: { kind: { type: 'enum', values: ENV_NAMES }, doc: 'only this environment' },
  horizon: { kind: { type: 'enum', values: HORIZONS }, doc: 'only this horizon' },
} as const;
const USAGE = `usage: npm run bench:envs [-- --seconds S] [-- --env E] [-- --horizon H]\n${flagsHelp(FLAGS)}`;

interface Rate {
  /** Steps per second of wall-clock time. */
  wall: number;
  /** Steps per second of this process's CPU time: the one-core figure, robust to a busy machine. */
  cpu: number;
}

/** Steps random episodes for about `seconds` and returns live env-steps per second. */
function measure(envName: string, horizon: Horizon, seconds: number): Rate {
  const env = createEnv(envName, { horizon, batchSize: B });
  const rng = new Rng(12345);
  const seeds = new Uint32Array(B);
  const actions = new Int32Array(B);
  let next = 0;
  const run = (budgetMs: number): Rate => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let counted = 0;
    while (performance.now() - t0 < budgetMs) {
      for (let b = 0; b < B; b++) seeds[b] = Math.floor((next + b) / GROUP);
      next += B;
      env.reset(seeds, rng);
      for (;;) {
        let live = 0;
        for (let b = 0; b < B; b++) live += 1 - env.done[b];
        if (live === 0) break;
        counted += live;
        randomAdmissibleActions(env, rng, actions);
        env.step(actions);
      }
    }
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    return { wall: counted / (wallMs / 1000), cpu: counted / ((cpu.user + cpu.system) / 1e6) };
  };
  run(Math.min(500, seconds * 300)); // warm up the JIT
  return run(seconds * 1000);
}

function main(): number {
  const { flags, help } = parseFlags(process.argv.slice(2), FLAGS);
  if (help) {
    console.log(USAGE);
    return 0;
  }
  const seconds = flags.seconds ?? 1;
  const onlyEnv = flags.env;
  const onlyHorizon = flags.horizon;
  const fmt = (x: number): string => Math.round(x).toLocaleString('en-US').padStart(11);
  console.log(`env-steps/s at B = ${B}, random admissible actions, features and resets included, seeds in groups of ${GROUP}`);
  console.log(`  ${'env'.padEnd(10)} ${'horizon'.padEnd(7)} ${'per CPU-s'.padStart(11)} ${'per wall-s'.padStart(11)}`);
  for (const name of ENV_NAMES) {
    if (onlyEnv !== undefined && name !== onlyEnv) continue;
    const target = TARGETS[name];
    for (const horizon of HORIZONS) {
      if (onlyHorizon !== undefined && horizon !== onlyHorizon) continue;
      const rate = measure(name, horizon, seconds);
      const verdict = target === undefined ? '' : `  target ${target.toLocaleString('en-US')}: ${rate.cpu >= target ? 'met' : 'NOT met'}`;
      console.log(`  ${name.padEnd(10)} ${horizon.padEnd(7)} ${fmt(rate.cpu)} ${fmt(rate.wall)}${verdict}`);
    }
  }
  console.log("(per CPU-s: steps per second of this process's CPU time, the one-core figure; per wall-s drops when other work shares the core)");
  return 0;
}

runCommand(main, USAGE);
