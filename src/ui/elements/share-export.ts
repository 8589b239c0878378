/**
 * <share-export>: copy the page's URL (every setting is in it), download every method's metrics (every
 * seed's records, each with its seed) as CSV or JSON, and download every chart as PNG.
 *
 * Reads what it exports from its properties; the charts' PNGs are made by the charts themselves
 * (requested from the page with an `export-charts` event).
 */
import { LitElement, css, html } from 'lit';
import type { RaceEntryName } from '../../race/entries.ts';
import type { TrainConfig } from '../../config.ts';
import { recordsToCsv, recordsToJson, type SeededRecord } from '../../page/export.ts';
import { methodConfig } from '../../page/method-configs.ts';
import type { MetricHistory } from '../../page/metric-history.ts';
import type { SeedHistories } from '../../page/seeds.ts';
import { downloadText } from '../download.ts';
import { emit } from '../events.ts';
import { sharedStyles, toolbarStyles } from '../theme.ts';

export class ShareExport extends LitElement {
  static override properties = {
    url: { type: String },
    histories: { attribute: false },
    seedRuns: { attribute: false },
    revision: { type: Number },
    config: { attribute: false },
    backend: { type: String },
    status: { state: true },
  };

  /** The shareable URL of the current settings. */
  declare url: string;
  declare histories: Partial<Record<RaceEntryName, MetricHistory>> | null;
  /** Every seed's records per entry: what the files hold (one row per entry, seed and iteration). */
  declare seedRuns: Partial<Record<RaceEntryName, SeedHistories>> | null;
  /** Bumped when the histories grew. */
  declare revision: number;
  declare config: TrainConfig | null;
  /** The backend line for the export (e.g. "webgpu (SwiftShader)"). */
  declare backend: string;
  declare private status: string;
  private statusTimer: ReturnType<typeof setTimeout> | null = null;

  constructor() {
    super();
    this.url = '';
    this.histories = null;
    this.seedRuns = null;
    this.revision = 0;
    this.config = null;
    this.backend = '';
    this.status = '';
  }

  static override styles = [
    sharedStyles,
    toolbarStyles,
    css`
      .status {
        min-width: 8em;
      }
      input {
        flex: 1 1 240px;
        min-width: 0;
        font: 0.8rem var(--mono);
      }
    `,
  ];

  override render() {
    return html`<div class="row" role="group" aria-label="Share and export">
      <button class="primary" type="button" @click=${this.share}>Share link</button>
      <button type="button" @click=${this.csv} ?disabled=${!this.hasData()}>CSV</button>
      <button type="button" @click=${this.json} ?disabled=${!this.hasData()}>JSON</button>
      <button type="button" @click=${() => emit(this, 'export-charts', {})} ?disabled=${!this.hasData()}>Charts (PNG)</button>
      <span class="status" role="status">${this.status}</span>
    </div>`;
  }

  private hasData(): boolean {
    return !!this.histories && Object.values(this.histories).some((h) => h.length > 0);
  }

  private say(text: string): void {
    this.status = text;
    if (this.statusTimer !== null) clearTimeout(this.statusTimer);
    this.statusTimer = setTimeout(() => (this.status = ''), 4000);
  }

  private share = async () => {
    try {
      await navigator.clipboard.writeText(this.url);
      this.say('Link copied');
    } catch {
      // No clipboard permission (e.g. not a secure context): show the link so it can be copied by hand.
      window.prompt('Copy this link:', this.url);
    }
  };

  private runs(): Partial<Record<RaceEntryName, SeededRecord[]>> {
    return Object.fromEntries(Object.entries(this.seedRuns ?? {}).map(([m, runs]) => [m, runs.seededRecords()]));
  }

  private csv = () => {
    downloadText(recordsToCsv(this.runs()), 'beacon-live-metrics.csv', 'text/csv');
    this.say('CSV saved');
  };

  private json = () => {
    const config = this.config!;
    const text = recordsToJson(
      {
        configs: Object.fromEntries(Object.keys(this.histories!).map((m) => [m, methodConfig(m as RaceEntryName, config)])),
        backend: this.backend,
        url: this.url,
        exportedAt: new Date().toISOString(),
      },
      this.runs(),
    );
    downloadText(text, 'beacon-live-metrics.json', 'application/json');
    this.say('JSON saved');
  };
}

customElements.define('share-export', ShareExport);

declare global {
  interface HTMLElementTagNameMap {
    'share-export': ShareExport;
  }
}
