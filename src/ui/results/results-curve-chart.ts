/**
 * <results-curve-chart>: one (env, horizon) cell of the study, the mean success over all seeds of each
 * main method on the cell's env-step grid (every run carried to the budget as the AUC counts it), with
 * its bootstrap 95% band (src/study/confirmatory-types.ts,
 * `CellSummary.curve`). An SVG: it scales with the page (phone to projector), follows the colour scheme
 * through the theme's custom properties, and needs no lifecycle. Its text alternative is a summary in
 * its label and the cell table beside it, which holds every figure.
 */
import { LitElement, css, html, nothing, svg } from 'lit';
import type { CellSummary } from '../../study/confirmatory-types.ts';
import { percent, steps } from '../../results/format.ts';
import { methodColorVar, sharedStyles } from '../theme.ts';

/** Line styles that keep the methods apart without colour (as the race chart does). */
export const CURVE_DASHES: readonly (string | null)[] = [null, '7 3', '2 3', '10 3 2 3', '4 4', '1 2', '12 4'];

const W = 400;
const H = 240;
const PAD = { left: 40, right: 12, top: 10, bottom: 34 };
const Y_TICKS = [0, 0.25, 0.5, 0.75, 1];

/** 45056 → "45k": tick labels must stay short at 390 px wide. */
function compactSteps(x: number): string {
  return x >= 1000 ? `${Math.round(x / 100) / 10}k` : String(Math.round(x));
}

/** What one curve needs: a cell summary, or any series of the same shape (its runs optional). */
export type CurveSeries = Pick<CellSummary, 'variant' | 'label' | 'curve'> & { seeds?: number[] };

export class ResultsCurveChart extends LitElement {
  static override properties = {
    cells: { attribute: false },
    budget: { type: Number },
    heading: { type: String },
    xLabel: { type: String },
  };

  /** The cells drawn, one curve each, in legend order (src/results/cell-tables.ts `chartCells`). */
  declare cells: CurveSeries[];
  /** What the x axis counts. */
  declare xLabel: string;
  /** The cell's env-step budget: the x axis ends there. */
  declare budget: number;
  declare heading: string;

  constructor() {
    super();
    this.cells = [];
    this.budget = 0;
    this.heading = '';
    this.xLabel = 'env steps';
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        min-width: 0;
      }
      figure {
        margin: 0;
      }
      figcaption {
        font-weight: 650;
        font-size: 0.92rem;
        margin-bottom: 4px;
      }
      svg {
        display: block;
        width: 100%;
        height: auto;
        overflow: visible;
      }
      .grid {
        stroke: var(--grid);
        stroke-width: 1;
      }
      .axis {
        fill: var(--fg-muted);
        font: 11px var(--font);
      }
      .target {
        stroke: var(--fg-muted);
        stroke-dasharray: 5 4;
      }
    `,
  ];

  /** The x axis ends at the cell's budget (every method's), else at the furthest point drawn. */
  private get xMax(): number {
    return this.budget > 0 ? this.budget : Math.max(1, ...this.cells.flatMap((c) => c.curve.envSteps));
  }

  private x(steps: number): number {
    return PAD.left + (Math.min(steps, this.xMax) / this.xMax) * (W - PAD.left - PAD.right);
  }

  private y(success: number): number {
    return PAD.top + (1 - Math.min(1, Math.max(0, success))) * (H - PAD.top - PAD.bottom);
  }

  /** The label read by screen readers: each method's last point with its band. */
  private summary(): string {
    const ends = this.cells.map((c) => {
      const i = c.curve.success.length - 1;
      const observed = c.curve.observed?.[i];
      const behind =
        observed === undefined || !c.seeds ? '' : `, ${observed} of ${c.seeds.length} runs still going there, the rest carried at their last-5 success`;
      return `${c.label} ${percent(c.curve.success[i])} [${percent(c.curve.low[i])}, ${percent(c.curve.high[i])}] at ${steps(c.curve.envSteps[i])} ${this.xLabel}${behind}`;
    });
    return `${this.heading}: mean success against ${this.xLabel}. At the end: ${ends.join('; ')}. The table gives every figure.`;
  }

  override render() {
    if (!this.cells.length) return html`<p class="muted">${this.heading}: no curves in this cell.</p>`;
    const xTicks = [0, this.xMax / 2, this.xMax];
    const line = (xs: number[], ys: number[]) => xs.map((x, i) => `${i ? 'L' : 'M'}${this.x(x).toFixed(1)},${this.y(ys[i]).toFixed(1)}`).join('');
    return html`<figure>
      <figcaption>${this.heading}</figcaption>
      <svg viewBox="0 0 ${W} ${H}" role="img" aria-label=${this.summary()}>
        ${Y_TICKS.map(
          (t) => svg`<line class="grid" x1=${PAD.left} x2=${W - PAD.right} y1=${this.y(t)} y2=${this.y(t)}></line>
            <text class="axis" x=${PAD.left - 6} y=${this.y(t) + 4} text-anchor="end">${Math.round(t * 100)}%</text>`,
        )}
        <line class="target" x1=${PAD.left} x2=${W - PAD.right} y1=${this.y(0.6)} y2=${this.y(0.6)}></line>
        ${xTicks.map((t) => svg`<text class="axis" x=${this.x(t)} y=${H - PAD.bottom + 16} text-anchor="middle">${compactSteps(t)}</text>`)}
        <text class="axis" x=${(PAD.left + W - PAD.right) / 2} y=${H - 4} text-anchor="middle">${this.xLabel}</text>
        ${this.cells.map((c) => {
          const { envSteps: xs, low, high } = c.curve;
          const band = `${line(xs, high)}${[...xs]
            .reverse()
            .map((x, i) => `L${this.x(x).toFixed(1)},${this.y(low[xs.length - 1 - i]).toFixed(1)}`)
            .join('')}Z`;
          return svg`<path d=${band} fill="var(${methodColorVar(c.variant)}, #888)" fill-opacity="0.14" stroke="none"></path>`;
        })}
        ${this.cells.map((c, i) => {
          const dash = CURVE_DASHES[i % CURVE_DASHES.length];
          return svg`<path data-variant=${c.variant} d=${line(c.curve.envSteps, c.curve.success)} fill="none" stroke="var(${methodColorVar(c.variant)}, #888)"
            stroke-width="2.25" stroke-linejoin="round" stroke-dasharray=${dash ?? nothing}></path>`;
        })}
      </svg>
    </figure>`;
  }
}

customElements.define('results-curve-chart', ResultsCurveChart);

declare global {
  interface HTMLElementTagNameMap {
    'results-curve-chart': ResultsCurveChart;
  }
}
