/**
 * <results-claim>: one claim record of the study (src/study/confirmatory-types.ts `ClaimRecord`): the
 * claim, its verdict (held, not held, or untestable with the reason), the effect with its 95% interval
 * drawn against zero and the pre-registered minimal effect or equivalence margin, the paired tests with
 * their p and Holm-adjusted p, what the paper says, what we measured, and the rule applied
 * (docs/results/preregistration.md, "Tests"); beside the verdict, when it rests on runs at a floor or a
 * ceiling, which arms and how many of their seeds (src/study/seed-bounds.ts).
 */
import { LitElement, css, html, nothing, svg } from 'lit';
import type { ClaimRecord } from '../../study/confirmatory-types.ts';
import { claimScope } from '../../results/claim-groups.ts';
import { effect, interval, pValue, verdict } from '../../results/format.ts';
import type { EffectReference } from '../../results/preregistered-rules.ts';
import type { ClaimBound } from '../../study/seed-bounds.ts';
import { sharedStyles } from '../theme.ts';

const W = 320;
const H = 44;
const PAD = 12;

export class ResultsClaim extends LitElement {
  static override properties = {
    claim: { attribute: false },
    references: { attribute: false },
    bound: { attribute: false },
  };

  declare claim: ClaimRecord | null;
  /** What the interval is judged against beside zero (src/results/preregistered-rules.ts `effectReferences`). */
  declare references: EffectReference[];
  /** The record's arms at the floor and the ceiling (study.json's page copy, `bounds.claims`), if known. */
  declare bound: ClaimBound | undefined;

