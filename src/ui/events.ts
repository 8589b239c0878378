/**
 * The typed events the page's elements send up to <beacon-live-app>. Properties flow down; these
 * bubble (and cross shadow roots) up.
 */
import type { TrainConfig } from '../config.ts';
import type { PageSettings } from '../page/page-settings.ts';

export type TrainingCommand = 'pause' | 'resume' | 'step' | 'reset';

export interface TrainingCommandDetail {
  command: TrainingCommand;
}

/** Training settings edited in the form (already validated against CONFIG_FIELDS). */
export interface ConfigEditDetail {
  changes: Partial<TrainConfig>;
}

export interface PageSettingDetail {
  changes: Partial<PageSettings>;
}

/** What to do with the settings that wait for a restart. */
export interface StagedDetail {
  action: 'apply' | 'discard';
}

/** A scenario of the guided tour, by its index among the available ones. */
export interface ScenarioSelectDetail {
  index: number;
}

/** A preset that sets more than the methods (e.g. "Thousands of runs"): loaded like a scenario. */
export interface PresetLoadDetail {
  query: string;
  label: string;
}

export function emit<T>(from: HTMLElement, type: keyof HTMLElementEventMap, detail: T): void {
  from.dispatchEvent(new CustomEvent<T>(type, { detail, bubbles: true, composed: true }));
}

/** The seeds the visitor switched to from the offer (src/page/seed-offer.ts). */
export interface SeedOfferDetail {
  seeds: number;
}

declare global {
  interface HTMLElementEventMap {
    'training-command': CustomEvent<TrainingCommandDetail>;
    'config-edit': CustomEvent<ConfigEditDetail>;
    'page-setting': CustomEvent<PageSettingDetail>;
    'staged-settings': CustomEvent<StagedDetail>;
    'export-charts': CustomEvent<Record<string, never>>;
    'scenario-select': CustomEvent<ScenarioSelectDetail>;
    'preset-load': CustomEvent<PresetLoadDetail>;
    'help-close': CustomEvent<Record<string, never>>;
    /** The backend badge's offer of more seeds on WebGPU, taken: restart the race with them on webgpu. */
    'seed-offer': CustomEvent<SeedOfferDetail>;
    /** The backend badge's "Measure again": time this race on wasm and WebGPU anew (under `auto`). */
    'measure-again': CustomEvent<Record<string, never>>;
  }
}
