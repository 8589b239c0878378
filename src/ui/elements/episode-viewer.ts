/**
 * <episode-viewer>: plays back one run: GridHouse on a canvas with the agent's path, the shop's pages on
 * a canvas (shop-view.ts), TextHouse as a transcript; the task's milestones light up at the step they were reached.
 *
 * Takes a `Replay` (src/page/episode-replay.ts) and only draws it. Fires `episode-end` when playback
 * reaches the last step, so its parent can move on to a newer batch.
 */
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import type { GridFrame } from '../../../envs/index.ts';
import type { Replay } from '../../page/episode-replay.ts';
import { ColorSchemeController } from '../controllers/color-scheme-controller.ts';
import { PlaybackController } from '../controllers/playback-controller.ts';
import { VisibilityController } from '../controllers/visibility-controller.ts';
import { ResizeController } from '../controllers/resize-controller.ts';
import { cssColor, sharedStyles, withAlpha } from '../theme.ts';
import './shop-view.ts';

export type EpisodeEndEvent = CustomEvent<{ run: number }>;

const MAX_MAP_HEIGHT = 400;

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
            ? html`<canvas role="img" aria-label=${this.frameLabel(r, step, frame!)}></canvas>
              ${frame ? this.frameLegend(frame) : nothing}`
            : r.pages
              ? html`<shop-view .frame=${r.pages[step]} .clicked=${r.slots[step] ?? -1} .beaconClick=${(r.recorded[step] ?? 0) > 0}
                .reached=${r.recorded.slice(0, step).filter((k) => k > 0).length} .total=${r.milestoneNames.length} .color=${this.color}></shop-view>`
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
    const recordedAt = r.recorded.indexOf(k);
    const detectedAt = r.detected.indexOf(k);
    const lit = recordedAt >= 0 && recordedAt < step;
    const dropped = recordedAt < 0 && detectedAt >= 0 && detectedAt < step;
    const state = lit ? `reached at step ${recordedAt + 1}` : dropped ? `reached at step ${detectedAt + 1} but dropped (milestone dropout)` : 'not reached yet';
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
        ${k ? html` <span class="ms">★ milestone ${k}: ${r.milestoneNames[k - 1]}</span>` : nothing}
        <div class="obs">${r.observations[t + 1]}</div>
      </li>`);
    }
    return html`<ol class="transcript" tabindex="0" aria-label="Transcript">${items}</ol>`;
  }

  /** Which letter is which piece of furniture, where the objects are, and what the agent carries. */
  private frameLegend(f: GridFrame) {
    const furniture = new Map<string, string>();
    for (const item of f.items) if (item.kind !== 'object') furniture.set(item.label, item.label[0].toUpperCase());
    const objects = f.items
      .filter((i) => i.kind === 'object')
      .map((o) => {
        const under = f.items.find((i) => i.kind !== 'object' && i.x === o.x && i.y === o.y);
        return under ? `${o.label} (on the ${under.label})` : o.label;
      });
    return html`<p class="carrying">
      ${[...furniture].map(([label, letter]) => html`<span class="key"><b>${letter}</b> ${label}</span> `)}
      ${objects.length ? html`<span class="key"><b class="obj">●</b> ${objects.join(', ')}</span>` : nothing}
      ${f.carrying ? html`<span class="key"><b>Carrying:</b> ${f.carrying}</span>` : nothing}
    </p>`;
  }

  private frameLabel(r: Replay, step: number, f: GridFrame): string {
    const carrying = f.carrying ? `, carrying ${f.carrying}` : '';
    return `GridHouse map, step ${step} of ${r.actions.length}: agent at column ${f.agent.x}, row ${f.agent.y}${carrying}.`;
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
    const frame = r.frames[step];
    const width = this.resize.width || canvas.parentElement!.clientWidth || 320;
    // Fit the width, and keep tall maps (rooms stacked vertically) within about half a phone screen.
    const cell = Math.max(8, Math.floor(Math.min(width / frame.width, MAX_MAP_HEIGHT / frame.height, 44)));
    const dpr = devicePixelRatio || 1;
    const w = cell * frame.width;
    const h = cell * frame.height;
    // Resizing a canvas reallocates its backing store: do it only when the size changes, not every step.
    const [pw, ph] = [Math.round(w * dpr), Math.round(h * dpr)];
    if (canvas.width !== pw || canvas.height !== ph) {
      canvas.style.width = `${w}px`;
      canvas.style.height = `${h}px`;
      canvas.width = pw;
      canvas.height = ph;
    }
    const ctx = canvas.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const c = (p: string, fb: string) => cssColor(this, p, fb);
    const colors = {
      wall: c('--wall', '#3a3f4b'),
      floor: c('--floor', '#f3f1ea'),
      grid: c('--floor-grid', '#e4e0d5'),
      doorOpen: c('--door-open', '#c9b48a'),
      doorClosed: c('--door-closed', '#8a6a3a'),
      doorLocked: c('--door-locked', '#D55E00'),
      item: c('--item', '#6b7280'),
      object: c('--object', '#009E73'),
      label: c('--item-label', '#fff'),
      path: c(this.color, '#0072B2'),
      milestone: c('--milestone', '#F0E442'),
    };
    for (let y = 0; y < frame.height; y++) {
      for (let x = 0; x < frame.width; x++) {
        const t = frame.tiles[y * frame.width + x];
        ctx.fillStyle = t === '#' ? colors.wall : t === '+' ? colors.doorOpen : t === 'D' ? colors.doorClosed : t === 'L' ? colors.doorLocked : colors.floor;
        ctx.fillRect(x * cell, y * cell, cell, cell);
        if (t === '.') {
          ctx.strokeStyle = colors.grid;
          ctx.lineWidth = 1;
          ctx.strokeRect(x * cell + 0.5, y * cell + 0.5, cell - 1, cell - 1);
        }
        if (t === 'L') padlock(ctx, (x + 0.5) * cell, (y + 0.5) * cell, cell, colors.label);
        if (t === 'D') {
          // A closed door: a knob.
          ctx.fillStyle = colors.label;
          ctx.beginPath();
          ctx.arc((x + 0.7) * cell, (y + 0.5) * cell, cell * 0.08, 0, Math.PI * 2);
          ctx.fill();
        }
      }
    }
    // Receptacles and appliances fill their cell; objects sit on them as small badges.
    const objectsAt = new Map<string, number>();
    for (const item of frame.items) {
      const cx = item.x * cell;
      const cy = item.y * cell;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      if (item.kind === 'object') {
        const key = `${item.x},${item.y}`;
        const n = objectsAt.get(key) ?? 0;
        objectsAt.set(key, n + 1);
        const rr = cell * 0.17;
        const ox = cx + cell - rr - 2 - n * (rr * 2 + 1);
        const oy = cy + cell - rr - 2;
        ctx.fillStyle = colors.object;
        ctx.beginPath();
        ctx.arc(ox, oy, rr, 0, Math.PI * 2);
        ctx.fill();
      } else {
        ctx.fillStyle = colors.item;
        roundRect(ctx, cx + 2, cy + 2, cell - 4, cell - 4, cell * 0.18);
        ctx.fill();
        ctx.fillStyle = colors.label;
        ctx.font = `700 ${Math.round(cell * 0.42)}px system-ui, sans-serif`;
        ctx.fillText(item.label[0].toUpperCase(), cx + cell / 2, cy + cell / 2 - cell * 0.06);
      }
    }
    // The path so far.
    ctx.strokeStyle = withAlpha(colors.path, 0.55);
    ctx.lineWidth = Math.max(2, cell * 0.12);
    ctx.lineJoin = 'round';
    ctx.lineCap = 'round';
    ctx.beginPath();
    for (let t = 0; t <= step; t++) {
      const a = r.frames[t].agent;
      const px = (a.x + 0.5) * cell;
      const py = (a.y + 0.5) * cell;
      if (t === 0) ctx.moveTo(px, py);
      else ctx.lineTo(px, py);
    }
    ctx.stroke();
    // Milestones reached so far, where the agent stood.
    for (let t = 0; t < step; t++) {
      const k = r.recorded[t];
      if (!k) continue;
      const a = r.frames[t + 1].agent;
      star(ctx, (a.x + 0.5) * cell, (a.y + 0.5) * cell - cell * 0.32, cell * 0.22, colors.milestone);
    }
    // The agent.
    const a = frame.agent;
    ctx.fillStyle = colors.path;
    ctx.strokeStyle = colors.label;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc((a.x + 0.5) * cell, (a.y + 0.5) * cell, cell * 0.3, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
  }
}

function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

function padlock(ctx: CanvasRenderingContext2D, cx: number, cy: number, cell: number, color: string): void {
  const w = cell * 0.36;
  const h = cell * 0.26;
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = Math.max(1.5, cell * 0.07);
  ctx.beginPath();
  ctx.arc(cx, cy - h * 0.35, w * 0.3, Math.PI, 0);
  ctx.stroke();
  ctx.fillRect(cx - w / 2, cy - h * 0.3, w, h);
}

function star(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, color: string): void {
  ctx.beginPath();
  for (let i = 0; i < 10; i++) {
    const rad = i % 2 === 0 ? r : r * 0.45;
    const ang = -Math.PI / 2 + (i * Math.PI) / 5;
    const px = x + rad * Math.cos(ang);
    const py = y + rad * Math.sin(ang);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.closePath();
  ctx.fillStyle = color;
  ctx.fill();
  ctx.strokeStyle = 'rgba(0,0,0,0.55)';
  ctx.lineWidth = 1;
  ctx.stroke();
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
