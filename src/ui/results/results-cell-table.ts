/**
 * <results-cell-table>: one environment's cells, method × horizon, with the pre-registered endpoints
 * (docs/results/preregistration.md, "Endpoints"): AUC, env steps to 60% (with the runs that never got
 * there), final success, each as the mean over seeds with its bootstrap 95% interval, and the whole-seed
 * failures with the means without them, and the seeds at the floor and at the ceiling
 * (src/study/seed-bounds.ts). It is also the text alternative of the environment's charts.
 */
import { LitElement, css, html } from 'lit';
import type { CellSummary } from '../../study/confirmatory-types.ts';
import type { CellBound } from '../../study/seed-bounds.ts';
import { interval, percent, steps } from '../../results/format.ts';
import { isVariant, variantColor } from '../../study/variants.ts';
import { methodColorVar, sharedStyles } from '../theme.ts';

export class ResultsCellTable extends LitElement {
  static override properties = {
    env: { type: String },
    rows: { attribute: false },
    budgets: { attribute: false },
    bounds: { attribute: false },
  };

  declare env: string;
  /** The environment's cells by horizon, then variant (src/results/cell-tables.ts `envRows`). */
  declare rows: CellSummary[];
  /** Env-step budget per horizon. */
  declare budgets: Record<string, number | undefined>;
  /** Seeds at the floor and at the ceiling per cell (study.json's page copy, `bounds.cells`); empty when unknown. */
  declare bounds: CellBound[];

  constructor() {
    super();
    this.env = '';
    this.rows = [];
    this.budgets = {};
    this.bounds = [];
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      .scroll {
        overflow-x: auto;
        border: 1px solid var(--border);
        border-radius: 10px;
        background: var(--surface);
      }
      table {
        border-collapse: collapse;
        width: 100%;
        font-size: 0.85rem;
      }
      caption {
        text-align: left;
        padding: 10px 12px 6px;
        font-weight: 650;
      }
      th,
      td {
        padding: 5px 10px;
        text-align: right;
        white-space: nowrap;
        border-top: 1px solid var(--border);
        font-variant-numeric: tabular-nums;
      }
      thead th {
        font-weight: 600;
        color: var(--fg-muted);
        vertical-align: bottom;
      }
      th[scope='row'],
      thead th:first-child {
        text-align: left;
        font-weight: 550;
      }
      th[scope='rowgroup'] {
        text-align: left;
        background: var(--surface-2);
        font-weight: 650;
      }
      .dot {
        display: inline-block;
        width: 9px;
        height: 9px;
        border-radius: 50%;
        margin-right: 6px;
      }
      .ci {
        color: var(--fg-muted);
        font-size: 0.8rem;
      }
      .warn {
        color: var(--danger);
        font-weight: 650;
      }
    `,
  ];

  override render() {
    const horizons = [...new Set(this.rows.map((r) => r.horizon))];
    return html`<div class="scroll" tabindex="0" role="region" aria-label="${this.env}: cells table (scrolls sideways)">
      <table data-env=${this.env}>
        <caption>
          ${this.env}: every method and horizon, mean over seeds [bootstrap 95% CI]
        </caption>
        <thead>
          <tr>
            <th scope="col">Method</th>
            <th scope="col">AUC</th>
            <th scope="col">Env steps to 60%</th>
            <th scope="col">Never 60%</th>
            <th scope="col">Final success</th>
            <th scope="col">Failures to start</th>
            <th scope="col">AUC, final without failures</th>
            <th scope="col">At the floor</th>
            <th scope="col">At the ceiling</th>
          </tr>
        </thead>
        ${horizons.map(
          (h) => html`<tbody>
            <tr>
              <th scope="rowgroup" colspan="9">${h} · budget ${steps(this.budgets[h])} env steps</th>
            </tr>
            ${this.rows.filter((r) => r.horizon === h).map((r) => this.row(r))}
          </tbody>`,
        )}
      </table>
    </div>`;
  }

  private row(c: CellSummary) {
    const n = c.finalSuccess.n;
    const b = this.bounds.find((x) => x.env === c.env && x.horizon === c.horizon && x.variant === c.variant);
    const share = (k: 'floor' | 'ceiling') =>
      b ? html`<td class=${b[k] ? 'warn' : ''} data-bound=${k} data-count=${b[k]}>${b[k]} / ${b.seeds}</td>` : html`<td>—</td>`;
    return html`<tr data-variant=${c.variant} data-horizon=${c.horizon}>
      <th scope="row"><span class="dot" style="background: var(${methodColorVar(c.variant)}, ${isVariant(c.variant) ? variantColor(c.variant) : 'var(--fg-muted)'})"></span>${c.label}</th>
      <td>${percent(c.auc.mean)} <span class="ci">${interval(c.auc.ci, (x) => percent(x))}</span></td>
      <td>${steps(c.stepsTo60.mean)} <span class="ci">${interval(c.stepsTo60.ci, steps)}</span></td>
      <td>${c.never60} / ${n}</td>
      <td>${percent(c.finalSuccess.mean)} <span class="ci">${interval(c.finalSuccess.ci, (x) => percent(x))}</span></td>
      <td class=${c.failures ? 'warn' : ''}>${c.failures} / ${n}</td>
      <td>
        ${
          c.failures
            ? html`${percent(c.withoutFailures.auc)}, ${percent(c.withoutFailures.finalSuccess)} <span class="ci">(n = ${c.withoutFailures.n})</span>`
            : html`<span class="ci">none</span>`
        }
      </td>
      ${share('floor')} ${share('ceiling')}
    </tr>`;
  }
}

customElements.define('results-cell-table', ResultsCellTable);

declare global {
  interface HTMLElementTagNameMap {
    'results-cell-table': ResultsCellTable;
  }
}
