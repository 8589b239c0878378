/**
 * The stage layout (presenter mode, `present`): the same views for a projector. The race chart and the
 * tour side by side, each method's episode large, minimal controls and larger text; the metrics below.
 */
import { css, html, type TemplateResult } from 'lit';
import { alertArea, controlBar, pageHeader, type PageParts } from './page-frame.ts';

export function stageLayout(parts: PageParts): TemplateResult {
  return html`
    ${pageHeader(parts, false)} ${alertArea(parts)} ${controlBar(parts.controls, parts.durable)}
    <main class="stage" style="--methods: ${parts.methodCount}">
      <div class="stage-top">${parts.comparison}${parts.tour}</div>
      <div class="episodes">${parts.inspectors}</div>
    </main>
    ${parts.panels} ${parts.help}
  `;
}

export const stageLayoutStyles = css`
  :host([present]) {
    max-width: none;
    padding: 12px 24px 32px;
  }
  :host([present]) .controls {
    position: static;
    box-shadow: none;
  }
  .stage {
    display: grid;
    gap: 18px;
  }
  .stage-top {
    display: grid;
    grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
    gap: 18px;
    align-items: start;
  }
  .stage .episodes {
    display: grid;
    grid-template-columns: repeat(var(--methods, 2), minmax(0, 1fr));
    gap: 18px;
  }
  @media (max-width: 880px) {
    .stage-top,
    .stage .episodes {
      grid-template-columns: minmax(0, 1fr);
    }
  }
`;
