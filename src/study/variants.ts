/**
 * The study's variants: a variant is a method of the registry plus config overrides, with a name (the
 * `variant` field of study.json, the run keys) and a label (tables, charts). Every method of the registry
 * is a variant of its own name with no overrides; the few extra variants below and the ablations of
 * src/config.ts are the only others. Profiles (profile.ts) list variant names; nothing else pairs
 * methods with settings.
 */
import { ABLATIONS, type AblationName, type TrainConfig } from '../config.ts';
import { METHOD_NAMES, methodSpec, type Method } from '../methods/registry.ts';

/**
 * BEACON's released computation with a shipped config's settings (docs/maths.md §4, "released"): R_ms =
 * 10, mean normalisation, and the ALFWorld config's γ = 0.9, λ = 10. ALFWorld is the shipped config that
 * fits our tasks: GridHouse and TextHouse are ALFWorld-style household tasks (find, take, treat, place;
 * 3–6 milestones on long tasks, ALFWorld mean 6), and every paper figure the study compares with is an
 * ALFWorld figure. The WebShop / ScienceWorld config (γ = 0.95, λ = 1) is `beaconReleasedWebshop`, for
 * a profile that can afford both.
 */
export const RELEASED_ALFWORLD = { variant: 'released', rMs: 10, normalize: 'mean', gamma: 0.9, lambda: 10 } as const satisfies Partial<TrainConfig>;
export const RELEASED_WEBSHOP = { variant: 'released', rMs: 10, normalize: 'mean', gamma: 0.95, lambda: 1 } as const satisfies Partial<TrainConfig>;

interface ExtraVariant {
  method: Method;
  overrides: Partial<TrainConfig>;
  label: string;
  color: string;
}

/** Method variants beyond the registry's plain methods (docs/maths.md §4 released, §8 shaped rewards). */
const EXTRA_VARIANTS = {
  beaconReleased: { method: 'beacon', overrides: RELEASED_ALFWORLD, label: 'BEACON (released)', color: '#56b4e9' },
  beaconReleasedWebshop: { method: 'beacon', overrides: RELEASED_WEBSHOP, label: 'BEACON (released, WebShop config)', color: '#0072b2' },
  ppoShaped: { method: 'ppo', overrides: { shapedRewards: true }, label: 'PPO (shaped rewards)', color: '#cc79a7' },
} as const satisfies Record<string, ExtraVariant>;

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

export type VariantName = Method | keyof typeof EXTRA_VARIANTS | AblationName;

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

/** Every variant the study knows, in table order: the registry's methods, the extra variants, the ablations. */
export const VARIANT_SPECS: readonly VariantSpec[] = [
  ...METHOD_NAMES.map((m): VariantSpec => ({ name: m, method: m, overrides: {}, ablation: null, label: methodSpec(m).label, color: methodSpec(m).color.light.line })),
  ...(Object.entries(EXTRA_VARIANTS) as [keyof typeof EXTRA_VARIANTS, ExtraVariant][]).map(([name, v]): VariantSpec => ({ name, method: v.method, overrides: v.overrides, ablation: null, label: v.label, color: v.color })),
  ...(Object.keys(ABLATIONS) as AblationName[]).map((a): VariantSpec => ({ name: a, method: 'beacon', overrides: ABLATIONS[a], ablation: a, label: ABLATION_LABELS[a], color: ABLATION_COLORS[a] })),
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
