/**
 * <beacon-live-app>: the page. It builds the views from the page's state and the training, and places
 * them with a layout: the race layout (race-layout.ts), or the stage layout in presenter mode
 * (`present`, stage-layout.ts); both share one header, alert area and control bar (page-frame.ts).
 *
 * Its controllers do the work: the page's state and the URL (page-state.ts), the training workers
 * (training-controller.ts), autosave and run files (durable-runs.ts), the keyboard shortcuts
 * (shortcut-controller.ts), the narrow-screen order (narrow-controller.ts), the cost check before a wide
 * race (cost-check-controller.ts) and the first screen's marks, modes and lazy parts
 * (first-screen-controller.ts).
 */
import { LitElement, html, nothing } from 'lit';
import { raceEntry, type RaceEntryName } from '../race/entries.ts';
import type { InjectedFault } from '../worker/protocol.ts';
import { raceKey } from '../page/race-key.ts';
import { writePageState } from '../page/url-state.ts';
import { availableScenarios } from '../page/scenarios.ts';
import type { TrainingCommandDetail } from './events.ts';
import { downloadBlob } from './download.ts';
import { CostCheckController } from './controllers/cost-check-controller.ts';
import { DurableRuns } from './controllers/durable-runs.ts';
import { FirstScreenController } from './controllers/first-screen-controller.ts';
import { NarrowController } from './controllers/narrow-controller.ts';
import { PageStateController } from './controllers/page-state.ts';
import { ShortcutController } from './controllers/shortcut-controller.ts';
import { TrainingController } from './controllers/training-controller.ts';
import { pageFrameStyles, type PageParts } from './layouts/page-frame.ts';
import { raceLayout, raceLayoutStyles } from './layouts/race-layout.ts';
import { STAGE_CONTROLS_ID, stageLayout, stageLayoutStyles } from './layouts/stage-layout.ts';
import { sharedStyles } from './theme.ts';
import type { MetricChart } from './elements/metric-chart.ts';
import './elements/backend-badge.ts';
import './elements/comparison-chart.ts';
import './elements/cost-check.ts';
import './elements/durable-bar.ts';
import './elements/explainer-section.ts';
import './elements/method-panel.ts';
import './elements/method-picker.ts';
import './elements/prior-note.ts';
import './elements/run-inspector.ts';
import './elements/scenario-tour.ts';
import './elements/settings-alert.ts';
import './elements/settings-form.ts';
import './elements/share-export.ts';
import './elements/shortcut-help.ts';
import './elements/training-controls.ts';
import { failureFromMessage } from '../estimator/failure.ts';
import { codeEntries } from './controllers/estimator-session.ts';

export class BeaconLiveApp extends LitElement {
  static override properties = {
    help: { state: true },
    stageControls: { state: true },
  };

  /** The shortcut help overlay is open. */
  declare private help: boolean;
  /** Presenter mode: the controls behind the header's button are shown. */
  declare private stageControls: boolean;
  private readonly state = new PageStateController(this);
  private readonly narrow = new NarrowController(this);
  private readonly training: TrainingController;
  /** Autosave, resume and run files (durable-runs.ts). */
  private readonly durable: DurableRuns;
  /** The cost check before a wide race on wasm or cpu (cost-check-controller.ts). */
  private readonly cost: CostCheckController;

  constructor() {
    super();
    this.help = false;
    this.stageControls = false;
    const st = this.state;
    const page = () => ({ config: st.config, page: st.page });
    this.durable = new DurableRuns(
      this,
      () => raceKey(page()),
      () => writePageState(page()),
      () => st.page.methods,
    );
    // A race saved in this browser continues where it was (the default; the bar offers a fresh start).
    this.training = new TrainingController(this, async () => {
      const checkpoints = await this.durable.saved();
      return {
        config: st.config,
        methods: st.page.methods,
        running: st.page.autostart,
        speed: st.page.speed,
        seeds: st.page.seeds,
        checkpoints,
        estimator: await st.startingCode(checkpoints),
      };
    });
    st.training = this.training;
    this.cost = new CostCheckController(this, st, this.training);
    new FirstScreenController(this, st);
    this.training.onCheckpoint = (m, iteration, bytes) => this.durable.checkpoint(m, iteration, bytes);
    this.addEventListener('run-save', () => void this.saveRun());
    this.addEventListener('run-open', (e) => void this.durable.readRunFile(e.detail.file).then((run) => run && st.openRun(run)));
    this.addEventListener('run-resume', () => this.durable.dismissOffer());
    this.addEventListener('run-fresh', () => {
      void this.durable.startFresh();
      st.restart();
    });
    this.addEventListener('training-command', (e) => this.onCommand(e.detail));
    this.addEventListener('config-edit', (e) => st.configEdit(e.detail));
    this.addEventListener('page-setting', (e) => st.pageSetting(e.detail));
    this.addEventListener('staged-settings', (e) => st.stagedAction(e.detail));
    this.addEventListener('export-charts', () => void this.exportCharts());
    this.addEventListener('help-close', () => (this.help = false));
    this.addEventListener('estimator-apply', (e) => st.applyCode(e.detail.source));
    this.addEventListener('estimator-consent', (e) => st.consentCode(e.detail.run));
    this.addEventListener('measure-again', () => this.training.auto.measureAgain());
    this.addEventListener('seed-offer', (e) => st.takeSeedOffer(e.detail.seeds));
    new ShortcutController(this, {
      togglePause: () => this.onCommand({ command: this.training.running ? 'pause' : 'resume' }),
      step: () => this.onCommand({ command: 'step' }),
      reset: () => this.onCommand({ command: 'reset' }),
      toggleFullscreen: () => void toggleFullscreen(),
      scenario: (index) => this.cost.loadScenario(index),
      toggleHelp: () => (this.help = !this.help),
    });
  }

