/**
 * The study's variants: a variant is a method of the registry plus config overrides, with a name (the
 * `variant` field of study.json, the run keys) and a label (tables, charts). Every method of the registry
 * is a variant of its own name with no overrides; the named variants that the page races too
 * (src/race/entries.ts, one table for both), the ablations of src/config.ts and the detector study's
 * arms (detector-variants.ts: a base variant plus one detector or teacher setting, pre-registration
 * amendment 2) are the only others. Profiles (profile.ts) list variant names; nothing else pairs methods with settings.
 */
import { ABLATIONS, type AblationName, type TrainConfig } from '../config.ts';
import { RACE_ENTRIES, type RaceEntryName } from '../race/entries.ts';
import { DETECTOR_VARIANTS, type DetectorVariantName } from './detector-variants.ts';
import type { Method } from '../methods/registry.ts';

// The released settings live with the race entries (src/race/entries.ts); re-exported for the study's readers.
export { RELEASED_ALFWORLD, RELEASED_WEBSHOP } from '../race/entries.ts';

const ABLATION_LABELS: Record<AblationName, string> = {
  gamma1: 'γ = 1',
  gamma0: 'γ = 0',
  randomSegments: 'random segments',
  milestoneDropout: 'milestone dropout 0.5',
  noTrajectoryTerm: 'no trajectory term',
  stepMean: 'stepMean baseline',
};

const ABLATION_COLORS: Record<AblationName, string> = {
  gamma1: '#ff7f0e',
  gamma0: '#2ca02c',
  randomSegments: '#9467bd',
  milestoneDropout: '#8c564b',
  noTrajectoryTerm: '#e377c2',
  stepMean: '#17becf',
};

export type VariantName = RaceEntryName | AblationName | DetectorVariantName;

export interface VariantSpec {
  name: VariantName;
  method: Method;
  /** Applied after the method's `configFor` (src/methods/method.ts). */
  overrides: Partial<TrainConfig>;
  /** The ablation's name when the variant is one of src/config.ts `ABLATIONS`, else null. */
  ablation: AblationName | null;
  label: string;
  color: string;
}

/**
 * Every variant the study knows, in table order: the page's race entries (the registry's methods, then
 * the named variants of src/race/entries.ts, with their light-page line colour), the ablations, then the
 * detector study's arms.
 */
export const VARIANT_SPECS: readonly VariantSpec[] = [
  ...RACE_ENTRIES.map(
    (e): VariantSpec => ({ name: e.name, method: e.method, overrides: e.overrides, ablation: null, label: e.label, color: e.color.light.line }),
  ),
  ...(Object.keys(ABLATIONS) as AblationName[]).map(
    (a): VariantSpec => ({ name: a, method: 'beacon', overrides: ABLATIONS[a], ablation: a, label: ABLATION_LABELS[a], color: ABLATION_COLORS[a] }),
  ),
  ...DETECTOR_VARIANTS.map((d): VariantSpec => ({ name: d.name, method: d.method, overrides: d.overrides, ablation: null, label: d.label, color: d.color })),
];

export const VARIANT_NAMES: readonly VariantName[] = VARIANT_SPECS.map((v) => v.name);

export function isVariant(name: string): name is VariantName {
  return VARIANT_NAMES.includes(name as VariantName);
}

export function variantSpec(name: VariantName): VariantSpec {
  const v = VARIANT_SPECS.find((s) => s.name === name);
  if (!v) throw new RangeError(`unknown study variant ${JSON.stringify(name)}; known: ${VARIANT_NAMES.join(', ')}`);
  return v;
}

export function variantLabel(name: VariantName): string {
  return variantSpec(name).label;
}

export function variantColor(name: VariantName): string {
  return variantSpec(name).color;
}

/** Every ablation variant's name. */
export const ABLATION_VARIANTS: readonly VariantName[] = Object.keys(ABLATIONS) as AblationName[];

/**
 * The released BEACON as the released code ships it for an environment (docs/maths.md §4): the WebShop
 * config on the shop (page transitions), the ALFWorld config on the household environments (object states).
 */
export function releasedVariantFor(env: string): VariantName {
  return env === 'shop' ? 'beaconReleasedWebshop' : 'beaconReleased';
}
