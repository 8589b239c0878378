/**
 * Flags of the environment command line (cli/envs.ts), parsed and checked apart from running anything so
 * that tests can check every rejection in-process. A bad flag is a UsageError naming the flag and the
 * values it allows; the command line turns it into exit code 2.
 */
import { ENV_NAMES, HORIZONS, type Horizon } from '../envs/index.ts';
import { POLICIES, type PolicyName } from '../envs/stats.ts';

export const USAGE = `usage: npm run -s envs -- stats --env <${ENV_NAMES.join('|')}> --horizon <${HORIZONS.join('|')}>
         [--policy <random|oracle>] [--episodes N] [--seed S] [--batch B] [--dropout P] [--json]

  --env        environment (required)
  --horizon    task length (required)
  --policy     random (uniform over admissible actions) or oracle; default random
  --episodes   integer in [1, 1000000]; default 1000
  --seed       integer in [0, 4294967295]; default 1
  --batch      episodes stepped together, integer in [1, 4096]; default 256
  --dropout    milestone dropout probability in [0, 1]; default 0
  --json       print one JSON object instead of a table`;

export class UsageError extends Error {}

export interface EnvsFlags {
  env: string;
  /** '' until given; parseEnvsArgs requires it. */
  horizon: Horizon | '';
  policy: PolicyName;
  episodes: number;
  seed: number;
  batch: number;
  dropout: number;
  json: boolean;
}

function integerFlag(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be an integer in [${min}, ${max}]; got ${JSON.stringify(raw)}`);
  }
  return value;
}

function choiceFlag(name: string, raw: string, allowed: readonly string[]): string {
  if (!allowed.includes(raw)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(raw)}`);
  return raw;
}

export function parseEnvsArgs(argv: string[]): EnvsFlags {
  const [command, ...rest] = argv;
  if (command !== 'stats') {
    throw new UsageError(command === undefined ? 'missing command (the only command is "stats")' : `unknown command ${JSON.stringify(command)} (the only command is "stats")`);
  }
  const flags: EnvsFlags = { env: '', horizon: '', policy: 'random', episodes: 1000, seed: 1, batch: 256, dropout: 0, json: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}; flags start with --`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (name === 'json') {
      if (eq >= 0) throw new UsageError('--json takes no value');
      flags.json = true;
      continue;
    }
    const known = ['env', 'horizon', 'policy', 'episodes', 'seed', 'batch', 'dropout'];
    if (!known.includes(name)) throw new UsageError(`unknown flag --${name}; allowed: ${[...known, 'json'].map((k) => `--${k}`).join(', ')}`);
    let raw: string;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else {
      if (i + 1 >= rest.length) throw new UsageError(`--${name} needs a value`);
      raw = rest[++i];
    }
    switch (name) {
      case 'env':
        flags.env = choiceFlag(name, raw, ENV_NAMES);
        break;
      case 'horizon':
        flags.horizon = choiceFlag(name, raw, HORIZONS) as Horizon;
        break;
      case 'policy':
        flags.policy = choiceFlag(name, raw, POLICIES) as PolicyName;
        break;
      case 'episodes':
        flags.episodes = integerFlag(name, raw, 1, 1_000_000);
        break;
      case 'seed':
        flags.seed = integerFlag(name, raw, 0, 0xffffffff);
        break;
      case 'batch':
        flags.batch = integerFlag(name, raw, 1, 4096);
        break;
      case 'dropout': {
        const p = Number(raw);
        if (raw.trim() === '' || !(p >= 0 && p <= 1)) throw new UsageError(`--dropout must be a number in [0, 1]; got ${JSON.stringify(raw)}`);
        flags.dropout = p;
        break;
      }
    }
  }
  if (flags.env === '') throw new UsageError(`--env is required (one of ${ENV_NAMES.join(', ')})`);
  if (flags.horizon === '') throw new UsageError(`--horizon is required (one of ${HORIZONS.join(', ')})`);
  return flags;
}
