/**
 * The detector study's arms (docs/results/preregistration.md, amendment 2; the settings are docs/maths.md
 * §6's): a base variant (BEACON as the paper writes it, the released BEACON in each of its two shipped
 * configs, shaped-reward PPO, GRPO, SFT) plus one detector or teacher setting, each a config override and
 * nothing else. variants.ts joins these to the study's one table of variants; profile.ts says which run.
 *
 * **The false-alarm levels** are set against how often a task milestone fires per step on the long
 * horizon (`npm run -s envs -- stats --horizon long --episodes 300 --json`, seed 1): a uniformly random
 * policy completes 0.014 milestones per step in GridHouse (1.77 in 128 steps), 0.015 in TextHouse (0.77 in
 * 50) and 0.031 in the shop (0.47 in 15.1); the oracle 0.17, 0.72 and 0.73. At 2% per step a false fire is
 * about as frequent as a real one for an early policy (≈ 2.6 false fires in a 128-step GridHouse failure);
 * at 10% false fires outnumber an early policy's real milestones five- to sevenfold, and in GridHouse a
 * failing episode (12.8 expected false fires) shows more "milestones" than the task has (6).
 * **The teacher levels**: 10% and 30% random admissible actions, a careful and a sloppy demonstrator.
 */
import { ABLATIONS, type TrainConfig } from '../config.ts';
import { NAMED_VARIANTS } from '../race/entries.ts';
import type { Method } from '../methods/registry.ts';

export const FALSE_ALARMS_LOW = 0.02;
export const FALSE_ALARMS_HIGH = 0.1;
export const MILESTONE_DELAY = 2;
export const MILESTONE_STRIDE = 2;
export const DEMO_NOISE_LOW = 0.1;
export const DEMO_NOISE_HIGH = 0.3;

const percent = (x: number) => `${Math.round(x * 100)}%`;

/** The detector settings, each a set of overrides applied to Φ's output before any method sees it (§6). */
export const DETECTOR_SETTINGS = {
  FalseAlarmsLow: { overrides: { milestoneFalseAlarms: FALSE_ALARMS_LOW }, label: `${percent(FALSE_ALARMS_LOW)} false alarms` },
  FalseAlarmsHigh: { overrides: { milestoneFalseAlarms: FALSE_ALARMS_HIGH }, label: `${percent(FALSE_ALARMS_HIGH)} false alarms` },
  Loose: { overrides: { looseMilestones: true }, label: 'loose detector' },
  LooseNoTrajectory: { overrides: { looseMilestones: true, ...ABLATIONS.noTrajectoryTerm }, label: 'loose detector, no trajectory term' },
  Delay: { overrides: { milestoneDelay: MILESTONE_DELAY }, label: `milestones ${MILESTONE_DELAY} steps late` },
  Stride: { overrides: { milestoneStride: MILESTONE_STRIDE }, label: `milestone stride ${MILESTONE_STRIDE}` },
  Fine: { overrides: { fineMilestones: true }, label: 'fine detector' },
} as const satisfies Record<string, { overrides: Partial<TrainConfig>; label: string }>;
export type DetectorSetting = keyof typeof DETECTOR_SETTINGS;

/** Every detector setting; the released BEACON and shaped-reward PPO run all but the loose one without the trajectory term (theirs is not the paper's term). */
export const DETECTOR_SETTING_NAMES = Object.keys(DETECTOR_SETTINGS) as DetectorSetting[];
const BASELINE_SETTINGS = DETECTOR_SETTING_NAMES.filter((s) => s !== 'LooseNoTrajectory');

export const TEACHER_SETTINGS = {
  Demo10: { overrides: { demoNoise: DEMO_NOISE_LOW }, label: `teacher ${percent(DEMO_NOISE_LOW)} random` },
  Demo30: { overrides: { demoNoise: DEMO_NOISE_HIGH }, label: `teacher ${percent(DEMO_NOISE_HIGH)} random` },
} as const satisfies Record<string, { overrides: Partial<TrainConfig>; label: string }>;
export type TeacherSetting = keyof typeof TEACHER_SETTINGS;

/** The base variants the arms build on: a method, the base's overrides, its label and the arms' hue. */
const BASES = {
  beacon: { method: 'beacon', overrides: {}, label: 'BEACON', hue: 210 },
  beaconReleased: { method: 'beacon', overrides: NAMED_VARIANTS.beaconReleased.overrides, label: NAMED_VARIANTS.beaconReleased.label, hue: 0 },
  beaconReleasedWebshop: {
    method: 'beacon',
    overrides: NAMED_VARIANTS.beaconReleasedWebshop.overrides,
    label: NAMED_VARIANTS.beaconReleasedWebshop.label,
    hue: 170,
  },
  ppoShaped: { method: 'ppo', overrides: NAMED_VARIANTS.ppoShaped.overrides, label: NAMED_VARIANTS.ppoShaped.label, hue: 260 },
  grpo: { method: 'grpo', overrides: {}, label: 'GRPO', hue: 30 },
  sft: { method: 'sft', overrides: {}, label: 'SFT', hue: 120 },
} as const satisfies Record<string, { method: Method; overrides: Partial<TrainConfig>; label: string; hue: number }>;
export type DetectorBase = keyof typeof BASES;

