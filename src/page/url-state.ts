/**
 * The page's whole state as a URL query, and back: training settings (`CONFIG_FIELDS`) plus page
 * settings (`PAGE_FIELDS`).
 *
 * Only values that differ from the page defaults are written, in table order, so a shared link is short
 * and stable. Reading reports every unknown key, bad value and repeated key by name; a field with a bad
 * value keeps its default. Nothing is coerced silently.
 */
import {
  CONFIG_FIELDS,
  configToQuery,
  DEFAULT_CONFIG,
  fieldSpec,
  parseConfig,
  raceConfigOf,
  type ConfigIssue,
  type RaceConfig,
  type TrainConfig,
} from '../config.ts';
import { seedsLimitIssue } from '../setting-limits.ts';
import { PAGE_DEFAULT_CONFIG } from './page-defaults.ts';
import { DEFAULT_PAGE_SETTINGS, formatPageValue, PAGE_FIELDS, pageFieldSpec, parsePageField, type PageSettings } from './page-settings.ts';

export interface PageState {
  /** The race's shared settings: no method (each race entry names its own). */
  config: RaceConfig;
  page: PageSettings;
}

export interface ReadResult extends PageState {
  issues: ConfigIssue[];
}

/** Keys of the training table that the page does not take from the URL, with the reason shown. */
const NOT_PAGE_SETTINGS: Record<string, string> = {
  method: 'method is not a page setting: the page races its methods side by side; ignored (choose them with methods=…)',
};

export function readPageState(search: string | URLSearchParams, base: PageState = { config: PAGE_DEFAULT_CONFIG, page: DEFAULT_PAGE_SETTINGS }): ReadResult {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const issues: ConfigIssue[] = [];
  const page = { ...base.page } as Record<string, unknown>;
  const configEntries: [string, string][] = [];
  const seen = new Set<string>();
  for (const [key, raw] of params) {
    if (seen.has(key)) {
      issues.push({ field: key, message: `${key} is given more than once; only the first value (${JSON.stringify(params.get(key))}) is used` });
      continue;
    }
    seen.add(key);
    // Own keys only: `constructor` or `toString` in a query must not find Object.prototype's.
    if (Object.hasOwn(NOT_PAGE_SETTINGS, key)) {
      issues.push({ field: key, message: NOT_PAGE_SETTINGS[key] });
      continue;
    }
    const spec = pageFieldSpec(key);
    if (spec) {
      const parsed = parsePageField(spec, raw);
      if ('error' in parsed) issues.push({ field: key, message: `${parsed.error}; using ${formatPageValue(base.page[spec.key])}` });
      else page[key] = parsed.value;
      continue;
    }
    if (!fieldSpec(key)) {
      issues.push({ field: key, message: `unknown setting ${JSON.stringify(key)}; known settings: ${knownKeys().join(', ')}` });
      continue;
    }
    configEntries.push([key, raw]);
  }
  // The table's `method` is not read from the URL (NOT_PAGE_SETTINGS): any value fills the type and is dropped.
  const parsed = parseConfig(configEntries, { ...base.config, method: DEFAULT_CONFIG.method });
  for (const issue of parsed.issues) {
    const spec = fieldSpec(issue.field);
    issues.push(spec ? { field: issue.field, message: `${issue.message}; using ${String((base.config as Partial<TrainConfig>)[spec.key])}` } : issue);
  }
  // Seeds run from `seed` upwards (src/page/seeds.ts): the last must still be a seed.
  const maxSeed = (fieldSpec('seed')!.kind as { max: number }).max;
  if (parsed.config.seed + (page.seeds as number) - 1 > maxSeed) {
    issues.push({
      field: 'seeds',
      message: `seeds ${String(page.seeds)} from seed ${parsed.config.seed} would go past the largest seed ${maxSeed}; using ${base.page.seeds}`,
    });
    page.seeds = base.page.seeds;
  }
  // More seeds than the backend trains side by side (MAX_SEEDS of setting-limits.ts).
  const tooMany = seedsLimitIssue(page.seeds as number, parsed.config.backend);
  if (tooMany) {
    issues.push({ field: 'seeds', message: `${tooMany}; using ${base.page.seeds}` });
    page.seeds = base.page.seeds;
  }
  return { config: raceConfigOf(parsed.config), page: page as unknown as PageSettings, issues };
}

/** The query string (without "?") of the settings that differ from the page defaults. */
export function writePageState(state: PageState, defaults: PageState = { config: PAGE_DEFAULT_CONFIG, page: DEFAULT_PAGE_SETTINGS }): string {
  const q = configToQuery(state.config, defaults.config, Object.keys(NOT_PAGE_SETTINGS));
  for (const spec of PAGE_FIELDS) {
    const v = formatPageValue(state.page[spec.key]);
    if (v !== formatPageValue(defaults.page[spec.key])) q.set(spec.key, v);
  }
  return q.toString();
}

/** Every key the page reads from its URL. */
export function knownKeys(): string[] {
  return [...CONFIG_FIELDS.map((s) => s.key as string).filter((k) => !Object.hasOwn(NOT_PAGE_SETTINGS, k)), ...PAGE_FIELDS.map((s) => s.key)];
}
