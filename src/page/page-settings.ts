/**
 * Settings that belong to the page, not to training: the small companion of `CONFIG_FIELDS`.
 *
 * Same shape and the same validation (`parseField` of src/config.ts) as the training table, so the URL,
 * the controls and the tooltips read both tables the same way.
 */
import { describeKind, parseValue, type SettingKind } from '../config.ts';
import { DEFAULT_RACE } from '../methods/registry.ts';
import { isRaceEntry, RACE_ENTRY_NAMES, type RaceEntryName } from '../race/entries.ts';
import { SPEEDS, type Speed } from '../race/speed.ts';
import { MAX_SEEDS_ANY_BACKEND } from '../setting-limits.ts';

export { SPEED_PACING, SPEEDS, type Speed } from '../race/speed.ts';

export interface PageSettings {
  /** Start training as soon as the page opens. */
  autostart: boolean;
  /** How often the views are redrawn relative to training (see SPEED_DOCS). */
  speed: Speed;
  /** β of the debiased EMA drawn over the raw success rate (0 = no smoothing). */
  smoothing: number;
  /** Success rate whose iterations-to-target is marked on the comparison chart. */
  target: number;
  /**
   * The entries raced side by side, in panel order: 2–4 distinct race entries (src/race/entries.ts),
   * each a registry method or a named variant of one, so a method can race its own variant.
   */
  methods: readonly RaceEntryName[];
  /** Presenter mode: the stage layout (race chart and episodes large, minimal controls). */
  present: boolean;
  /**
   * Seeds per method: seed, seed + 1, … trained side by side, drawn as mean ± sd bands
   * (src/page/seeds.ts). Up to 16 on webgpu, 5 on wasm, cpu and auto (MAX_SEEDS of src/setting-limits.ts,
   * checked against the backend where the URL and the form are read). The train command's `--seeds`
   * takes the same limits.
   */
  seeds: number;
  /** The race chart's x axis: completed iterations, or environment steps played (chart-data.ts). */
  raceX: RaceX;
}

/** The race chart's x axes. */
export const RACE_X = ['iterations', 'envSteps'] as const;
export type RaceX = (typeof RACE_X)[number];

/**
 * A list of race entries (registered methods and their named variants). Page-only: the training table
 * has one method per run, the page races several. Checked against the registry and the entry table, so
 * a method or variant appears here as soon as it is registered.
 */
export interface MethodListKind {
  type: 'methods';
  min: number;
  max: number;
}
export type PageKind = SettingKind | MethodListKind;

export interface PageFieldSpec<K extends keyof PageSettings = keyof PageSettings> {
  key: K;
  kind: PageKind;
  default: PageSettings[K];
  /** One line for tooltips. */
  doc: string;
}

const p = <K extends keyof PageSettings>(key: K, kind: PageKind, def: PageSettings[K], doc: string): PageFieldSpec<K> => ({ key, kind, default: def, doc });

export const PAGE_FIELDS: readonly PageFieldSpec[] = [
  p('autostart', { type: 'bool' }, true, 'start training when the page opens (0 opens paused)'),
  p(
    'speed',
    { type: 'enum', values: SPEEDS },
    'normal',
    'slow: watch each iteration · normal: train flat out, views follow every iteration · fast: views every 10th iteration · nodraw: skip drawing episodes and credit',
  ),
  p('smoothing', { type: 'number', min: 0, max: 0.99 }, 0.9, 'β of the debiased moving average drawn over the raw success rate'),
  p(
    'target',
    { type: 'number', min: 0.05, max: 1 },
    0.6,
    'success rate whose iterations-to-target (mean of the last 5 iterations) is marked on the comparison chart',
  ),
  p('methods', { type: 'methods', min: 2, max: 4 }, DEFAULT_RACE, 'the methods raced side by side, comma-separated, in panel order'),
  p('present', { type: 'bool' }, false, 'presenter mode: race chart and episodes large, minimal controls, large text'),
  p(
    'seeds',
    { type: 'int', min: 1, max: MAX_SEEDS_ANY_BACKEND },
    1,
    'seeds per method (seed, seed + 1, …), trained side by side; more than one draws each method as mean ± sd (up to 16 on webgpu, 5 on wasm, cpu and auto)',
  ),
  p(
    'raceX',
    { type: 'enum', values: RACE_X },
    'iterations',
    'the race chart’s x axis: iterations, or environment steps played (a wide batch plays many steps per iteration)',
  ),
];

export const DEFAULT_PAGE_SETTINGS: PageSettings = Object.fromEntries(PAGE_FIELDS.map((s) => [s.key, s.default])) as unknown as PageSettings;

export function pageFieldSpec(key: string): PageFieldSpec | undefined {
  return PAGE_FIELDS.find((s) => s.key === key);
}

/** Validates one raw page value exactly as a training setting would be validated. */
export function parsePageField(spec: PageFieldSpec, raw: string): { value: PageSettings[keyof PageSettings] } | { error: string } {
  if (spec.kind.type === 'methods') return parseMethodList(spec.key, spec.kind, raw);
  return parseValue(spec.key, spec.kind, raw);
}

/** Allowed values of a page field, worded as for training settings. */
export function describePageRange(spec: PageFieldSpec): string {
  return describePageKind(spec.kind);
}

export function describePageKind(k: PageKind): string {
  if (k.type === 'methods') return `${k.min} to ${k.max} distinct methods or variants, comma-separated, from ${RACE_ENTRY_NAMES.join(', ')}`;
  return describeKind(k);
}

/** The text form of a page value in the URL (a method list joins with commas). */
export function formatPageValue(value: PageSettings[keyof PageSettings]): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

function parseMethodList(name: string, k: MethodListKind, raw: string): { value: RaceEntryName[] } | { error: string } {
  const names = raw.split(',').map((s) => s.trim());
  const why = (detail: string) => ({ error: `${name} must be ${describePageKind(k)}; got ${JSON.stringify(raw)}: ${detail}` });
  const unknown = names.filter((n) => !isRaceEntry(n));
  if (unknown.length > 0)
    return why(`${unknown.map((n) => JSON.stringify(n)).join(', ')} ${unknown.length === 1 ? 'is not a method or variant' : 'are not methods or variants'}`);
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (repeated.length > 0) return why(`${JSON.stringify(repeated[0])} is named twice`);
  if (names.length < k.min || names.length > k.max) return why(`${names.length} named`);
  return { value: names as RaceEntryName[] };
}
