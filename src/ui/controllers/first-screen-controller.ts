/**
 * What the page does around its first screen and each update, beside drawing it: the timeline's
 * "page built" mark once the first render is in the DOM (src/timeline-marks.ts, read by
 * bench:first-point), presenter mode on the host and the root element (its rem-based type scales the
 * whole page, so that body text is at least 20 px), and the lazy parts loaded only when needed (Your
 * estimator's editor, with CodeMirror, and the consent dialog).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { markOnce, TIMELINE_MARKS } from '../../timeline-marks.ts';
import { codeEntries } from './estimator-session.ts';
import type { PageStateController } from './page-state.ts';

export class FirstScreenController implements ReactiveController {
  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly state: PageStateController,
  ) {
    host.addController(this);
  }

  hostUpdate(): void {
    const { page, code } = this.state;
    if (codeEntries(page.methods).length) void import('../elements/estimator-editor.ts');
    if (code.pending) void import('../elements/consent-dialog.ts');
    this.host.toggleAttribute('present', page.present);
    document.documentElement.classList.toggle('present', page.present);
  }

  hostUpdated(): void {
    markOnce(TIMELINE_MARKS.pageBuilt);
  }
}
