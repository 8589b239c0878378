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
  backend-badge {
    max-width: min(100%, 460px);
  }
  /* The study's results page (results.html). */
  .results-link {
    color: var(--accent);
    font-size: 0.9rem;
    font-weight: 550;
  }
  settings-alert,
  .errors {
    margin-bottom: 14px;
  }
  .errors {
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
      align-items: flex-start;
    }
  }
`;
