/**
 * Flags of the environment command line (cli/envs.ts), parsed and checked apart from running anything so
 * that tests can check every rejection in-process. A bad flag is a UsageError naming the flag and the
 * values it allows; the command line turns it into exit code 2.
 */
import { ENV_NAMES, HORIZONS, type Horizon } from '../envs/index.ts';
import { POLICIES, type PolicyName } from '../envs/stats.ts';
import { flagsHelp, parseFlags, UsageError } from './flags.ts';

const FLAGS = {
  env: { kind: { type: 'enum', values: ENV_NAMES }, required: true, doc: 'environment' },
  horizon: { kind: { type: 'enum', values: HORIZONS }, required: true, doc: 'task length' },
  policy: { kind: { type: 'enum', values: POLICIES }, doc: 'random (uniform over admissible actions) or oracle; default random' },
  episodes: { kind: { type: 'int', min: 1, max: 1_000_000 }, doc: 'episodes to play; default 1000' },
  seed: { kind: { type: 'int', min: 0, max: 0xffffffff }, doc: 'seed of the task stream and the policy; default 1' },
  batch: { kind: { type: 'int', min: 1, max: 4096 }, doc: 'episodes stepped together; default 256' },
  dropout: { kind: { type: 'number', min: 0, max: 1 }, doc: 'milestone dropout probability; default 0' },
  json: { kind: 'switch', doc: 'print one JSON object instead of a table' },
} as const;

export const USAGE = `usage: npm run -s envs -- stats --env <${ENV_NAMES.join('|')}> --horizon <${HORIZONS.join('|')}> [flags]\n${flagsHelp(FLAGS)}`;

export interface EnvsFlags {
  env: string;
  horizon: Horizon;
  policy: PolicyName;
  episodes: number;
  seed: number;
  batch: number;
  dropout: number;
  json: boolean;
}

/** Parses `stats` and its flags; null for --help. */
export function parseEnvsArgs(argv: string[]): EnvsFlags | null {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h') return null;
  if (command !== 'stats') {
    throw new UsageError(
      command === undefined ? 'missing command (the only command is "stats")' : `unknown command ${JSON.stringify(command)} (the only command is "stats")`,
    );
  }
  const { flags, help } = parseFlags(rest, FLAGS);
  if (help) return null;
  return {
    env: flags.env!,
    horizon: flags.horizon!,
    policy: flags.policy ?? 'random',
    episodes: flags.episodes ?? 1000,
    seed: flags.seed ?? 1,
    batch: flags.batch ?? 256,
    dropout: flags.dropout ?? 0,
    json: flags.json === true,
  };
}
