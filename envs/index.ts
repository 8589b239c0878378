/**
 * Registry of environments: names map to factories. The URL and the CLI store these keys.
 */
import type { EnvFactory, EnvOptions, VecEnv } from './types.ts';
import { createGridHouse } from './gridhouse/gridhouse.ts';
import { createTextHouse } from './texthouse/texthouse.ts';
import { createShop } from './shop/shop.ts';

const ENVS = {
  gridhouse: createGridHouse,
  texthouse: createTextHouse,
  shop: createShop,
} satisfies Record<string, EnvFactory>;

export type EnvName = keyof typeof ENVS;
export const ENV_NAMES = Object.keys(ENVS) as EnvName[];

function isEnvName(name: string): name is EnvName {
  return Object.prototype.hasOwnProperty.call(ENVS, name);
}

export function createEnv(name: string, options: EnvOptions): VecEnv {
  if (!isEnvName(name)) throw new RangeError(`env must be one of ${ENV_NAMES.join(', ')}; got ${JSON.stringify(name)}`);
  return ENVS[name](options);
}

export * from './types.ts';
export type { ShopFrame } from './shop/text.ts';
