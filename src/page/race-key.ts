/**
 * The key of a race's saved state: the part of the page's URL query that defines the race.
 *
 * Two page loads continue the same saved run when they train the same thing: every training setting
 * that shapes the trainers (`restart: true` in CONFIG_FIELDS) and every page setting that says what is
 * raced. Left out: the backend (a saved state moves between backends), the live settings (changed
 * mid-run; the checkpoint carries them and the URL's win on resume) and the page settings that only
 * change the view (VIEW_ONLY). A page setting added later counts as part of the race unless listed here.
 */
import { CONFIG_FIELDS, type TrainConfig } from '../config.ts';
import { PAGE_DEFAULT_CONFIG } from './page-defaults.ts';
import { DEFAULT_PAGE_SETTINGS, type PageSettings } from './page-settings.ts';
import { writePageState, type PageState } from './url-state.ts';

const VIEW_ONLY: readonly (keyof PageSettings)[] = ['autostart', 'speed', 'smoothing', 'target', 'present'];

export function raceKey({ config, page }: PageState): string {
  const race = { ...PAGE_DEFAULT_CONFIG } as Record<string, unknown>;
  for (const spec of CONFIG_FIELDS) if (spec.restart && spec.key !== 'backend') race[spec.key] = (config as Partial<TrainConfig>)[spec.key];
  const view = { ...page } as Record<string, unknown>;
  for (const key of VIEW_ONLY) view[key] = DEFAULT_PAGE_SETTINGS[key];
  return writePageState({ config: race as unknown as TrainConfig, page: view as unknown as PageSettings });
}
