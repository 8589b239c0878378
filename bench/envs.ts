/**
 * Environment speed benchmark (`npm run bench:envs`): env-steps per second on one core at B = 256 with
 * uniformly random admissible actions, observation and action features written every step, resets
 * included. Task seeds come in GRPO groups of 8 equal seeds, as in training. Rates are given per second
 * of the process's CPU time (the one-core figure, which a busy machine does not distort much) and per
 * second of wall time. Prints figures; asserts nothing (timing is not a test). Targets:
 * GridHouse ≥ 1,000,000/s, TextHouse ≥ 200,000/s.
 *
 *   npm run bench:envs [-- --seconds 2] [-- --env gridhouse] [-- --horizon long]
 */
import { Rng } from '../src/prng.ts';
import { ENV_NAMES, HORIZONS, createEnv, type Horizon } from '../envs/index.ts';
import { randomAdmissibleActions } from '../envs/random-policy.ts';

const TARGETS: Record<string, number> = { gridhouse: 1_000_000, texthouse: 200_000 };
const B = 256;
const GROUP = 8;

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

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

const seconds = Number(flag('seconds') ?? 1);
const onlyEnv = flag('env');
const onlyHorizon = flag('horizon');
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
console.log('(per CPU-s: steps per second of this process\'s CPU time, the one-core figure; per wall-s drops when other work shares the core)');
