/**
 * The race layout: the page as a visitor reads it. Title, alerts, then the controls, the tour and the
 * race; on a narrow screen (a phone) the race chart comes right after the title and the controls
 * after it, so the race is what a workshop audience sees first. Then the batch, the metrics, the
 * settings and the explainer.
 */
import { css, html, type TemplateResult } from 'lit';
import { alertArea, controlBar, pageHeader, type PageParts } from './page-frame.ts';

export function raceLayout(parts: PageParts, narrow: boolean): TemplateResult {
  const controls = controlBar(parts.controls, parts.shareExport, parts.durable);
  return html`
    ${pageHeader(parts, true)} ${alertArea(parts)}
    <main>
      ${narrow ? html`${parts.comparison}${controls}${parts.tour}` : html`${controls}${parts.tour}${parts.comparison}`}
      ${parts.priorNote}

      <section class="block live" aria-labelledby="batch-title">
        <h2 id="batch-title">Inside the latest batch</h2>
        <p class="lede">One run per method, replayed step by step, with the credit each step received.</p>
        <div class="pair">${parts.inspectors}</div>
      </section>

      ${parts.panels}

      <section class="block" aria-labelledby="settings-title">
        <h2 id="settings-title">Settings</h2>
        <p class="lede">Every setting is part of the link. Changes marked “needs a restart” apply when every method starts again.</p>
        ${parts.settings}
      </section>

      <section class="block">${parts.explainer}</section>
    </main>

    <footer>
      <p>
        Beacon Live implements BEACON (milestone-guided policy learning, ZJU REAL lab, 2026) and its baselines on small
        household tasks. Each method trains in a Web Worker of its own with TensorFlow.js; charts by uPlot. Colours: Okabe–Ito palette.
      </p>
    </footer>
    ${parts.help}
  `;
}

export const raceLayoutStyles = css`
  .tour {
    margin-bottom: 18px;
  }
  .pair {
    display: grid;
    grid-template-columns: repeat(2, minmax(0, 1fr));
    gap: 18px;
  }
  @media (max-width: 880px) {
    .pair {
      grid-template-columns: minmax(0, 1fr);
    }
  }
  @media (max-width: 700px) {
    comparison-chart {
      margin-bottom: 18px;
    }
  }
  section.block {
    margin-top: 26px;
  }
  /*
   * The sections that change with every batch: off screen, the browser skips their style, layout and
   * paint, so their updates do not relayout and repaint the page (time the training workers need).
   */
  section.live {
    content-visibility: auto;
    contain-intrinsic-size: auto 900px;
  }
  section.block > h2 {
    margin: 0 0 4px;
    font-size: 1.2rem;
  }
  section.block > p.lede {
    margin: 0 0 12px;
    color: var(--fg-muted);
    font-size: 0.9rem;
  }
  .pick {
    margin-bottom: 14px;
  }
  footer {
    margin-top: 32px;
    font-size: 0.8rem;
    color: var(--fg-muted);
  }
  footer a {
    color: inherit;
  }
`;
