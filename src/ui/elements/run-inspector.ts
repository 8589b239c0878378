/**
 * <run-inspector>: one method's latest batch, run by run: a run picker, the episode replay and the
 * per-step credit of the same run side by side.
 *
 * New batches arrive faster than an episode can be watched, so the inspector holds on to the batch it
 * shows until the replay has finished, then moves to the newest one ("follow latest"); turning following
 * off freezes the view on the batch shown. A picked run index is kept for the following batches.
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import type { RaceEntryName } from '../../race/entries.ts';
import { raceEntry } from '../../race/entries.ts';
import { runCredit, type RunCredit } from '../../page/credit-data.ts';
import { defaultRun, replayRun, runOutcome, type Replay } from '../../page/episode-replay.ts';
import type { Speed } from '../../page/page-settings.ts';
import { batchRunCount, batchRunNumber, snapshotRuns, type BatchSnapshot } from '../../worker/batch-snapshot.ts';
import { methodLabel, sharedStyles } from '../theme.ts';
import './credit-view.ts';
import './episode-viewer.ts';

/** Replay speed (steps per second) at each page speed. */
const REPLAY_RATE: Record<Speed, number> = { slow: 4, normal: 10, fast: 24, nodraw: 24 };
/** How long the last frame of an episode stays before the next batch replaces it. */
const HOLD_MS = 900;

export class RunInspector extends LitElement {
  static override properties = {
    method: { type: String },
    snapshot: { attribute: false },
    speed: { type: String },
    shown: { state: true },
    choice: { state: true },
    follow: { state: true },
  };

  declare method: RaceEntryName;
  /** The newest batch of this method (null until one arrives, or after a reset). */
  declare snapshot: BatchSnapshot | null;
  declare speed: Speed;
  declare private shown: BatchSnapshot | null;
  /** 'auto' (a partial success if there is one) or a run index. */
  declare private choice: 'auto' | number;
  declare private follow: boolean;

  private replay: Replay | null = null;
  private credit: RunCredit | null = null;
  private replayError = '';
  private ended = false;
  private holdTimer: ReturnType<typeof setTimeout> | null = null;

