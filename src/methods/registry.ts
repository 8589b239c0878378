/**
 * The one method registry: names map to method specs (method.ts). The trainer, the page, the command
 * line, the study and the advantage calculator enumerate it; none of them lists methods itself.
 */
import type { AdvantageBatch, AdvantageResult, AdvantageSettings } from '../advantages/types.ts';
import { beacon } from './beacon.ts';
import { custom } from './custom.ts';
import { gigpo } from './gigpo.ts';
import { grpo } from './grpo.ts';
import type { MethodSpec } from './method.ts';
import { ppo } from './ppo.ts';
import { sft } from './sft.ts';

export const METHODS = {
  grpo,
  beacon,
  gigpo,
  ppo,
  sft,
  custom,
} as const satisfies Record<string, MethodSpec>;

export type Method = keyof typeof METHODS;
/** Every method, those that run a visitor's code included (the config's `method` values). */
export const ALL_METHOD_NAMES = Object.keys(METHODS) as Method[];
/** The built-in methods: every method that trains without a visitor's code. */
export const METHOD_NAMES = ALL_METHOD_NAMES.filter((m) => !METHODS[m].visitorCode);

/** The race the page opens with: the paper's baseline against BEACON. */
export const DEFAULT_RACE: readonly Method[] = ['grpo', 'beacon'];

/** The spec of a registered method; a RangeError naming the known methods for any other name. */
export function methodSpec(name: string): MethodSpec {
  if (!isMethod(name)) throw new RangeError(`method must be one of ${ALL_METHOD_NAMES.join(', ')}; got ${JSON.stringify(name)}`);
  return METHODS[name];
}

export function isMethod(name: string): name is Method {
  return Object.hasOwn(METHODS, name);
}

/** A batch's advantages by the estimator of `settings.method` (the CPU reference). */
export function estimateAdvantages(batch: AdvantageBatch, settings: AdvantageSettings): AdvantageResult {
  return methodSpec(settings.method).estimate(batch, settings);
}

export type { MethodSpec } from './method.ts';