type Arm<B extends DetectorBase, S extends string> = `${B}${S}`;
export type DetectorVariantName =
  | Arm<'beacon', DetectorSetting>
  | Arm<'beaconReleased' | 'beaconReleasedWebshop' | 'ppoShaped', Exclude<DetectorSetting, 'LooseNoTrajectory'>>
  | Arm<'grpo' | 'beacon' | 'sft', TeacherSetting>;

export interface DetectorVariant {
  name: DetectorVariantName;
  /** The variant the arm changes (its v3 runs are the arm's reference). */
  base: DetectorBase;
  /** The detector or teacher setting. */
  setting: DetectorSetting | TeacherSetting;
  method: Method;
  overrides: Partial<TrainConfig>;
  label: string;
  color: string;
}

function arm(base: DetectorBase, setting: DetectorSetting | TeacherSetting, index: number, of: number): DetectorVariant {
  const b = BASES[base];
  const s = setting in DETECTOR_SETTINGS ? DETECTOR_SETTINGS[setting as DetectorSetting] : TEACHER_SETTINGS[setting as TeacherSetting];
  // One hue per base, lightness spread over its arms: an arm reads as its base's family in a legend.
  const lightness = 28 + Math.round((40 * index) / Math.max(1, of - 1));
  return {
    name: `${base}${setting}` as DetectorVariantName,
    base,
    setting,
    method: b.method,
    overrides: { ...b.overrides, ...s.overrides },
    label: `${b.label}, ${s.label}`,
    color: `hsl(${b.hue}, 65%, ${lightness}%)`,
  };
}

const armsOf = (base: DetectorBase, settings: readonly (DetectorSetting | TeacherSetting)[]) => settings.map((s, i) => arm(base, s, i, settings.length));
const TEACHERS = Object.keys(TEACHER_SETTINGS) as TeacherSetting[];

/** Every arm, in table order: BEACON's detector arms, the baselines' detector arms, then the teacher arms. */
export const DETECTOR_VARIANTS: readonly DetectorVariant[] = [
  ...armsOf('beacon', DETECTOR_SETTING_NAMES),
  ...armsOf('beaconReleased', BASELINE_SETTINGS),
  ...armsOf('beaconReleasedWebshop', BASELINE_SETTINGS),
  ...armsOf('ppoShaped', BASELINE_SETTINGS),
  ...(['grpo', 'beacon', 'sft'] as const).flatMap((b) => armsOf(b, TEACHERS)),
];

export function detectorVariant(name: string): DetectorVariant | null {
  return DETECTOR_VARIANTS.find((d) => d.name === name) ?? null;
}

/** The arm of `base` under `setting` (a RangeError for a pair the study does not run). */
export function detectorArm(base: DetectorBase, setting: DetectorSetting | TeacherSetting): DetectorVariantName {
  const d = detectorVariant(`${base}${setting}`);
  if (!d) throw new RangeError(`the detector study has no arm of ${base} under ${setting}`);
  return d.name;
}

/**
 * The pre-registered sets (amendment 2). Primary: BEACON (paper) under every detector setting and the
 * sloppy teacher (30%) for GRPO, BEACON and SFT, every confirmatory claim's runs, sized to one invocation
 * of at most 90 minutes on 2 workers. Secondary: the careful teacher (10%) and the released BEACON and
 * shaped-reward PPO under the detector settings, descriptive, run after (sharded).
 */
export const DETECTOR_PRIMARY: readonly DetectorVariantName[] = [
  ...DETECTOR_SETTING_NAMES.map((s) => detectorArm('beacon', s)),
  ...(['grpo', 'beacon', 'sft'] as const).map((b) => detectorArm(b, 'Demo30')),
];

/**
 * The profile's names of the secondary set: `beaconReleased…` stands for the released config of each
 * environment (matrix.ts `variantInEnv`: the WebShop config's arm on the shop).
 */
export const DETECTOR_SECONDARY: readonly DetectorVariantName[] = [
  ...(['grpo', 'beacon', 'sft'] as const).map((b) => detectorArm(b, 'Demo10')),
  ...BASELINE_SETTINGS.map((s) => detectorArm('beaconReleased', s)),
  ...BASELINE_SETTINGS.map((s) => detectorArm('ppoShaped', s)),
];

export type DetectorSet = 'primary' | 'secondary';
export const DETECTOR_SETS: Record<DetectorSet, readonly DetectorVariantName[]> = { primary: DETECTOR_PRIMARY, secondary: DETECTOR_SECONDARY };

/** The WebShop config's arm where the profile names the ALFWorld config's (on the shop), else null. */
export function releasedArmOnShop(name: string): DetectorVariantName | null {
  const d = detectorVariant(name);
  return d && d.base === 'beaconReleased' ? detectorArm('beaconReleasedWebshop', d.setting) : null;
}
