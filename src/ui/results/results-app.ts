/**
 * <results-app>: the results page. It fetches the study's document (`./study.json`, relative to the page,
 * so it works under any base path and offline from the service worker's cache), checks its version
 * (src/results/study-document.ts) and renders, from the cell summaries, the claims, the failures and
 * the pre-registration only (never the runs one by one):
 *
 * - what the study is, its pre-registration (path, commit, amendments) and whether every run came after it;
 * - the verdict counts of the empirical claims;
 * - the env-step budget of each (env, horizon);
 * - per environment, the cells table and one chart per horizon of the main methods with their 95% bands;
 * - the claims by family, each with its verdict, effect and interval; the identities apart;
 * - the AUC as written against as coded, and success at equal updates (results-readings.ts);
 * - whole-seed failures apart from the means.
 *
 * A document of another version, or a failed fetch, is one `role="alert"` message saying what failed.
 */
import { LitElement, css, html, nothing } from 'lit';
import preregistrationMarkdown from '../../../docs/results/preregistration.md?raw';
import { budgetOf, cellEnvs, cellHorizons, chartCells, envRows } from '../../results/cell-tables.ts';
import { claimGroups, identities, verdictCounts } from '../../results/claim-groups.ts';
import { shortCommit, steps } from '../../results/format.ts';
import { effectReferences, type PreregisteredRules, preregisteredRules } from '../../results/preregistered-rules.ts';
import { type ResultsView, resultsView } from '../../results/results-url.ts';
import { readStudy, type StudyResults } from '../../results/study-document.ts';
import type { CellSummary, ClaimRecord, PreregistrationRef } from '../../study/confirmatory-types.ts';
import { methodColorVar, sharedStyles } from '../theme.ts';
import { CURVE_DASHES } from './results-curve-chart.ts';
import './results-cell-table.ts';
import './results-claim.ts';
import './results-curve-chart.ts';
import './results-failures.ts';
import './results-readings.ts';

type Loaded = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; study: StudyResults };

/** The study document, beside this page in the build (scripts/results-page-plugin.ts). */
const STUDY_URL = './study.json';

export class ResultsApp extends LitElement {
  static override properties = {
    loaded: { state: true },
  };

  declare private loaded: Loaded;
  private readonly rules: PreregisteredRules | null;
  /** `?present=1`: the main page's presenter mode (large text), and messages for bad parameters. */
  private readonly view: ResultsView;

