/**
 * The stage layout (presenter mode, `present`): the same views for a projector. A one-row header, then
 * the race chart and the tour side by side on the first screen; the controls (pause, speed, budget, save
 * and open) behind one button in the header (the keyboard shortcuts work without them); each method's
 * episode large and larger text; the metrics below.
 */
import { css, html, type TemplateResult } from 'lit';
import { alertArea, controlBar, stageHeader, type PageParts } from './page-frame.ts';

/** The id of the presenter's controls, which the header's controls button shows and hides. */
export const STAGE_CONTROLS_ID = 'stage-controls';

export function stageLayout(parts: PageParts, controlsOpen: boolean): TemplateResult {
  return html`
    ${stageHeader(parts)} ${alertArea(parts)}
    <div id=${STAGE_CONTROLS_ID} ?hidden=${!controlsOpen}>${controlBar(parts.controls, parts.durable)}</div>
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
  #stage-controls[hidden] {
    display: none;
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
  /*
   * The episodes fill in when the first batch arrives: reserved down past the bottom of the first
   * screen, so that their arrival moves nothing a presenter's audience sees.
   */
  .stage .episodes {
    min-height: 70vh;
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