  static override styles = [sharedStyles, pageFrameStyles, raceLayoutStyles, stageLayoutStyles];

  override render() {
    const parts = this.parts();
    return this.state.page.present ? stageLayout(parts, this.stageControls) : raceLayout(parts, this.narrow.narrow);
  }

  /** Every view, built from the page's state and the training; the layout places them. */
  private parts(): PageParts {
    const t = this.training;
    const { config, page, staged, code } = this.state;
    const rev = t.revision;
    const race = t.state;
    const methods = t.methods;
    const iterations = race?.iterations ?? Object.fromEntries(methods.map((m) => [m, t.histories[m]?.latest?.iteration ?? 0]));
    const present = page.present;
    // The race's methods are known from the first paint (the page's settings); the workers' list only
    // once they start: the lede and the race chart's legend use the former, so they do not grow later.
    const raced = methods.length ? methods : page.methods;
    const labels = raced.map((m) => raceEntry(m).label);
    const backend = t.backend
      ? `${t.backend.report.backend}${t.backend.report.adapterName ? ` (${t.backend.report.adapterName})` : ''}; advantages: ${t.backend.advantages}`
      : '';
    return {
      methodCount: methods.length,
      lede: `${labels.join(', ').replace(/, ([^,]*)$/, ' and $1')} train the same policy on the same tasks, side by side, in your browser. BEACON adds credit for each milestone a run reaches; watch what that does to learning.`,
      badge: html`<backend-badge .report=${t.backend?.report ?? null} .advantages=${t.backend?.advantages ?? ''} .recovery=${t.recovery} .failure=${t.crash} .probe=${t.probe} ?probing=${t.probing} ?measurable=${t.auto.canMeasureAgain} .note=${t.backendNote} .offer=${t.auto.offer}></backend-badge>`,
      presentButton: html`<button type="button" class="present-toggle" aria-pressed=${present ? 'true' : 'false'} @click=${() => this.state.pageSetting({ changes: { present: !present } })}>
        ${present ? 'Exit presenter mode' : 'Presenter mode'}
      </button>`,
      controlsButton: html`<button
        type="button"
        aria-expanded=${this.stageControls ? 'true' : 'false'}
        aria-controls=${STAGE_CONTROLS_ID}
        @click=${() => (this.stageControls = !this.stageControls)}
      >
        Controls
      </button>`,
      issues: this.state.issues,
      errors: [...(t.crash ? [t.crash] : []), ...t.errors.filter((e) => !e.method).map((e) => e.message)],
      controls: html`<training-controls ?ready=${race !== null} ?running=${race?.running ?? false} ?finished=${race?.finished ?? false} .iterations=${iterations} .budget=${config.iters} .speed=${page.speed} .smoothing=${page.smoothing}></training-controls>`,
      durable: html`<durable-bar .runs=${this.durable} .revision=${this.durable.revision} .labels=${Object.fromEntries(methods.map((m) => [m, raceEntry(m).label]))}></durable-bar>`,
      shareExport: html`<share-export .url=${this.state.shareUrl()} .histories=${t.histories} .seedRuns=${t.seedRuns} .revision=${rev} .config=${config} .backend=${backend}></share-export>`,
      tour: html`<scenario-tour class="tour ${present ? '' : 'card'}" .scenarios=${availableScenarios()} .index=${this.state.scenario} ?compact=${present}></scenario-tour>`,
      comparison: html`<comparison-chart .histories=${t.histories} .methods=${raced} .revision=${rev} .smoothing=${page.smoothing} .target=${page.target} .plotHeight=${present ? 400 : 230} .seedRuns=${t.seedRuns} .x=${page.raceX}></comparison-chart>`,
      inspectors: methods.map((m) => html`<run-inspector method=${m} .snapshot=${t.snapshots[m]} .speed=${page.speed}></run-inspector>`),
      panels: html`<section class="block live" aria-labelledby="metrics-title">
        <h2 id="metrics-title">Metrics per method</h2>
        <p class="lede">How much learning signal each method extracts from its samples, iteration by iteration.</p>
        <div class="pair">
          ${methods.map(
            (m) =>
              html`<method-panel method=${m} .history=${t.histories[m]} .seeds=${t.seeds.length} .revision=${rev} .smoothing=${page.smoothing} .halted=${t.errors
                .filter((e) => e.method === m)
                .map((e) => e.message)
                .join(' ')} .fallback=${t.fallbacks[m] ?? ''}></method-panel>`,
          )}
        </div>
      </section>
      ${this.estimatorEditor()}`,
      priorNote: html`<prior-note class="card" .config=${config}></prior-note>`,
      settings: html`<method-picker class="card pick" .methods=${methods}></method-picker>
        <settings-form class="card" .config=${config} .staged=${staged} .page=${page}></settings-form>`,
      explainer: html`<explainer-section .methods=${methods}></explainer-section>`,
      help: html`<shortcut-help ?open=${this.help}></shortcut-help>
        ${this.cost.pending ? html`<cost-check .heading=${this.cost.pending.title} .estimate=${this.cost.pending.estimate}></cost-check>` : nothing}
        ${code.pending ? html`<consent-dialog .source=${code.pending.source} .origin=${code.pending.origin}></consent-dialog>` : nothing}`,
    };
  }

