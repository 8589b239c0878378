/**
 * <metric-tip>: a small "i" button that explains a metric or a setting.
 *
 * The explanation shows on hover and on keyboard focus, toggles on click or tap (phones have no hover),
 * and hides on Escape or when focus leaves. It is placed inside the viewport on narrow screens.
 * Text comes from the caller (the metric-docs table or the settings tables), never from here.
 */
import { LitElement, css, html } from 'lit';
import { sharedStyles } from '../theme.ts';

let nextId = 0;

export class MetricTip extends LitElement {
  static override properties = {
    label: { type: String },
    doc: { type: String },
    open: { state: true },
  };

  /** What is explained (read as the button's accessible name: "About <label>"). */
  declare label: string;
  /** The explanation. */
  declare doc: string;
  declare private open: boolean;
  private readonly tipId = `metric-tip-${nextId++}`;
  private pinned = false;

  constructor() {
    super();
    this.label = '';
    this.doc = '';
    this.open = false;
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: inline-block;
        position: relative;
        vertical-align: middle;
        line-height: 1;
      }
      button {
        min-height: 0;
        width: 20px;
        height: 20px;
        padding: 0;
        border-radius: 50%;
        justify-content: center;
        font-size: 0.72rem;
        font-weight: 700;
        font-style: italic;
        font-family: Georgia, 'Times New Roman', serif;
        border: 1px solid var(--border-strong);
        background: transparent;
        color: var(--fg-muted);
      }
      /* A larger invisible hit area for fingers. */
      button::after {
        content: '';
        position: absolute;
        inset: -10px;
      }
      [role='tooltip'] {
        position: absolute;
        z-index: 20;
        top: calc(100% + 8px);
        left: 0;
        width: max-content;
        max-width: min(20rem, calc(100vw - 24px));
        padding: 10px 12px;
        border-radius: 8px;
        background: var(--tip-bg);
        color: var(--tip-fg);
        font: 400 0.82rem/1.45 var(--font);
        font-style: normal;
        text-align: left;
        white-space: normal;
        box-shadow: 0 6px 24px rgb(0 0 0 / 0.25);
      }
      [role='tooltip'][hidden] {
        display: none;
      }
      strong {
        display: block;
        margin-bottom: 2px;
      }
    `,
  ];

  override render() {
    return html`<button
        type="button"
        aria-label="About ${this.label}"
        aria-describedby=${this.tipId}
        aria-expanded=${this.open ? 'true' : 'false'}
        @click=${this.toggle}
        @mouseenter=${this.show}
        @mouseleave=${this.hideUnlessPinned}
        @focus=${this.show}
        @blur=${this.hide}
        @keydown=${this.onKey}
      >i</button
      ><span id=${this.tipId} role="tooltip" ?hidden=${!this.open}><strong>${this.label}</strong>${this.doc}</span>`;
  }

  private show = () => {
    this.open = true;
  };

  private hide = () => {
    this.pinned = false;
    this.open = false;
  };

  private hideUnlessPinned = () => {
    if (!this.pinned) this.open = false;
  };

  private toggle = () => {
    this.pinned = !this.pinned;
    this.open = this.pinned;
  };

  private onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && this.open) {
      e.stopPropagation();
      this.hide();
    }
  };

  protected override updated(): void {
    if (!this.open) return;
    // Keep the bubble on screen: shift it left when it would overflow the right edge.
    const tip = this.renderRoot.querySelector<HTMLElement>('[role="tooltip"]');
    if (!tip) return;
    tip.style.left = '0px';
    const rect = tip.getBoundingClientRect();
    const overflow = rect.right - (document.documentElement.clientWidth - 12);
    if (overflow > 0) tip.style.left = `${-Math.min(overflow, rect.left - 12)}px`;
  }
}

customElements.define('metric-tip', MetricTip);

declare global {
  interface HTMLElementTagNameMap {
    'metric-tip': MetricTip;
  }
}
