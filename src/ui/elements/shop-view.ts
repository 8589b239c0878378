/**
 * <shop-view>: draws the shop page the agent sees at one replay step (docs/maths.md §10), on a canvas:
 * a browser window with the instruction, then the search box and its candidate queries, or a results
 * page (10 products, Next, Prev, Back to Search), or an item page (title, price against the limit,
 * option buttons with the selected ones filled, Back, Buy Now). The button the agent clicks next is
 * outlined in the method's colour; milestone beacons (stars) light up in the header as they are
 * reached, and a beacon marks the click that reached one.
 *
 * Only draws; the episode viewer (episode-viewer.ts) owns playback and passes the step's frame.
 */
import { LitElement, css, html, type PropertyValues } from 'lit';
import type { ShopFrame } from '../../../envs/index.ts';
import { ColorSchemeController } from '../controllers/color-scheme-controller.ts';
import { ResizeController } from '../controllers/resize-controller.ts';
import { fitCanvas, roundRect, star } from '../painters/canvas.ts';
import { cssColor, sharedStyles, withAlpha } from '../theme.ts';

/** Action slots of the shop (envs/shop/state.ts): 10 list entries, then the page's buttons. */
const S_NEXT = 10;
const S_PREV = 11;
const S_SEARCH = 12;
const S_BACK = 13;
const S_BUY = 14;

const HEIGHT = 380;

export class ShopView extends LitElement {
  static override properties = {
    frame: { attribute: false },
    clicked: { type: Number },
    beaconClick: { type: Boolean },
    reached: { type: Number },
    total: { type: Number },
    color: { type: String },
  };

  declare frame: ShopFrame | null;
  /** Slot the agent clicks from this page (−1 at the last step). */
  declare clicked: number;
  /** Whether that click reaches a milestone. */
  declare beaconClick: boolean;
  /** Milestones reached so far, and the task's count. */
  declare reached: number;
  declare total: number;
  /** CSS custom property of the method's colour. */
  declare color: string;

  private readonly scheme = new ColorSchemeController(this);
  private readonly resize = new ResizeController(
    this,
    () => this.renderRoot.querySelector('canvas')?.parentElement ?? null,
    () => this.requestUpdate(),
  );

