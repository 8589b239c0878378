/**
 * The page's state and its one source of truth, the URL: the settings in effect (the two tables of
 * src/config.ts and src/page/page-settings.ts), the settings that wait for a restart, the bad URL
 * parameters to name, and the tour's scenario. It turns the views' edits into training commands and
 * keeps the address bar in step; settings that wait for a restart join the URL when the restart happens.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { fieldSpec, type ConfigIssue, type TrainConfig } from '../../config.ts';
import type { PageSettings } from '../../page/page-settings.ts';
import type { RunFile } from '../../page/run-file.ts';
import { applyPreset, availableScenarios } from '../../page/scenarios.ts';
import { readPageState, writePageState } from '../../page/url-state.ts';
import type { ConfigEditDetail, PageSettingDetail, ScenarioSelectDetail, StagedDetail } from '../events.ts';
import type { Checkpoints, TrainingController } from './training-controller.ts';

export class PageStateController implements ReactiveController {
  config: TrainConfig;
  /** Edits of restart settings, applied at the next restart. */
  staged: Partial<TrainConfig> = {};
  page: PageSettings;
  /** Bad URL parameters, named in the settings alert. */
  readonly issues: ConfigIssue[];
  /** The tour's scenario loaded last (index among the available ones), or -1. */
  scenario = -1;
  /** Set by the host once its training controller exists (that controller reads this state to start). */
  training!: TrainingController;
  private urlTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly host: ReactiveControllerHost) {
    const { config, page, issues } = readPageState(location.search);
    this.config = config;
    this.page = page;
    this.issues = issues;
    host.addController(this);
  }

  hostConnected(): void {
    // Normalise the address bar: bad parameters go, the settings in effect stay.
    this.writeUrl();
  }

  hostDisconnected(): void {
    if (this.urlTimer !== null) clearTimeout(this.urlTimer);
    this.urlTimer = null;
  }

  /** The link to the settings in effect. */
  shareUrl(): string {
    const q = writePageState({ config: this.config, page: this.page });
    return `${location.origin}${location.pathname}${q ? `?${q}` : ''}`;
  }

  /** Rebuilds every trainer with the settings in effect plus those waiting for a restart. */
  restart(): void {
    const state = this.training.state;
    this.config = { ...this.config, ...this.staged };
    this.staged = {};
    this.training.reset(this.config, (state?.running ?? this.page.autostart) || (state?.finished ?? false), this.page.methods, {}, this.page.seeds);
    this.changed();
  }

  /** "Open run": the file's settings take effect and every panel continues from its state, paused. */
  openRun(run: RunFile): void {
    this.config = run.state.config;
    this.page = run.state.page;
    this.staged = {};
    this.scenario = -1;
    const checkpoints: Checkpoints = Object.fromEntries(run.panels.map((p) => [p.panel, p.bytes]));
    this.training.reset(this.config, false, this.page.methods, checkpoints, this.page.seeds);
    this.changed();
  }

  /** A setting edited: a live one applies now, a restart one waits (or stops waiting when set back). */
  configEdit({ changes }: ConfigEditDetail): void {
    const live: Partial<TrainConfig> = {};
    const staged: Partial<TrainConfig> = { ...this.staged };
    for (const [key, value] of Object.entries(changes) as [keyof TrainConfig, never][]) {
      const spec = fieldSpec(key);
      if (!spec) continue;
      if (spec.restart) {
        if (value === this.config[key]) delete staged[key];
        else staged[key] = value;
      } else if (value !== this.config[key]) {
        live[key] = value;
      }
    }
    this.staged = staged;
    if (Object.keys(live).length) {
      this.config = { ...this.config, ...live };
      this.training.settings(live);
      this.changed();
    } else {
      this.host.requestUpdate();
    }
  }

  pageSetting({ changes }: PageSettingDetail): void {
    const methodsChanged = changes.methods !== undefined && changes.methods.join() !== this.page.methods.join();
    const seedsChanged = changes.seeds !== undefined && changes.seeds !== this.page.seeds;
    this.page = { ...this.page, ...changes };
    if (changes.speed) this.training.speed(changes.speed);
    if (methodsChanged || seedsChanged) this.restart();
    this.changed();
  }

  /** Loads a scenario of the tour: its settings over the page defaults, then a restart. */
  loadScenario({ index }: ScenarioSelectDetail): void {
    const scenario = availableScenarios()[index];
    if (!scenario) return;
    const state = applyPreset(scenario.query, { config: this.config, page: this.page });
    if (!state) return;
    this.scenario = index;
    this.config = state.config;
    this.page = state.page;
    this.staged = {};
    this.restart();
  }

  stagedAction({ action }: StagedDetail): void {
    if (action === 'apply') this.restart();
    else {
      this.staged = {};
      this.host.requestUpdate();
    }
  }

  /** Redraws the host and writes the settings in effect to the address bar. */
  private changed(): void {
    this.host.requestUpdate();
    this.writeUrl();
  }

  /** Writes the settings in effect to the address bar (debounced: sliders send many events). */
  private writeUrl(): void {
    if (this.urlTimer !== null) clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      this.urlTimer = null;
      const url = this.shareUrl();
      if (url !== location.href) history.replaceState(null, '', url);
    }, 250);
  }
}
