/**
 * Registry of environments: each name maps to its entry, which carries the factory and every fact
 * specific to the environment (display name, SFT prior size, the study's timing profile, how the
 * episode view draws it). The URL and the CLI store these keys; a new environment is one folder plus
 * one line here.
 */
import type { EnvEntry } from './entry.ts';
import { GRIDHOUSE } from './gridhouse/entry.ts';
import { SHOP } from './shop/entry.ts';
import { TEXTHOUSE } from './texthouse/entry.ts';
import type { EnvOptions, VecEnv } from './types.ts';

const ENVS = {
  gridhouse: GRIDHOUSE,
  texthouse: TEXTHOUSE,
  shop: SHOP,
} satisfies Record<string, EnvEntry>;

export type EnvName = keyof typeof ENVS;
export const ENV_NAMES = Object.keys(ENVS) as EnvName[];

function isEnvName(name: string): name is EnvName {
  return Object.hasOwn(ENVS, name);
}

/** The entry of a registered environment; a RangeError naming the known environments for any other name. */
export function envEntry(name: string): EnvEntry {
  if (!isEnvName(name)) throw new RangeError(`env must be one of ${ENV_NAMES.join(', ')}; got ${JSON.stringify(name)}`);
  return ENVS[name];
}

export function createEnv(name: string, options: EnvOptions): VecEnv {
  return envEntry(name).create(options);
}

export type { EnvEntry, EpisodeView } from './entry.ts';
export * from './types.ts';
