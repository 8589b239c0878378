/**
 * <episode-viewer>: plays back one run: GridHouse on a canvas with the agent's path, the shop's pages on
 * a canvas (shop-view.ts), TextHouse as a transcript; the task's milestones light up at the step they were reached.
 *
 * Takes a `Replay` (src/page/episode-replay.ts) and only draws it: the map's legend, label and cell size
 * and the milestones' states come from src/page/episode-frame.ts, the map is painted by
 * src/ui/painters/gridhouse-painter.ts. Fires `episode-end` when playback reaches the last step, so
 * its parent can move on to a newer batch.
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import type { GridFrame } from '../../../envs/index.ts';
import { mapCellSize, mapLabel, mapLegend, milestoneState } from '../../page/episode-frame.ts';
import { DETECTOR_ONLY, type Replay } from '../../page/episode-replay.ts';
import { ColorSchemeController } from '../controllers/color-scheme-controller.ts';
import { PlaybackController } from '../controllers/playback-controller.ts';
import { VisibilityController } from '../controllers/visibility-controller.ts';
import { ResizeController } from '../controllers/resize-controller.ts';
import { paintGridFrame } from '../painters/gridhouse-painter.ts';
import { cssColor, sharedStyles } from '../theme.ts';
import './shop-view.ts';

export type EpisodeEndEvent = CustomEvent<{ run: number }>;

export class EpisodeViewer extends LitElement {
  static override properties = {
    replay: { attribute: false },
    color: { type: String },
    autoplay: { type: Boolean },
    rate: { type: Number },
  };

  declare replay: Replay | null;
  /** CSS custom property of the method's colour (path and agent). */
  declare color: string;
  /** Start playing when a new replay arrives. */
  declare autoplay: boolean;
  /** Playback speed in steps per second. */
  declare rate: number;

  private readonly playback = new PlaybackController(this, () =>
    this.dispatchEvent(new CustomEvent('episode-end', { detail: { run: this.replay?.run ?? -1 }, bubbles: true, composed: true })),
  );
  private readonly scheme = new ColorSchemeController(this);
  private readonly resize = new ResizeController(
    this,
    () => this.renderRoot.querySelector('.stage'),
    () => this.requestUpdate(),
  );

  constructor() {
    super();
    this.replay = null;
    this.color = '--beacon';
    this.autoplay = true;
    this.rate = 10;
    // Off screen the replay holds its step (nobody watches it), and goes on when it comes back.
    new VisibilityController(this, (visible) => this.playback.hold(!visible));
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        min-width: 0;
      }
      /*
       * Until the first batch, about the height of an episode: what comes after (the credit view, the
       * panels) starts where it will stay, below the first screen in presenter mode.
       */
      .waiting {
        margin: 0;
        min-height: 18rem;
      }
      .task {
        margin: 0 0 8px;
        font-size: 0.9rem;
        font-weight: 600;
      }
      .stage {
        width: 100%;
      }
      canvas {
        display: block;
        max-width: 100%;
        border-radius: 8px;
      }
      .transcript {
        height: 240px;
        overflow-y: auto;
        margin: 0;
        padding: 8px 10px;
        border-radius: 8px;
        background: var(--surface-2);
        font: 0.8rem/1.45 var(--mono);
        list-style: none;
      }
      .transcript li {
        margin: 0 0 6px;
        white-space: pre-wrap;
      }
      .transcript .act {
        color: var(--fg);
        font-weight: 650;
      }
      .transcript .obs {
        color: var(--fg-muted);
      }
      .transcript .ms {
        color: var(--fg);
        background: var(--beacon-glow);
        border-radius: 4px;
        padding: 0 4px;
      }
      .controls {
        display: flex;
        align-items: center;
        gap: 10px;
        margin-top: 8px;
      }
      .controls input {
        flex: 1;
        min-width: 0;
      }
      .controls output {
        font-variant-numeric: tabular-nums;
        font-size: 0.8rem;
        color: var(--fg-muted);
        white-space: nowrap;
      }
      .milestones {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        margin: 10px 0 0;
        padding: 0;
        list-style: none;
        counter-reset: ms;
      }
      .milestones li {
        display: inline-flex;
        align-items: center;
        gap: 6px;
        padding: 4px 10px 4px 6px;
        border-radius: 999px;
        border: 1px solid var(--border);
        font-size: 0.78rem;
        color: var(--fg-muted);
        transition: background 0.2s, color 0.2s;
      }
      .milestones li .k {
        display: inline-grid;
        place-items: center;
        width: 18px;
        height: 18px;
        border-radius: 50%;
        background: var(--border);
        color: var(--fg);
        font-weight: 700;
        font-size: 0.7rem;
      }
      .milestones li.lit {
        border-color: var(--milestone);
        background: var(--milestone-bg);
        color: var(--fg);
      }
      .milestones li.lit .k {
        background: var(--milestone);
        color: #111;
      }
      .milestones li.dropped {
        border-style: dashed;
      }
      .carrying {
        display: flex;
        flex-wrap: wrap;
        gap: 2px 12px;
        margin: 6px 0 0;
        font-size: 0.78rem;
        color: var(--fg-muted);
      }
      .carrying b {
        color: var(--fg);
      }
      .carrying b.obj {
        color: var(--object);
      }
      details {
        margin-top: 6px;
        font-size: 0.8rem;
      }
      details pre {
        overflow-x: auto;
        font: 0.75rem/1.3 var(--mono);
      }
    `,
  ];

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('rate')) this.playback.setRate(this.rate);
    if (changed.has('replay')) this.playback.load(this.replay ? this.replay.actions.length : 0, this.autoplay);
  }

  protected override updated(): void {
    this.draw();
    const log = this.renderRoot.querySelector('.transcript');
    if (log) log.scrollTop = log.scrollHeight;
  }

  override render() {
    const r = this.replay;
    if (!r) return html`<p class="muted waiting">Waiting for the first batch…</p>`;
    const step = this.playback.step;
    const frame = r.frames?.[step];
    return html`
      <p class="task">Task: ${r.task}</p>
      <div class="stage">
        ${
          r.frames
            ? html`<canvas role="img" aria-label=${mapLabel(r, step, frame!)}></canvas>
              ${frame ? this.frameLegend(frame) : nothing}`
            : r.pages
              ? html`<shop-view .frame=${r.pages[step]} .clicked=${r.slots[step] ?? -1} .beaconClick=${(r.recorded[step] ?? 0) > 0}
                .reached=${r.recorded.slice(0, step).filter((k) => k > 0 && k !== DETECTOR_ONLY).length} .total=${r.milestoneNames.length} .color=${this.color}></shop-view>`
              : this.transcript(r, step)
        }
      </div>
      <div class="controls">
        <button type="button" @click=${this.togglePlay} aria-label=${this.playback.playing ? 'Pause the replay' : 'Play the replay'}>
          ${this.playback.playing ? '❚❚' : '▶'}
        </button>
        <input
          type="range"
          min="0"
          max=${r.actions.length}
          .value=${String(step)}
          aria-label="Replay step"
          aria-valuetext="step ${step} of ${r.actions.length}"
          @input=${this.onSeek}
        />
        <output aria-hidden="true">${step} / ${r.actions.length}</output>
      </div>
      <ol class="milestones" aria-label="Milestones">
        ${r.milestoneNames.map((name, i) => this.milestone(r, step, i + 1, name))}
      </ol>
      ${
        r.frames || r.pages
          ? html`<details>
            <summary>As text</summary>
            <pre>${r.observations[step]}</pre>
          </details>`
          : nothing
      }
    `;
  }

  private milestone(r: Replay, step: number, k: number, name: string) {
    const { lit, dropped, state } = milestoneState(r, step, k);
    return html`<li class=${lit ? 'lit' : dropped ? 'dropped' : ''} title=${state}>
      <span class="k" aria-hidden="true">${lit ? '★' : k}</span>${name}<span class="visually-hidden">: ${state}</span>
    </li>`;
  }

  private transcript(r: Replay, step: number) {
    const items = [html`<li class="obs">${r.observations[0]}</li>`];
    for (let t = 0; t < step; t++) {
      const k = r.recorded[t];
      items.push(html`<li>
        <span class="act">&gt; ${r.actions[t]}</span>
        ${
          k === DETECTOR_ONLY
            ? html` <span class="ms">★ the detector fired (no task milestone)</span>`
            : k
              ? html` <span class="ms">★ milestone ${k}: ${r.milestoneNames[k - 1]}</span>`
              : nothing
        }
        <div class="obs">${r.observations[t + 1]}</div>
      </li>`);
    }
    return html`<ol class="transcript" tabindex="0" aria-label="Transcript">${items}</ol>`;
  }

  /** Which letter is which piece of furniture, where the objects are, and what the agent carries. */
  private frameLegend(f: GridFrame) {
    const { furniture, objects } = mapLegend(f);
    return html`<p class="carrying">
      ${furniture.map(([label, letter]) => html`<span class="key"><b>${letter}</b> ${label}</span> `)}
      ${objects.length ? html`<span class="key"><b class="obj">●</b> ${objects.join(', ')}</span>` : nothing}
      ${f.carrying ? html`<span class="key"><b>Carrying:</b> ${f.carrying}</span>` : nothing}
    </p>`;
  }

  private togglePlay = () => {
    if (this.playback.playing) this.playback.stop();
    else this.playback.play();
  };

  private onSeek = (e: Event) => {
    this.playback.stop();
    this.playback.seek(Number((e.target as HTMLInputElement).value));
  };

  /** Draws the GridHouse frame at the current step, with the path so far and reached milestones. */
  private draw(): void {
    const r = this.replay;
    const canvas = this.renderRoot.querySelector('canvas');
    if (!r?.frames || !canvas) return;
    void this.scheme.version; // redraw on scheme change (the controller requests the update)
    const step = this.playback.step;
    const width = this.resize.width || canvas.parentElement!.clientWidth || 320;
    const cell = mapCellSize(width, r.frames[step]);
    paintGridFrame(canvas, r.frames, r.recorded, step, cell, this.color, (p, fallback) => cssColor(this, p, fallback));
  }
}

customElements.define('episode-viewer', EpisodeViewer);

declare global {
  interface HTMLElementTagNameMap {
    'episode-viewer': EpisodeViewer;
  }
  interface HTMLElementEventMap {
    'episode-end': EpisodeEndEvent;
  }
}
