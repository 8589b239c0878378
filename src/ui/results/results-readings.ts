/**
 * <results-readings>: two readings the pre-registered study leaves open (src/study/readings.ts,
 * docs/maths.md §11):
 *
 * - the AUC as the pre-registration's sentence reads against the AUC as coded, for every AUC claim,
 *   with the claims whose verdict differs marked;
 * - equal env steps are not equal updates: per long cell, each method's mean iterations and its success
 *   against PPO updates up to the last iteration that every run reached, beside the env-step charts.
 *
 * A document written before these readings existed has neither; the element then says so.
 */
import { LitElement, css, html, nothing } from 'lit';
import type { AucReadings, EqualUpdatesCell } from '../../study/readings.ts';
import { effect, interval, percent } from '../../results/format.ts';
import { sharedStyles } from '../theme.ts';
import type { CurveSeries } from './results-curve-chart.ts';
import './results-curve-chart.ts';

const verdict = (held: boolean | null) => (held === null ? 'untestable' : held ? 'held' : 'not held');

/** A method's success against PPO updates as a curve (no band: the table gives the intervals). */
function updatesSeries(cell: EqualUpdatesCell, v: EqualUpdatesCell['variants'][number]): CurveSeries {
  const x = v.curve.map((_, i) => i * cell.updatesPerIteration);
  return { variant: v.variant as CurveSeries['variant'], label: v.label, curve: { envSteps: x, success: v.curve, low: v.curve, high: v.curve } };
}

export class ResultsReadings extends LitElement {
  static override properties = {
    readings: { attribute: false },
    equalUpdates: { attribute: false },
  };

  declare readings: AucReadings | undefined;
  declare equalUpdates: EqualUpdatesCell[] | undefined;

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      table {
        border-collapse: collapse;
        font-size: 0.88rem;
        font-variant-numeric: tabular-nums;
        margin-bottom: 12px;
      }
      caption {
        text-align: left;
        font-weight: 650;
        padding-bottom: 4px;
      }
      th,
      td {
        padding: 4px 10px;
        text-align: left;
        border-top: 1px solid var(--border);
      }
      thead th {
        color: var(--fg-muted);
        font-weight: 600;
      }
      tr[data-differs] td {
        font-weight: 650;
      }
      .cells {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(min(100%, 340px), 1fr));
        gap: 18px;
      }
    `,
  ];

  override render() {
    return html`${this.aucSection()} ${this.updatesSection()}`;
  }

  private aucSection() {
    const r = this.readings;
    if (!r) return html`<p class="muted">This document predates the AUC reading check.</p>`;
    const differing = r.claims.filter((c) => c.differs);
    return html`<section aria-labelledby="auc-readings" data-auc-readings>
      <h3 id="auc-readings">The AUC as written and as coded</h3>
      <p><b>As coded</b> (every claim above): ${r.asCoded}.</p>
      <p><b>As written</b>: ${r.asWritten}.</p>
      <p data-differing=${differing.length}>
        ${
          differing.length === 0
            ? 'No AUC claim changes its verdict between the two readings.'
            : html`<b>${differing.length}</b> of ${r.claims.length} AUC claim records change their verdict: ${differing
                .map((c) => `${c.id} ${c.env ?? ''}${c.horizon ? ` ${c.horizon}` : ''}`)
                .join(', ')}.`
        }
      </p>
      <table>
        <caption>
          Every AUC claim under both readings (changed verdicts in bold)
        </caption>
        <thead>
          <tr>
            <th scope="col">claim</th>
            <th scope="col">env</th>
            <th scope="col">as coded</th>
            <th scope="col">as written</th>
          </tr>
        </thead>
        <tbody>
          ${r.claims.map(
            (c) => html`<tr ?data-differs=${c.differs}>
              <th scope="row">${c.id}${c.horizon ? ` (${c.horizon})` : ''}</th>
              <td>${c.env ?? 'all'}</td>
              <td>${effect('auc', c.asCoded.effect)} ${interval(c.asCoded.ci, (x) => effect('auc', x))}: ${verdict(c.asCoded.held)}</td>
              <td>${effect('auc', c.asWritten.effect)} ${interval(c.asWritten.ci, (x) => effect('auc', x))}: ${verdict(c.asWritten.held)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </section>`;
  }

  private updatesSection() {
    const cells = this.equalUpdates;
    if (!cells) return html`<p class="muted">This document predates the equal-updates comparison.</p>`;
    return html`<section aria-labelledby="equal-updates" data-equal-updates>
      <h3 id="equal-updates">Equal env steps are not equal updates</h3>
      <p>
        A method whose episodes end sooner runs more iterations, so more PPO updates, within the same env-step budget. Here each long cell's methods are
        compared at the last iteration that every one of their runs reached; SFT, which takes no PPO update, is left out.
      </p>
      <div class="cells">
        ${cells.map(
          (cell) => html`<div data-env=${cell.env}>
            <results-curve-chart
              .cells=${cell.variants.map((v) => updatesSeries(cell, v))}
              .budget=${cell.commonIterations * cell.updatesPerIteration}
              xLabel="PPO updates"
              heading="${cell.env}, ${cell.horizon}: success against PPO updates"
            ></results-curve-chart>
            <table>
              <caption>
                ${cell.env}, ${cell.horizon}: at iteration ${cell.commonIterations} (${cell.commonIterations * cell.updatesPerIteration} PPO updates)
              </caption>
              <thead>
                <tr>
                  <th scope="col">method</th>
                  <th scope="col">iterations run (mean)</th>
                  <th scope="col">last-5 success at the common iteration</th>
                </tr>
              </thead>
              <tbody>
                ${cell.variants.map(
                  (v) => html`<tr>
                    <th scope="row">${v.label}</th>
                    <td>${v.meanIterations.toFixed(1)}</td>
                    <td>${percent(v.successAtCommon.mean)} ${interval(v.successAtCommon.ci, (x) => percent(x))}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`,
        )}
      </div>
      ${cells.length === 0 ? html`<p class="muted">No long cell to compare.</p>` : nothing}
    </section>`;
  }
}

customElements.define('results-readings', ResultsReadings);

declare global {
  interface HTMLElementTagNameMap {
    'results-readings': ResultsReadings;
  }
}
