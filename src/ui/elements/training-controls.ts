/**
 * <training-controls>: pause / resume, single step, reset, the speed, the smoothing of the success
 * curves, and the iteration budget with its progress bar.
 *
 * Sends `training-command` and `page-setting` events; holds no training state of its own.
 */
import { LitElement, css, html } from 'lit';
import type { RaceEntryName } from '../../race/entries.ts';
import { describePageRange, PAGE_FIELDS, SPEEDS, type PageSettings, type Speed } from '../../page/page-settings.ts';
import { emit, type PageSettingDetail, type TrainingCommand, type TrainingCommandDetail } from '../events.ts';
import { sharedStyles } from '../theme.ts';
import './metric-tip.ts';

const SPEED_LABELS: Record<Speed, string> = { slow: 'Slow', normal: 'Normal', fast: 'Fast', nodraw: 'Skip drawing' };

function pageDoc(key: keyof PageSettings): string {
  const spec = PAGE_FIELDS.find((s) => s.key === key)!;
  return `${spec.doc}. URL key “${key}”: ${describePageRange(spec)}.`;
}

export class TrainingControls extends LitElement {
  static override properties = {
    ready: { type: Boolean },
    running: { type: Boolean },
    finished: { type: Boolean },
    iterations: { attribute: false },
    budget: { type: Number },
    speed: { type: String },
    smoothing: { type: Number },
  };

  /** The worker has built the trainers. */
  declare ready: boolean;
  declare running: boolean;
  declare finished: boolean;
  declare iterations: Partial<Record<RaceEntryName, number>>;
  /** Iterations per method (the `iters` setting). */
  declare budget: number;
  declare speed: Speed;
  declare smoothing: number;

  constructor() {
    super();
    this.ready = false;
    this.running = false;
    this.finished = false;
    this.iterations = {};
    this.budget = 0;
    this.speed = 'normal';
    this.smoothing = 0.9;
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .bar {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 10px 18px;
      }
      .buttons {
        display: flex;
        gap: 8px;
      }
      button.run {
        min-width: 7.5em;
        justify-content: center;
      }
      .field {
        display: inline-flex;
        align-items: center;
        gap: 8px;
        font-size: 0.85rem;
        white-space: nowrap;
      }
      .smooth input {
        width: 110px;
      }
      .smooth output {
        width: 3.2em;
        font-variant-numeric: tabular-nums;
      }
      .budget {
        flex: 1 1 220px;
        display: flex;
        flex-direction: column;
        gap: 4px;
        min-width: 180px;
        font-size: 0.8rem;
      }
      .budget span {
        font-variant-numeric: tabular-nums;
        color: var(--fg-muted);
      }
      progress {
        width: 100%;
        height: 8px;
        appearance: none;
        border: none;
        border-radius: 4px;
        background: var(--border);
        overflow: hidden;
      }
      progress::-webkit-progress-bar {
        background: var(--border);
      }
      progress::-webkit-progress-value {
        background: var(--accent);
      }
      progress::-moz-progress-bar {
        background: var(--accent);
      }
    `,
  ];

  override render() {
    const counts = Object.values(this.iterations);
    const done = counts.length > 0 ? Math.min(...counts) : 0;
    const status = !this.ready ? 'starting…' : this.finished ? 'budget reached' : this.running ? 'training' : 'paused';
    return html`<div class="bar" role="group" aria-label="Training controls">
      <div class="buttons">
        <button
          class="run primary"
          type="button"
          ?disabled=${!this.ready || this.finished}
          @click=${() => this.command(this.running ? 'pause' : 'resume')}
          aria-label=${this.running ? 'Pause training' : 'Resume training'}
        >
          ${this.running ? '❚❚ Pause' : '▶ Resume'}
        </button>
        <button type="button" ?disabled=${!this.ready || this.finished} @click=${() => this.command('step')} title="One iteration of each method, then pause">Step</button>
        <button type="button" ?disabled=${!this.ready} @click=${() => this.command('reset')} title="Start both methods again from iteration 0 (applies settings that need a restart)">Reset</button>
      </div>
      <span class="field">
        <label for="speed">Speed</label>
        <select id="speed" @change=${this.onSpeed}>
          ${SPEEDS.map((s) => html`<option value=${s} ?selected=${s === this.speed}>${SPEED_LABELS[s]}</option>`)}
        </select>
        <metric-tip label="Speed" .doc=${pageDoc('speed')}></metric-tip>
      </span>
      <span class="field smooth">
        <label for="smoothing">Smoothing</label>
        <input id="smoothing" type="range" min="0" max="0.99" step="0.01" .value=${String(this.smoothing)} @input=${this.onSmoothing} aria-valuetext=${`β ${this.smoothing}`} />
        <output for="smoothing">${this.smoothing.toFixed(2)}</output>
        <metric-tip label="Smoothing" .doc=${pageDoc('smoothing')}></metric-tip>
      </span>
      <div class="budget">
        <label for="budget">Budget: <span id="budget-text">${done} / ${this.budget} iterations · ${status}</span></label>
        <progress id="budget" max=${this.budget} .value=${done} aria-describedby="budget-text"></progress>
      </div>
    </div>`;
  }

  private command(command: TrainingCommand): void {
    emit<TrainingCommandDetail>(this, 'training-command', { command });
  }

  private onSpeed = (e: Event) => {
    emit<PageSettingDetail>(this, 'page-setting', { changes: { speed: (e.target as HTMLSelectElement).value as Speed } });
  };

  private onSmoothing = (e: Event) => {
    emit<PageSettingDetail>(this, 'page-setting', { changes: { smoothing: Number((e.target as HTMLInputElement).value) } });
  };
}

customElements.define('training-controls', TrainingControls);

declare global {
  interface HTMLElementTagNameMap {
    'training-controls': TrainingControls;
  }
}