  constructor() {
    super();
    this.frame = null;
    this.clicked = -1;
    this.beaconClick = false;
    this.reached = 0;
    this.total = 0;
    this.color = '--beacon';
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      canvas {
        display: block;
        max-width: 100%;
        border-radius: 8px;
      }
    `,
  ];

  override render() {
    return html`<div><canvas role="img" aria-label=${this.label()}></canvas></div>`;
  }

  protected override updated(_changed: PropertyValues): void {
    this.draw();
  }

  private label(): string {
    const f = this.frame;
    if (!f) return 'Shop page';
    const where =
      f.page === 'search'
        ? 'search page'
        : f.page === 'results'
          ? `results page ${f.resultsPage} of ${f.resultsPages} for "${f.query}"`
          : `item page of ${f.item?.title ?? ''}`;
    return `Shop, ${where}; ${this.reached} of ${this.total} milestones reached.`;
  }

  private draw(): void {
    const f = this.frame;
    const canvas = this.renderRoot.querySelector('canvas');
    if (!f || !canvas) return;
    void this.scheme.version; // redraw on scheme change
    const w = Math.max(280, Math.min(this.resize.width || canvas.parentElement!.clientWidth || 480, 640));
    const h = HEIGHT;
    const ctx = fitCanvas(canvas, w, h);
    const c = (p: string, fb: string) => cssColor(this, p, fb);
    const col = {
      chrome: c('--wall', '#3a3f4b'),
      page: c('--floor', '#f3f1ea'),
      line: c('--floor-grid', '#e4e0d5'),
      button: c('--item', '#6b7280'),
      buttonText: c('--item-label', '#fff'),
      text: '#1f2328',
      muted: '#5b6470',
      ok: c('--object', '#009E73'),
      over: c('--door-locked', '#D55E00'),
      accent: c(this.color, '#0072B2'),
      milestone: c('--milestone', '#F0E442'),
    };
    // ---- Window chrome: address bar with the page, beacons for the milestones ----
    ctx.fillStyle = col.page;
    roundRect(ctx, 0, 0, w, h, 8);
    ctx.fill();
    ctx.fillStyle = col.chrome;
    roundRect(ctx, 0, 0, w, 30, 8);
    ctx.fill();
    ctx.fillRect(0, 20, w, 10);
    for (let i = 0; i < 3; i++) {
      ctx.fillStyle = ['#ff5f57', '#febc2e', '#28c840'][i];
      ctx.beginPath();
      ctx.arc(12 + i * 14, 15, 4, 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.fillStyle = withAlpha('#ffffff', 0.9);
    roundRect(ctx, 56, 7, Math.max(60, w - 56 - 20 - this.total * 18), 16, 8);
    ctx.fill();
    ctx.fillStyle = col.muted;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    const path =
      f.page === 'search' ? 'shop/search' : f.page === 'results' ? `shop/results?q=${f.query}&page=${f.resultsPage}` : `shop/item/${f.item?.code ?? ''}`;
    fitText(ctx, path, 64, 15, w - 56 - 36 - this.total * 18);
    for (let k = 0; k < this.total; k++) {
      const x = w - 12 - (this.total - 1 - k) * 18;
      if (k < this.reached) star(ctx, x, 15, 7, col.milestone);
      else {
        ctx.strokeStyle = withAlpha('#ffffff', 0.6);
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.arc(x, 15, 5, 0, Math.PI * 2);
        ctx.stroke();
      }
    }
    // ---- Instruction ----
    let y = 40;
    ctx.font = '11px system-ui, sans-serif';
    const lines = wrap(ctx, f.instruction, w - 28, 2);
    ctx.fillStyle = withAlpha(col.accent, 0.12);
    roundRect(ctx, 8, y, w - 16, 20 + 14 * lines.length, 6);
    ctx.fill();
    ctx.fillStyle = col.text;
    ctx.font = '600 11px system-ui, sans-serif';
    fitText(ctx, `Instruction${f.lines > 1 ? ` (product ${f.line} of ${f.lines})` : ''}:`, 14, y + 10, w - 28);
    ctx.font = '11px system-ui, sans-serif';
    lines.forEach((line, i) => fitText(ctx, line, 14, y + 24 + 14 * i, w - 28));
    y += 30 + 14 * lines.length;

    const button = (slot: number, x: number, by: number, bw: number, bh: number, label: string, filled = true) => {
      ctx.fillStyle = filled ? col.button : col.page;
      roundRect(ctx, x, by, bw, bh, 5);
      ctx.fill();
      if (!filled) {
        ctx.strokeStyle = col.button;
        ctx.lineWidth = 1;
        ctx.stroke();
      }
      ctx.fillStyle = filled ? col.buttonText : col.text;
      ctx.font = '600 11px system-ui, sans-serif';
      ctx.textAlign = 'center';
      fitText(ctx, label, x + bw / 2, by + bh / 2, bw - 6);
      ctx.textAlign = 'left';
      this.mark(ctx, slot, x, by, bw, bh, col);
    };

    if (f.page === 'search') {
      ctx.fillStyle = '#ffffff';
      roundRect(ctx, 8, y, w - 16, 26, 13);
      ctx.fill();
      ctx.strokeStyle = col.button;
      ctx.lineWidth = 1;
      ctx.stroke();
      ctx.fillStyle = col.muted;
      ctx.font = '12px system-ui, sans-serif';
      fitText(ctx, '🔍  Search… pick a query:', 20, y + 13, w - 40);
      y += 36;
      f.queries.forEach((q, i) => {
        const row = y + i * 30;
        ctx.fillStyle = '#ffffff';
        roundRect(ctx, 8, row, w - 16, 24, 5);
        ctx.fill();
        ctx.fillStyle = col.text;
        ctx.font = '12px system-ui, sans-serif';
        fitText(ctx, `search[${q}]`, 16, row + 12, w - 32);
        this.mark(ctx, i, 8, row, w - 16, 24, col);
      });
    } else if (f.page === 'results') {
      button(S_SEARCH, 8, y, 110, 20, 'Back to Search');
      ctx.fillStyle = col.muted;
      ctx.font = '11px system-ui, sans-serif';
      fitText(ctx, `Page ${f.resultsPage} of ${f.resultsPages} for "${f.query}"`, 126, y + 10, w - 134);
      y += 26;
      const rowH = 21;
      f.products.forEach((p, i) => {
        const row = y + i * rowH;
        ctx.fillStyle = i % 2 ? col.page : '#ffffff';
        ctx.fillRect(8, row, w - 16, rowH - 1);
        ctx.fillStyle = col.accent;
        ctx.font = '600 10px ui-monospace, monospace';
        ctx.fillText(p.code, 12, row + rowH / 2);
        ctx.fillStyle = col.text;
        ctx.font = '11px system-ui, sans-serif';
        fitText(ctx, p.title, 60, row + rowH / 2, w - 60 - 70);
        ctx.fillStyle = p.price <= f.limit ? col.ok : col.over;
        ctx.textAlign = 'right';
        ctx.fillText(`$${p.price}.00`, w - 14, row + rowH / 2);
        ctx.textAlign = 'left';
        this.mark(ctx, i, 8, row, w - 16, rowH - 1, col);
      });
      const by = y + 10 * rowH + 4;
      if (f.resultsPage > 1) button(S_PREV, 8, by, 80, 20, '< Prev');
      if (f.resultsPage < f.resultsPages) button(S_NEXT, w - 88, by, 80, 20, 'Next >');
    } else if (f.item) {
      button(S_SEARCH, 8, y, 110, 20, 'Back to Search');
      button(S_BACK, 124, y, 70, 20, '< Back');
      y += 30;
      ctx.fillStyle = col.accent;
      ctx.font = '600 10px ui-monospace, monospace';
      ctx.fillText(f.item.code, 12, y + 8);
      ctx.fillStyle = col.text;
      ctx.font = '600 14px system-ui, sans-serif';
      fitText(ctx, f.item.title, 60, y + 8, w - 72);
      y += 24;
      ctx.font = '12px system-ui, sans-serif';
      ctx.fillStyle = f.item.price <= f.limit ? col.ok : col.over;
      ctx.fillText(`Price: $${f.item.price}.00 (limit $${f.limit}.00)`, 12, y + 6);
      y += 22;
      let slot = 0;
      for (const o of f.item.options) {
        if (o.values.length === 0) continue;
        ctx.fillStyle = col.muted;
        ctx.font = '600 11px system-ui, sans-serif';
        ctx.fillText(o.dimension, 12, y + 11);
        let x = 60;
        for (const v of o.values) {
          const bw = Math.max(48, ctx.measureText(v.name).width + 18);
          button(slot++, x, y, bw, 22, v.name, v.selected);
          x += bw + 6;
        }
        y += 30;
      }
      button(S_BUY, 12, y + 6, 110, 26, 'Buy Now');
    }
  }

  /** Outlines the slot the agent clicks next, with a beacon when that click reaches a milestone. */
  private mark(ctx: CanvasRenderingContext2D, slot: number, x: number, y: number, w: number, h: number, col: { accent: string; milestone: string }): void {
    if (slot !== this.clicked) return;
    ctx.strokeStyle = col.accent;
    ctx.lineWidth = 2.5;
    roundRect(ctx, x - 2, y - 2, w + 4, h + 4, 6);
    ctx.stroke();
    if (this.beaconClick) star(ctx, x + w - 6, y + 2, 8, col.milestone);
  }
}

/** Splits `text` at spaces into at most `max` lines of `width` pixels (the last one may overflow and is shortened). */
function wrap(ctx: CanvasRenderingContext2D, text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > width && lines.length < max - 1) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  lines.push(line);
  return lines;
}

/** Draws `text` at (x, y), shortened with an ellipsis to fit `max` pixels. */
function fitText(ctx: CanvasRenderingContext2D, text: string, x: number, y: number, max: number): void {
  let t = text;
  if (ctx.measureText(t).width > max) {
    while (t.length > 1 && ctx.measureText(`${t}…`).width > max) t = t.slice(0, -1);
    t = `${t}…`;
  }
  ctx.fillText(t, x, y);
}

customElements.define('shop-view', ShopView);

declare global {
  interface HTMLElementTagNameMap {
    'shop-view': ShopView;
  }
}