  constructor() {
    super();
    this.loaded = { state: 'loading' };
    this.view = resultsView(location.search);
    // The pre-registration is part of the build; its rules only draw reference lines, so a file without
    // them still shows every figure.
    let rules: PreregisteredRules | null = null;
    try {
      rules = preregisteredRules(preregistrationMarkdown);
    } catch (e) {
      console.warn(`results: no reference lines: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.rules = rules;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // index.html's tokens (shared by results.html) scale every rem size up in presenter mode.
    document.documentElement.classList.toggle('present', this.view.present);
    void this.load();
  }

  private async load(): Promise<void> {
    let json: unknown;
    try {
      const response = await fetch(STUDY_URL);
      if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
      json = await response.json();
    } catch (e) {
      const why = e instanceof SyntaxError ? `it is not valid JSON (${e.message})` : e instanceof Error ? e.message : String(e);
      this.loaded = { state: 'error', message: `Could not load the study's document (${new URL(STUDY_URL, location.href).pathname}): ${why}.` };
      return;
    }
    const read = readStudy(json);
    this.loaded = read.ok ? { state: 'ready', study: read.study } : { state: 'error', message: read.message };
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        max-width: 1360px;
        margin: 0 auto;
        padding: 20px clamp(12px, 3vw, 32px) 48px;
      }
      .top {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        justify-content: space-between;
        gap: 8px 24px;
        margin-bottom: 14px;
      }
      h1 {
        margin: 0;
        font-size: clamp(1.5rem, 3.2vw, 2.1rem);
        font-weight: 750;
        letter-spacing: -0.02em;
      }
      h1 span {
        color: var(--beacon);
      }
      a {
        color: var(--accent);
      }
      a:hover {
        color: var(--accent-hover);
      }
      nav ul {
        display: flex;
        flex-wrap: wrap;
        gap: 4px 16px;
        margin: 0;
        padding: 0;
        list-style: none;
        font-size: 0.9rem;
      }
      section {
        margin-top: 22px;
        display: grid;
        /* minmax(0, …): a wide table scrolls inside its own box instead of widening the page. */
        grid-template-columns: minmax(0, 1fr);
        gap: 12px;
      }
      h2 {
        font-size: 1.25rem;
      }
      h3 {
        font-size: 1.02rem;
      }
      p {
        margin: 0;
        max-width: 80ch;
      }
      .alert {
        padding: 12px 16px;
        border-radius: 10px;
        border: 1px solid var(--danger);
        background: var(--danger-bg);
      }
      .summary {
        font-size: 1.05rem;
      }
      .summary b {
        font-variant-numeric: tabular-nums;
      }
      .charts {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(min(100%, 300px), 1fr));
        gap: 14px;
      }
      .legend {
        display: flex;
        flex-wrap: wrap;
        gap: 4px 16px;
        margin: 0;
        padding: 0;
        list-style: none;
        font-size: 0.85rem;
      }
      .legend li {
        display: inline-flex;
        align-items: center;
        gap: 6px;
      }
      .budgets {
        border-collapse: collapse;
        font-variant-numeric: tabular-nums;
        font-size: 0.9rem;
      }
      .budgets caption {
        text-align: left;
        font-weight: 650;
        padding-bottom: 4px;
      }
      .budgets th,
      .budgets td {
        padding: 4px 12px;
        border-top: 1px solid var(--border);
        text-align: right;
      }
      .budgets th[scope='row'],
      .budgets thead th:first-child {
        text-align: left;
      }
      .claims {
        display: grid;
        grid-template-columns: minmax(0, 1fr);
        gap: 10px;
      }
      code {
        font-family: var(--mono);
        font-size: 0.9em;
      }
    `,
  ];

  override render() {
    return html`<header class="top">
        <h1>Beacon <span>Live</span>: the study's results</h1>
        <a href=${this.view.present ? './?present=1' : './'} data-back>← Back to the live training</a>
      </header>
      ${this.view.issues.length ? html`<div class="alert" role="alert" data-url-issues>${this.view.issues.map((i) => html`<p>${i}</p>`)}</div>` : nothing}
      <main>${this.body()}</main>`;
  }

  private body() {
    const l = this.loaded;
    if (l.state === 'loading') return html`<p class="muted" aria-live="polite">Loading the study's document…</p>`;
    if (l.state === 'error') return html`<div class="alert" role="alert">${l.message}</div>`;
    const study = l.study;
    const envs = cellEnvs(study.cells);
    return html`${this.toc(envs)} ${this.about(study)} ${this.budgets(study, envs)} ${envs.map((env) => this.envSection(study, env))} ${this.claims(study)}
      <section aria-labelledby="readings">
        <h2 id="readings">Two readings the plan left open</h2>
        <results-readings .readings=${study.aucReadings} .equalUpdates=${study.equalUpdates}></results-readings>
      </section>
      <section aria-labelledby="failures">
        <h2 id="failures">Whole-seed failures</h2>
        <p>
          Runs whose smoothed success never rose 0.10 above their iteration-0 success. They are counted here, apart from the means; the tests include every
          seed, and the cell tables give the means without them.
        </p>
        <results-failures .failures=${study.failures} .envs=${envs}></results-failures>
      </section>`;
  }

  private toc(envs: string[]) {
    return html`<nav aria-label="Sections">
      <ul>
        <li><a href="#about">The study</a></li>
        <li><a href="#budgets">Budgets</a></li>
        ${envs.map((e) => html`<li><a href="#env-${e}">${e}</a></li>`)}
        <li><a href="#claims">Claims</a></li>
        <li><a href="#identities">Identities</a></li>
        <li><a href="#readings">Readings</a></li>
        <li><a href="#failures">Failures</a></li>
      </ul>
    </nav>`;
  }

  private about(study: StudyResults) {
    const pre = study.preregistration;
    const counts = verdictCounts(study.claims);
    const runCommits = study.runCommits.map((c) => shortCommit(c)).join(', ');
    return html`<section aria-labelledby="about">
      <h2 id="about">The study</h2>
      <p>${study.purpose}</p>
      ${pre ? this.preregistration(pre, runCommits) : html`<p><b>No pre-registration is recorded</b>: the document was written outside a git repository.</p>`}
      <p>The document was written at <code title=${study.commit}>${shortCommit(study.commit)}</code>.</p>
      <p class="summary" data-summary data-held=${counts.held} data-not-held=${counts['not held']} data-untestable=${counts.untestable}>
        Of <b>${counts.total}</b> empirical claim records (one per claim and environment), <b>${counts.held}</b> held, <b>${counts['not held']}</b> did not
        hold and <b>${counts.untestable}</b> could not be tested here. Identities are shown apart and not counted.
      </p>
    </section>`;
  }

  private preregistration(pre: PreregistrationRef, runCommits: string) {
    return html`<p>
        Pre-registered in <code>${pre.path}</code> at commit <code title=${pre.commit}>${shortCommit(pre.commit)}</code>, before any run.
        ${
          pre.runsAfter
            ? html`Every run's commit comes after it (${runCommits}).`
            : html`<b>Not every run's commit comes after it</b> (${runCommits}): those results are not confirmatory.`
        }
      </p>
      ${
        pre.amendments.length
          ? html`<div>
            <p>Amendments (each dated in the pre-registration, with its reason):</p>
            <ul>
              ${pre.amendments.map((a) => {
                // Documents since the amendments' run counts carry how many runs came after each one.
                const after = (a as { runsAfterIt?: unknown }).runsAfterIt;
                return html`<li>
                  ${a.title} (<code title=${a.commit}>${shortCommit(a.commit)}</code>${typeof after === 'number' ? `; ${after} runs after it` : ''})
                </li>`;
              })}
            </ul>
          </div>`
          : html`<p>No amendments.</p>`
      }`;
  }

  private budgets(study: StudyResults, envs: string[]) {
    const horizons = [...new Set(envs.flatMap((e) => cellHorizons(study.cells, e)))];
    return html`<section aria-labelledby="budgets">
      <h2 id="budgets">Budgets</h2>
      <p>Every method of a cell gets the same env-step budget (iterations × tasks × group size × max steps), fixed by the pre-registration.</p>
      <div>
        <table class="budgets">
          <caption>
            Env-step budget per environment and horizon
          </caption>
          <thead>
            <tr>
              <th scope="col">Environment</th>
              ${horizons.map((h) => html`<th scope="col">${h}</th>`)}
            </tr>
          </thead>
          <tbody>
            ${envs.map(
              (e) => html`<tr>
                <th scope="row">${e}</th>
                ${horizons.map((h) => html`<td>${steps(budgetOf(study.envStepBudgets, study.cells, e, h))}</td>`)}
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
    </section>`;
  }

  private envSection(study: StudyResults, env: string) {
    const horizons = cellHorizons(study.cells, env);
    const budgets = Object.fromEntries(horizons.map((h) => [h, budgetOf(study.envStepBudgets, study.cells, env, h)]));
    const charted = horizons.map((h) => ({ h, cells: chartCells(study.cells, env, h) }));
    const legend = [...new Map(charted.flatMap((c) => c.cells).map((c) => [c.variant, c] as [string, CellSummary])).values()];
    return html`<section aria-labelledby="env-${env}" data-env-section=${env}>
      <h2 id="env-${env}">${env}</h2>
      <results-cell-table .env=${env} .rows=${envRows(study.cells, env)} .budgets=${budgets} .bounds=${study.bounds?.cells ?? []}></results-cell-table>
      <h3>Mean success against env steps, with bootstrap 95% bands</h3>
      <ul class="legend" aria-label="${env} charts legend">
        ${legend.map((c) => {
          const i = legend.indexOf(c);
          const dash = CURVE_DASHES[i % CURVE_DASHES.length];
          return html`<li>
            <svg width="24" height="8" aria-hidden="true">
              <line x1="0" x2="24" y1="4" y2="4" stroke="var(${methodColorVar(c.variant)}, #888)" stroke-width="2.5" stroke-dasharray=${dash ?? 'none'}></line></svg
            >${c.label}
          </li>`;
        })}
        <li class="muted">dashed grey: 60% target</li>
      </ul>
      <div class="charts">
        ${charted.map(({ h, cells }) => html`<results-curve-chart .cells=${cells} .budget=${budgets[h] ?? 0} heading="${env}, ${h}"></results-curve-chart>`)}
      </div>
      <p class="muted" data-curve-note>
        Each point is the mean over all of a cell's seeds on a common env-step grid. A run that spent its budget in fewer iterations, or stopped, is
        carried to the budget the way the AUC counts it (at its last-5 success, 0 if it stopped), so a curve's last point is the cell's mean at the
        budget. Each chart's description, and study.json's <code>curve.observed</code>, give how many runs took each step themselves.
      </p>
    </section>`;
  }

  private claims(study: StudyResults) {
    const budget = (env: string, horizon: string) => budgetOf(study.envStepBudgets, study.cells, env, horizon);
    const bound = (c: ClaimRecord) => study.bounds?.claims.find((b) => b.id === c.id && b.env === c.env && b.horizon === c.horizon);
    const card = (c: ClaimRecord) =>
      html`<results-claim .claim=${c} .references=${this.rules ? effectReferences(c, this.rules, budget) : []} .bound=${bound(c)}></results-claim>`;
    const ids = identities(study.claims);
    return html`<section aria-labelledby="claims">
        <h2 id="claims">Claims</h2>
        <p>
          One record per claim and environment (per cell for the released-variant check). Each effect is the mean over seeds of the paired difference, with
          its bootstrap 95% interval drawn against zero and the pre-registered minimal effect or equivalence margin.
        </p>
        ${study.bounds ? html`<p class="muted" data-bound-rule>Floors and ceilings: ${study.bounds.rule}. Such a verdict says so beside it.</p>` : nothing}
        ${claimGroups(study.claims).map(
          (g) => html`<section aria-labelledby="family-${g.family}" data-family=${g.family}>
            <h3 id="family-${g.family}">${g.title}</h3>
            <p class="muted">${g.note}</p>
            <div class="claims">${g.claims.map(card)}</div>
          </section>`,
        )}
      </section>
      <section aria-labelledby="identities" data-identities>
        <h2 id="identities">Identities</h2>
        <p>True by construction: checked and shown, never counted among the claims that held.</p>
        ${ids.length ? html`<div class="claims">${ids.map(card)}</div>` : html`<p class="muted">The document records no identity.</p>`}
      </section>`;
  }
}

customElements.define('results-app', ResultsApp);

declare global {
  interface HTMLElementTagNameMap {
    'results-app': ResultsApp;
  }
}
