/**
 * Whether the page is narrow (a phone held upright): the race layout then puts the race chart right
 * after the title. A media query rather than CSS order, so that reading and focus order follow what
 * the eye sees.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export const NARROW_QUERY = '(max-width: 700px)';

export class NarrowController implements ReactiveController {
  narrow = false;
  private query: MediaQueryList | null = null;
  private readonly onChange = () => {
    this.narrow = this.query?.matches ?? false;
    this.host.requestUpdate();
  };

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {
    this.query = window.matchMedia(NARROW_QUERY);
    this.narrow = this.query.matches;
    this.query.addEventListener('change', this.onChange);
  }

  hostDisconnected(): void {
    this.query?.removeEventListener('change', this.onChange);
    this.query = null;
  }
}