  constructor() {
    super();
    this.method = 'beacon';
    this.snapshot = null;
    this.speed = 'normal';
    this.shown = null;
    this.choice = 'auto';
    this.follow = true;
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        min-width: 0;
      }
      .card {
        display: flex;
        flex-direction: column;
        gap: 12px;
        border-top: 4px solid var(--method-color);
      }
      header {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 8px 14px;
      }
      header h3 {
        color: var(--method-ink);
        font-size: 1rem;
      }
      label {
        display: inline-flex;
        align-items: center;
        gap: 6px;
        max-width: 100%;
        min-width: 0;
        font-size: 0.85rem;
      }
      /* A fixed width: the batch's run labels (longer than "auto") must not push the header into two rows. */
      select {
        min-width: 0;
        width: 17em;
        max-width: 100%;
        flex: 0 1 auto;
      }
      /* A line of its own from the first paint: the first batch's figures move nothing. */
      .meta {
        flex-basis: 100%;
        font-size: 0.8rem;
        color: var(--fg-muted);
        font-variant-numeric: tabular-nums;
      }
      .cols {
        display: grid;
        grid-template-columns: minmax(0, 1fr);
        gap: 16px;
      }
      .cols > div {
        min-width: 0;
      }
      h4 {
        margin: 0 0 6px;
        font-size: 0.85rem;
        font-weight: 650;
      }
      .error {
        color: var(--danger);
      }
    `,
  ];

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('snapshot')) {
      if (!this.snapshot) this.show(null);
      else if (!this.shown || (this.follow && this.ended) || this.snapshot.iteration < this.shown.iteration) this.show(this.snapshot);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.holdTimer !== null) clearTimeout(this.holdTimer);
  }

  override render() {
    const label = methodLabel(this.method);
    const s = this.shown;
    const runs = s ? snapshotRuns(s) : 0;
    const run = this.replay?.run ?? -1;
    return html`<section class="card" style="--method-color: var(${label.color}); --method-ink: var(${label.ink})" aria-label="${label.name}: latest batch">
      <header>
        <h3>${label.name}</h3>
        <label
          >Run
          <select @change=${this.onPick} ?disabled=${!s}>
            <option value="auto" ?selected=${this.choice === 'auto'}>auto (a partial success if any)</option>
            ${Array.from({ length: runs }, (_, i) => html`<option value=${i} ?selected=${this.choice === i}>${this.runLabel(s!, i)}</option>`)}
          </select>
        </label>
        <label><input type="checkbox" .checked=${this.follow} @change=${this.onFollow} /> follow latest batch</label>
        <span class="meta"
          >${s ? `iteration ${s.iteration} · run ${batchRunNumber(s, run) + 1} of ${batchRunCount(s)}${s.runNumbers ? ` (${runs} sampled)` : ''} · group ${Math.floor(batchRunNumber(s, run) / s.groupSize) + 1} · ${runOutcome(s, run)}, ${s.milestonesReached[run]}/${s.numMilestones[run]} milestones` : 'waiting for the first batch'}</span
        >
      </header>
      ${this.speed === 'nodraw' && !s ? html`<p class="muted">Episodes and credit are not drawn at speed “nodraw”; pause or change the speed to see them.</p>` : nothing}
      ${this.replayError ? html`<p class="error" role="alert">${this.replayError}</p>` : nothing}
      <div class="cols">
        <div>
          <h4>Episode</h4>
          <episode-viewer .replay=${this.replay} color=${label.color} .rate=${REPLAY_RATE[this.speed]} @episode-end=${this.onEnded}></episode-viewer>
        </div>
        <div>
          <h4>Credit per step</h4>
          <credit-view .credit=${this.credit} method=${raceEntry(this.method).method} .actions=${this.replay?.actions ?? []}></credit-view>
        </div>
      </div>
    </section>`;
  }

  private runLabel(s: BatchSnapshot, i: number): string {
    const steps = s.runOffsets[i + 1] - s.runOffsets[i];
    const number = batchRunNumber(s, i);
    return `run ${number + 1} · group ${Math.floor(number / s.groupSize) + 1} · ${runOutcome(s, i)} ${s.milestonesReached[i]}/${s.numMilestones[i]} · ${steps} steps`;
  }

  private show(snapshot: BatchSnapshot | null): void {
    if (this.holdTimer !== null) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    this.shown = snapshot;
    this.ended = false;
    this.replayError = '';
    if (!snapshot) {
      this.replay = null;
      this.credit = null;
      this.choice = 'auto';
      return;
    }
    const runs = snapshotRuns(snapshot);
    const run = this.choice === 'auto' || this.choice >= runs ? defaultRun(snapshot) : this.choice;
    this.credit = runCredit(snapshot, run);
    try {
      this.replay = replayRun(snapshot, run);
    } catch (e) {
      this.replay = null;
      this.replayError = `The episode could not be replayed: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  private onPick = (e: Event) => {
    const v = (e.target as HTMLSelectElement).value;
    this.choice = v === 'auto' ? 'auto' : Number(v);
    this.show(this.shown);
  };

  private onFollow = (e: Event) => {
    this.follow = (e.target as HTMLInputElement).checked;
    if (this.follow && this.ended && this.snapshot && this.snapshot !== this.shown) this.show(this.snapshot);
  };

  private onEnded = () => {
    this.ended = true;
    if (!this.follow) return;
    this.holdTimer = setTimeout(() => {
      this.holdTimer = null;
      if (this.follow && this.snapshot && this.snapshot !== this.shown) this.show(this.snapshot);
    }, HOLD_MS);
  };
}

customElements.define('run-inspector', RunInspector);

declare global {
  interface HTMLElementTagNameMap {
    'run-inspector': RunInspector;
  }
}
