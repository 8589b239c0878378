/**
 * The page's state and its one source of truth, the URL: the settings in effect (the two tables of
 * src/config.ts and src/page/page-settings.ts), the settings that wait for a restart, the bad URL
 * parameters to name, and the tour's scenario. It turns the views' edits into training commands and
 * keeps the address bar in step; settings that wait for a restart join the URL when the restart happens.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { fieldSpec, type ConfigIssue, type RaceConfig } from '../../config.ts';
import type { PageSettings } from '../../page/page-settings.ts';
import type { RunFile } from '../../page/run-file.ts';
import { applyPreset, availableScenarios } from '../../page/scenarios.ts';
import { readPageState, writePageState } from '../../page/url-state.ts';
import { ESTIMATOR_PARAM, takeEstimatorParam } from '../../page/estimator-share.ts';
import { savedSourceOf } from '../../estimator/saved-source.ts';
import type { EstimatorCode } from '../../worker/protocol.ts';
import type { ConfigEditDetail, PageSettingDetail, ScenarioSelectDetail, StagedDetail } from '../events.ts';
import { codeEntries, EstimatorSession } from './estimator-session.ts';
import type { Checkpoints, TrainingController } from './training-controller.ts';

export class PageStateController implements ReactiveController {
  /** The race's shared settings (each race entry adds its method). */
  config: RaceConfig;
  /** Edits of restart settings, applied at the next restart. */
  staged: Partial<RaceConfig> = {};
  page: PageSettings;
  /** Bad URL parameters, named in the settings alert. */
  readonly issues: ConfigIssue[];
  /** The tour's scenario loaded last (index among the available ones), or -1. */
  scenario = -1;
  /** Your estimator: the code the custom panel runs, the editor's draft, code awaiting consent. */
  readonly code = new EstimatorSession();
  /** Set by the host once its training controller exists (that controller reads this state to start). */
  training!: TrainingController;
  private urlTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly host: ReactiveControllerHost) {
    // Code in the link (estimator=) waits for consent; the settings are read without it.
    const { rest, value: sharedCode } = takeEstimatorParam(location.search);
    const { config, page, issues } = readPageState(rest);
    this.code.fromLink(sharedCode, issues);
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

  /** The link to the settings in effect; `withCode`: with Your estimator's code (the Share link), not in the address bar. */
  shareUrl(withCode = true): string {
    let q = writePageState({ config: this.config, page: this.page });
    const code = withCode && codeEntries(this.page.methods).length ? this.code.shareParam().value : null;
    if (code !== null) q = `${q ? `${q}&` : ''}${ESTIMATOR_PARAM}=${code}`;
    return `${location.origin}${location.pathname}${q ? `?${q}` : ''}`;
  }

  /** Rebuilds every trainer with the settings in effect plus those waiting for a restart. */
  restart(): void {
    // A race that newly has Your estimator starts it with the GRPO starter (loaded with the editor).
    if (codeEntries(this.page.methods).length && this.code.applied === null && !this.code.pending) {
      void import('../../estimator/templates.ts').then(({ GRPO_TEMPLATE }) => {
        this.code.apply(GRPO_TEMPLATE);
        this.restart();
      });
      return;
    }
    this.training.estimator = this.code.code;
    const state = this.training.state;
    this.config = { ...this.config, ...this.staged };
    this.staged = {};
    this.training.reset(this.config, (state?.running ?? this.page.autostart) || (state?.finished ?? false), this.page.methods, {}, this.page.seeds);
    this.changed();
  }

  /** "Open run": the file's settings take effect and every panel continues from its state, paused. */
  async openRun(run: RunFile): Promise<void> {
    this.config = run.state.config;
    this.page = run.state.page;
    this.staged = {};
    this.scenario = -1;
    const checkpoints: Checkpoints = Object.fromEntries(run.panels.map((p) => [p.panel, p.bytes]));
    // A run file's code runs only after consent; its panel continues from the file once consented.
    for (const m of codeEntries(this.page.methods)) {
      const bytes = checkpoints[m];
      const source = bytes ? await savedSourceOf(bytes) : null;
      if (!bytes || source === null) continue;
      delete checkpoints[m];
      this.code.pending = { source, origin: 'this run file', checkpoint: bytes };
      this.code.draft = source;
      this.code.applied = null;
      this.training.estimator = null;
    }
    this.training.reset(this.config, false, this.page.methods, checkpoints, this.page.seeds);
    this.changed();
  }

  /**
   * The code the custom panels start with: the code their autosaved run carries (the visitor's own),
   * else the applied code, else (nothing awaiting consent) the GRPO starter. Null while code from a
   * link awaits consent.
   */
  async startingCode(checkpoints: Checkpoints): Promise<EstimatorCode | null> {
    const entries = codeEntries(this.page.methods);
    if (entries.length === 0) return null;
    const saved = checkpoints[entries[0]];
    const source = saved ? await savedSourceOf(saved) : null;
    if (source !== null) this.code.restoreSaved(source);
    if (this.code.applied === null && !this.code.pending) this.code.apply((await import('../../estimator/templates.ts')).GRPO_TEMPLATE);
    this.host.requestUpdate();
    return this.code.code;
  }

  /** "Apply" in the editor: the new code runs in the custom panels only, from iteration 0. */
  applyCode(source: string): void {
    this.code.apply(source);
    this.restartCodeEntries(null);
  }

  /** The visitor's answer to the consent dialog for code that came by link or run file. */
  consentCode(run: boolean): void {
    const consented = this.code.consent(run);
    if (consented) this.restartCodeEntries(consented.checkpoint);
    else this.host.requestUpdate();
  }

  /** Restarts only the panels that run the visitor's code, with the applied code (from `checkpoint`, or iteration 0). */
  private restartCodeEntries(checkpoint: ArrayBuffer | null): void {
    this.training.estimator = this.code.code;
    // As a Reset would: a running or finished race trains the restarted panel; a paused one keeps it paused.
    const state = this.training.state;
    const running = (state?.running ?? this.page.autostart) || (state?.finished ?? false);
    for (const m of codeEntries(this.page.methods)) this.training.restartEntry(m, this.config, running, checkpoint);
    this.host.requestUpdate();
  }

  /** A setting edited: a live one applies now, a restart one waits (or stops waiting when set back). */
  configEdit({ changes }: ConfigEditDetail): void {
    const live: Partial<RaceConfig> = {};
    const staged: Partial<RaceConfig> = { ...this.staged };
    for (const [key, value] of Object.entries(changes) as [keyof RaceConfig, never][]) {
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

  /**
   * The visitor took the offer of `seeds` seeds on WebGPU (src/page/seed-offer.ts): the race restarts
   * with them on webgpu, named in the settings (and the link), since more than 5 seeds need it.
   */
  takeSeedOffer(seeds: number): void {
    this.staged = { ...this.staged, backend: 'webgpu' };
    this.page = { ...this.page, seeds };
    this.restart();
  }

  /** Loads a scenario of the tour: its settings over the page defaults, then a restart. */
  loadScenario({ index }: ScenarioSelectDetail): void {
    const scenario = availableScenarios()[index];
    if (scenario) this.loadQuery(scenario.query, index);
  }

  /** Loads a preset's settings over the page defaults (a scenario's, `scenario` its index), then a restart. */
  loadQuery(query: string, scenario = -1): void {
    const state = applyPreset(query, { config: this.config, page: this.page });
    if (!state) return;
    this.scenario = scenario;
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
      const url = this.shareUrl(false);
      if (url !== location.href) history.replaceState(null, '', url);
    }, 250);
  }
}
