/**
 * Race entries: what the page races and the study runs. An entry is a method of the registry plus config
 * overrides, with a name (URL `methods=`, panel keys, the study's `variant` field and run keys), a label
 * and a page colour. Every registry method is an entry of its own name with no overrides; the named
 * variants below are the only others, so the page and the study share this one table and the registry
 * stays the only list of methods (a variant's maths is always its method's).
 */
import type { RaceConfig, TrainConfig } from '../config.ts';
import type { MethodColor } from '../methods/method.ts';
import { ALL_METHOD_NAMES, METHOD_NAMES, methodSpec, type Method } from '../methods/registry.ts';

/**
 * BEACON's released computation with a shipped config's settings (docs/maths.md §4, "released"): R_ms =
 * 10, mean normalisation, and the ALFWorld config's γ = 0.9, λ = 10. ALFWorld is the shipped config that
 * fits our tasks: GridHouse and TextHouse are ALFWorld-style household tasks (find, take, treat, place;
 * 3–6 milestones on long tasks, ALFWorld mean 6), and every paper figure the study compares with is an
 * ALFWorld figure. The released code's other shipped config (γ = 0.95, λ = 1, shipped for WebShop and
 * ScienceWorld) is `beaconReleasedWebshop`, for a study profile that can afford both. Labels name a
 * config by its settings, never by an environment: the study runs both on GridHouse and TextHouse, so a
 * label saying "WebShop" would promise an environment the run is not in. The key `beaconReleasedWebshop`
 * stays as stored (old `?methods=` links and the committed docs/results/study.json name it).
 */
export const RELEASED_ALFWORLD = { variant: 'released', rMs: 10, normalize: 'mean', gamma: 0.9, lambda: 10 } as const satisfies Partial<TrainConfig>;
export const RELEASED_WEBSHOP = { variant: 'released', rMs: 10, normalize: 'mean', gamma: 0.95, lambda: 1 } as const satisfies Partial<TrainConfig>;

interface NamedVariant {
  method: Method;
  overrides: Partial<TrainConfig>;
  label: string;
  /** One line for the picker and the explainer: what differs from the method. */
  description: string;
  /**
   * Page colour, told apart by hue and lightness from its own method and GRPO (what it races against):
   * the released variant is neutral grey (Okabe–Ito's black, lightened for dark pages) beside BEACON's
   * blue; the others take Paul Tol's colour-blind-safe teal and indigo, which no registry method uses.
   */
  color: MethodColor;
}

/** Method variants beyond the registry's plain methods (docs/maths.md §4 released, §8 shaped rewards). */
export const NAMED_VARIANTS = {
  beaconReleased: {
    method: 'beacon',
    overrides: RELEASED_ALFWORLD,
    label: 'BEACON (released)',
    description:
      'BEACON as the released code computes it, with the config it ships for ALFWorld (run here on the environment chosen): γ = 0.9, λ = 10, R_ms = 10, mean normalisation, step-row statistics.',
    color: { light: { line: '#4d4d4d', ink: '#3d3d3d' }, dark: { line: '#cfcfcf', ink: '#dadada' } },
  },
  beaconReleasedWebshop: {
    method: 'beacon',
    overrides: RELEASED_WEBSHOP,
    label: 'BEACON (released, γ = 0.95, λ = 1)',
    description:
      'BEACON as the released code computes it, with the config it ships for WebShop and ScienceWorld (run here on the environment chosen): γ = 0.95, λ = 1, R_ms = 10, mean normalisation, step-row statistics.',
    color: { light: { line: '#1b7f79', ink: '#16696a' }, dark: { line: '#44aa99', ink: '#5cc0ae' } },
  },
  ppoShaped: {
    method: 'ppo',
    overrides: { shapedRewards: true },
    label: 'PPO (shaped rewards)',
    description: 'PPO with a learned critic whose rewards include R_ms at each milestone step: milestones as reward shaping instead of credit.',
    color: { light: { line: '#332288', ink: '#332288' }, dark: { line: '#a99be8', ink: '#b8adf0' } },
  },
} as const satisfies Record<string, NamedVariant>;

export type NamedVariantName = keyof typeof NAMED_VARIANTS;
export type RaceEntryName = Method | NamedVariantName;

export interface RaceEntry {
  name: RaceEntryName;
  /** The registry method whose maths the entry runs (credit parts, rollout needs, learner, kernels). */
  method: Method;
  /** Applied after the method's `configFor`: they override the shared settings for this entry only. */
  overrides: Partial<TrainConfig>;
  label: string;
  description: string;
  color: MethodColor;
}

const plainEntry = (m: Method): RaceEntry => {
  const s = methodSpec(m);
  return { name: m, method: m, overrides: {}, label: s.label, description: s.description, color: s.color };
};

/**
 * Every entry, in picker order: the registry's built-in methods, the named variants, then the methods
 * that run the visitor's own code ("Your estimator", src/estimator/).
 */
export const RACE_ENTRIES: readonly RaceEntry[] = [
  ...METHOD_NAMES.map(plainEntry),
  ...(Object.entries(NAMED_VARIANTS) as [NamedVariantName, NamedVariant][]).map(([name, v]): RaceEntry => ({ name, ...v })),
  ...ALL_METHOD_NAMES.filter((m) => !METHOD_NAMES.includes(m)).map(plainEntry),
];

export const RACE_ENTRY_NAMES: readonly RaceEntryName[] = RACE_ENTRIES.map((e) => e.name);

export function isRaceEntry(name: string): name is RaceEntryName {
  return RACE_ENTRY_NAMES.includes(name as RaceEntryName);
}

/** The entry of `name`; a RangeError naming the known entries for any other name. */
export function raceEntry(name: string): RaceEntry {
  const e = RACE_ENTRIES.find((x) => x.name === name);
  if (!e) throw new RangeError(`race entry must be one of ${RACE_ENTRY_NAMES.join(', ')}; got ${JSON.stringify(name)}`);
  return e;
}

/** An entry's training config: the method's own config from the shared one, then the entry's overrides. */
export function entryConfig(name: string, shared: RaceConfig): TrainConfig {
  return configOfEntry(raceEntry(name), shared);
}

/** `entryConfig` for an entry already resolved (the worker resolves its entry once, when `init` arrives). */
export function configOfEntry(e: RaceEntry, shared: RaceConfig): TrainConfig {
  return { ...methodSpec(e.method).configFor({ ...shared, method: e.method }), ...e.overrides };
}

/** The overrides as "γ = 0.9, λ = 10, …" for a panel header: the settings this entry runs instead of the shared ones. */
export function describeOverrides(overrides: Partial<TrainConfig>): string {
  const symbols: Partial<Record<keyof TrainConfig, string>> = { gamma: 'γ', lambda: 'λ', rMs: 'R_ms', omega: 'ω' };
  return Object.entries(overrides)
    .map(([k, v]) => `${symbols[k as keyof TrainConfig] ?? k} = ${String(v)}`)
    .join(', ');
}