  constructor() {
    super();
    this.claim = null;
    this.references = [];
    this.bound = undefined;
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
      }
      article {
        display: grid;
        gap: 6px;
      }
      header {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        gap: 4px 10px;
      }
      h4 {
        margin: 0;
        font-size: 0.95rem;
        font-weight: 650;
        flex: 1 1 16rem;
      }
      .id {
        font-family: var(--mono);
        color: var(--fg-muted);
        margin-right: 4px;
      }
      .verdict {
        font-size: 0.8rem;
        font-weight: 700;
        padding: 2px 10px;
        border-radius: 999px;
        border: 1px solid;
        white-space: nowrap;
      }
      /* The text in --fg: the data green is too light for small text on white. */
      .verdict[data-verdict='held'] {
        color: var(--fg);
        border-color: var(--ok);
        background: rgb(0 158 115 / 0.14);
      }
      .verdict[data-verdict='not held'] {
        color: var(--danger);
        border-color: var(--danger);
        background: var(--danger-bg);
      }
      .verdict[data-verdict='untestable'] {
        color: var(--warn-fg);
        border-color: var(--warn);
        background: var(--warn-bg);
      }
      .bound {
        margin: 0;
        font-size: 0.85rem;
        color: var(--warn-fg);
      }
      .reason {
        margin: 0;
        padding: 6px 10px;
        border-left: 3px solid var(--warn);
        background: var(--warn-bg);
        color: var(--warn-fg);
        font-size: 0.88rem;
      }
      dl {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 2px 12px;
        margin: 0;
        font-size: 0.88rem;
      }
      dt {
        color: var(--fg-muted);
      }
      dd {
        margin: 0;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      svg {
        display: block;
        width: 100%;
        max-width: 420px;
        height: auto;
      }
      .zero {
        stroke: var(--fg);
        stroke-width: 1.5;
      }
      .ref {
        stroke: var(--fg-muted);
        stroke-dasharray: 4 3;
      }
      .ci-line {
        stroke: var(--accent);
        stroke-width: 3;
        stroke-linecap: round;
      }
      .label {
        fill: var(--fg-muted);
        font: 10px var(--font);
      }
      table {
        border-collapse: collapse;
        font-size: 0.82rem;
        font-variant-numeric: tabular-nums;
      }
      th,
      td {
        padding: 3px 8px;
        text-align: right;
        white-space: nowrap;
        border-top: 1px solid var(--border);
      }
      th:first-child,
      td:first-child {
        text-align: left;
      }
      thead th {
        color: var(--fg-muted);
        font-weight: 600;
      }
      .scroll {
        overflow-x: auto;
      }
      @media (max-width: 480px) {
        dl {
          grid-template-columns: 1fr;
        }
        dd {
          margin-bottom: 4px;
        }
      }
    `,
  ];

  override render() {
    const c = this.claim;
    if (!c) return nothing;
    const v = verdict(c);
    const measured = c.family === 'T' || c.kind === 'identity';
    return html`<article class="card" data-claim=${c.id} data-verdict=${v}>
      <header>
        <h4><span class="id">${c.id}</span>${c.claim} <span class="muted">(${claimScope(c)})</span></h4>
        <span class="verdict" data-verdict=${v}>${v}</span>
      </header>
      ${this.bound?.note ? html`<p class="bound" data-rests-on=${this.bound.restsOn ?? ''}>Verdict ${this.bound.note}.</p>` : nothing}
      ${c.untestable ? html`<p class="reason" data-untestable>Untestable: ${c.untestable}</p>` : nothing}
      ${c.ci && c.effect !== null && !measured ? this.intervalDrawing(c.effect, c.ci) : nothing}
      <dl>
        <dt>${measured ? 'Measured' : 'Effect'}</dt>
        <dd>
          ${
            c.effect === null
              ? html`none: not tested`
              : html`${effect(c.endpoint, c.effect, !measured)} <span class="muted">95% CI ${interval(c.ci, (x) => effect(c.endpoint, x, !measured))}</span>`
          }
        </dd>
        <dt>Endpoint</dt>
        <dd>${c.endpoint}</dd>
        <dt>Ours</dt>
        <dd>${c.ours}</dd>
        <dt>Paper</dt>
        <dd>${c.paper}</dd>
        <dt>Rule</dt>
        <dd>${c.rule}</dd>
      </dl>
      ${c.tests.length ? this.testsTable(c) : nothing}
    </article>`;
  }

  /**
   * A paired effect's interval on a line with zero and the reference(s) marked; the label says the same
   * in words. (Family T and identities are measured values, not differences: their figures are enough.)
   */
  private intervalDrawing(mid: number, ci: [number, number]) {
    const c = this.claim!;
    const refs = this.references.flatMap((r) => (r.kind === 'equivalence margin' ? [-r.value, r.value] : [r.value]));
    const marks = [ci[0], ci[1], mid, 0, ...refs];
    let lo = Math.min(...marks);
    let hi = Math.max(...marks);
    const pad = (hi - lo || Math.abs(hi) || 1) * 0.1;
    lo -= pad;
    hi += pad;
    const x = (v: number) => PAD + ((v - lo) / (hi - lo)) * (W - 2 * PAD);
    const fmt = (v: number) => effect(c.endpoint, v);
    const against = this.references.map((r) => ` and the ${r.kind} ${r.kind === 'equivalence margin' ? '±' : ''}${fmt(r.value).replace(/^\+/, '')}`).join('');
    const label = `95% CI ${interval(ci, fmt)}, effect ${fmt(mid)}, against zero${against}`;
    return html`<svg viewBox="0 0 ${W} ${H}" role="img" aria-label=${label} data-interval>
      <line class="zero" x1=${x(0)} x2=${x(0)} y1="4" y2=${H - 14}></line><text class="label" x=${x(0)} y=${H - 3} text-anchor="middle">0</text>
      ${refs.map(
        (r) =>
          svg`<line class="ref" x1=${x(r)} x2=${x(r)} y1="4" y2=${H - 14}></line><text class="label" x=${x(r)} y=${H - 3} text-anchor="middle">${fmt(r)}</text>`,
      )}
      <line class="ci-line" x1=${x(ci[0])} x2=${x(ci[1])} y1="16" y2="16"></line>
      <circle cx=${x(mid)} cy="16" r="5" fill="var(--accent)" stroke="var(--surface)" stroke-width="1.5"></circle>
    </svg>`;
  }

  private testsTable(c: ClaimRecord) {
    return html`<div class="scroll" tabindex="0" role="region" aria-label="${c.id} (${claimScope(c)}): paired tests (scrolls sideways)">
      <table>
        <caption class="visually-hidden">
          ${c.id} (${claimScope(c)}): the paired tests
        </caption>
        <thead>
          <tr>
            <th scope="col">Comparison</th>
            <th scope="col">Effect</th>
            <th scope="col">95% CI</th>
            <th scope="col">p</th>
            <th scope="col">Holm p</th>
            <th scope="col">Seeds</th>
          </tr>
        </thead>
        <tbody>
          ${c.tests.map(
            (t) => html`<tr>
              <td>${t.comparison}</td>
              <td>${effect(c.endpoint, t.effect)}</td>
              <td>${interval(t.ci, (x) => effect(c.endpoint, x))}</td>
              <td>${pValue(t.p)}</td>
              <td>${pValue(t.pAdjusted)}</td>
              <td>${t.seeds.length}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }
}

customElements.define('results-claim', ResultsClaim);

declare global {
  interface HTMLElementTagNameMap {
    'results-claim': ResultsClaim;
  }
}