  /** Your estimator's editor, below the panels, when the race has a panel that runs the visitor's code. */
  private estimatorEditor() {
    const codePanels = codeEntries(this.training.methods);
    if (!codePanels.length) return nothing;
    const code = this.state.code;
    const failure = this.training.errors.filter((e) => e.method !== undefined && codePanels.includes(e.method)).at(-1);
    return html`<section class="block">
      <estimator-editor
        class="card"
        .applied=${code.applied}
        .draft=${code.draft}
        .failure=${failure ? failureFromMessage(failure.message) : null}
        .shareNote=${code.shareParam().note}
      ></estimator-editor>
    </section>`;
  }

  /** For tests and demonstrations: makes the worker lose its GPU device. */
  loseDevice(): void {
    this.training.loseDevice();
  }

  /** Test-only (docs/page-failures.md): arms a real GPU fault in `method`'s worker; the page's controls never call it. */
  injectFault(method: RaceEntryName, fault: InjectedFault): void {
    this.training.injectFault(method, fault);
  }

  /** "Save run": every panel's latest state and the settings, as a run file (src/page/run-file.ts). */
  private async saveRun(): Promise<void> {
    const file = await this.durable.runFile();
    if ('error' in file) {
      this.training.errors = [...this.training.errors, { message: `Save run: ${file.error}` }];
      this.requestUpdate();
      return;
    }
    downloadBlob(new Blob([file.bytes], { type: 'application/octet-stream' }), file.name);
  }

  private onCommand({ command }: TrainingCommandDetail): void {
    const t = this.training;
    if (command === 'pause') t.pause();
    else if (command === 'resume') t.resume();
    else if (command === 'step') t.step();
    else this.state.restart();
  }

  /** Downloads every chart of the page as a PNG, one file each. */
  private async exportCharts(): Promise<void> {
    for (const chart of deepQuery<MetricChart>(this.renderRoot, 'metric-chart')) {
      try {
        downloadBlob(await chart.toPng(), `${chart.filename}.png`);
      } catch {
        // A chart with no data yet has nothing to export.
      }
    }
  }
}

/** Full screen on or off; a browser that refuses (no user gesture, not allowed) leaves things as they are. */
async function toggleFullscreen(): Promise<void> {
  try {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await document.documentElement.requestFullscreen();
  } catch {
    // Refused: nothing to undo.
  }
}

/** All elements matching `selector` in `root` and in every shadow root below it. */
function deepQuery<T extends Element>(root: ParentNode, selector: string): T[] {
  const out: T[] = [...root.querySelectorAll<T>(selector)];
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) out.push(...deepQuery<T>(el.shadowRoot, selector));
  return out;
}

declare global {
  interface HTMLElementTagNameMap {
    'beacon-live-app': BeaconLiveApp;
  }
}
