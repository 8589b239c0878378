/**
 * <results-failures>: whole-seed failures (runs whose smoothed success never rose 0.10 above iteration
 * 0; docs/results/preregistration.md, "Tests") per environment, method and horizon, reported apart from
 * the means: the tests include every seed, the cell tables show the means with and without them.
 */
import { LitElement, css, html } from 'lit';
import type { FailureCount } from '../../study/confirmatory-types.ts';
import { envFailures } from '../../results/cell-tables.ts';
import { isVariant, variantLabel } from '../../study/variants.ts';
import { sharedStyles } from '../theme.ts';

export class ResultsFailures extends LitElement {
  static override properties = {
    failures: { attribute: false },
    envs: { attribute: false },
  };

  declare failures: FailureCount[];
  declare envs: string[];

  constructor() {
    super();
    this.failures = [];
    this.envs = [];
  }

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
        min-width: min(100%, 28rem);
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
      td.n {
        text-align: right;
      }
      thead th {
        color: var(--fg-muted);
        font-weight: 600;
      }
      .envs {
        display: grid;
        gap: 14px;
      }
      p {
        margin: 0;
      }
    `,
  ];

  override render() {
    return html`<div class="envs">
      ${this.envs.map((env) => {
        const { rows, failed, runs } = envFailures(this.failures, env);
        if (!failed) return html`<p data-failures=${env}><b>${env}</b>: no run failed to start (${runs} runs).</p>`;
        return html`<table data-failures=${env}>
          <caption>
            ${env}: ${failed} of ${runs} runs failed to start
          </caption>
          <thead>
            <tr>
              <th scope="col">Method</th>
              <th scope="col">Horizon</th>
              <th scope="col">Failures / runs</th>
            </tr>
          </thead>
          <tbody>
            ${rows.map(
              (f) => html`<tr>
                <th scope="row">${isVariant(f.variant) ? variantLabel(f.variant) : f.variant}</th>
                <td>${f.horizon}</td>
                <td class="n">${f.failures} / ${f.runs}</td>
              </tr>`,
            )}
          </tbody>
        </table>`;
      })}
    </div>`;
  }
}

customElements.define('results-failures', ResultsFailures);

declare global {
  interface HTMLElementTagNameMap {
    'results-failures': ResultsFailures;
  }
}
