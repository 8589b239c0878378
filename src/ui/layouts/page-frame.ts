/**
 * What both layouts of the page share (race-layout.ts, stage-layout.ts): one header (title, backend
 * badge, presenter toggle), one alert area (bad URL parameters, worker errors; `role="alert"`) and one
 * control bar, with their styles.
 */
import { css, html, nothing, type TemplateResult } from 'lit';
import type { ConfigIssue } from '../../config.ts';

/** The rendered pieces of the page, built once by the app and placed by a layout. */
export interface PageParts {
  /** Number of raced entries (the stage's columns). */
  methodCount: number;
  /** One line under the title (the race layout only). */
  lede: string;
  badge: TemplateResult;
  presentButton: TemplateResult;
  /** Presenter mode: the one button that shows or hides the controls a presenter rarely needs. */
  controlsButton: TemplateResult;
  issues: readonly ConfigIssue[];
  /** Errors not tied to one method, and a crashed worker's message. */
  errors: readonly string[];
  controls: TemplateResult;
  durable: TemplateResult;
  shareExport: TemplateResult;
  tour: TemplateResult;
  comparison: TemplateResult;
  inspectors: TemplateResult[];
  panels: TemplateResult;
  priorNote: TemplateResult;
  settings: TemplateResult;
  explainer: TemplateResult;
  help: TemplateResult;
}

export function pageHeader(parts: PageParts, withLede: boolean): TemplateResult {
  return html`<header class="top">
    <div class="brand">
      <h1>Beacon <span>Live</span></h1>
      ${withLede ? html`<p>${parts.lede}</p>` : nothing}
    </div>
    <div class="top-actions">${parts.badge}${parts.presentButton}<a class="results-link" href="./results.html">Results</a></div>
  </header>`;
}

/**
 * Presenter mode's header: one row (title, badge, the controls button, presenter toggle, results link),
 * so that the race owns the first screen.
 */
export function stageHeader(parts: PageParts): TemplateResult {
  return html`<header class="top stage-head">
    <h1>Beacon <span>Live</span></h1>
    ${parts.badge}
    <div class="stage-actions">${parts.controlsButton}${parts.presentButton}<a class="results-link" href="./results.html">Results</a></div>
  </header>`;
}

/**
 * A bad URL parameter's alert is known at the first paint and stays in the flow; errors that come later
 * (a worker's) float over the page at its top, so that they move nothing that is on screen.
 */
export function alertArea(parts: PageParts): TemplateResult {
  return html`<settings-alert .issues=${parts.issues}></settings-alert>
    ${parts.errors.length ? html`<div class="errors" role="alert">${parts.errors.map((e) => html`<p>${e}</p>`)}</div>` : nothing}`;
}

export function controlBar(...items: TemplateResult[]): TemplateResult {
  return html`<div class="controls card">${items}</div>`;
}

export const pageFrameStyles = css`
  :host {
    display: block;
    max-width: 1360px;
    margin: 0 auto;
    padding: 20px clamp(12px, 3vw, 32px) 48px;
  }
  .top {
    display: flex;
    flex-wrap: wrap;
    align-items: flex-start;
    justify-content: space-between;
    gap: 12px 24px;
    margin-bottom: 14px;
  }
  .brand h1 {
    margin: 0;
    font-size: clamp(1.5rem, 3.2vw, 2.1rem);
    font-weight: 750;
    letter-spacing: -0.02em;
  }
  .brand h1 span {
    color: var(--beacon);
  }
  .brand p {
    margin: 4px 0 0;
    color: var(--fg-muted);
    max-width: 62ch;
  }
  .top-actions {
    display: flex;
    flex-direction: column;
    align-items: flex-end;
    gap: 8px;
  }
  /* A fixed width: the badge's words change as the backend is chosen, the header does not. */
  backend-badge {
    width: 24rem;
    max-width: 100%;
  }
  .stage-head {
    flex-wrap: nowrap;
    align-items: center;
  }
  .stage-head h1 {
    flex: none;
    margin: 0;
    font-size: 1.3rem;
    font-weight: 750;
    letter-spacing: -0.02em;
  }
  .stage-head h1 span {
    color: var(--beacon);
  }
  .stage-head backend-badge {
    flex: 0 1 24rem;
    width: auto;
  }
  .stage-actions {
    flex: none;
    display: flex;
    align-items: center;
    gap: 12px;
  }
  /* The study's results page (results.html). */
  .results-link {
    color: var(--accent);
    font-size: 0.9rem;
    font-weight: 550;
  }
  settings-alert {
    margin-bottom: 14px;
  }
  .errors {
    position: fixed;
    z-index: 40;
    top: 12px;
    left: 50%;
    transform: translateX(-50%);
    width: min(44rem, calc(100vw - 24px));
    box-shadow: 0 6px 24px rgb(0 0 0 / 0.18);
    padding: 10px 14px;
    border-radius: 10px;
    border: 1px solid var(--danger);
    background: var(--danger-bg);
    font-size: 0.9rem;
  }
  .errors p {
    margin: 0;
  }
  .controls {
    position: sticky;
    top: 0;
    z-index: 10;
    display: flex;
    flex-direction: column;
    gap: 10px;
    margin-bottom: 18px;
    box-shadow: 0 2px 12px rgb(0 0 0 / 0.06);
  }
  @media (max-width: 880px) {
    .controls {
      position: static;
    }
  }
  @media (max-width: 700px) {
    .top-actions {
      width: 100%;
      flex-direction: row;
      flex-wrap: wrap;
      align-items: center;
      gap: 8px 14px;
    }
    .top-actions backend-badge {
      width: 100%;
    }
  }
`;
