/**
 * A reactive controller that tells its host when the light/dark preference changes, so elements that
 * paint on canvases (which do not inherit CSS colours) redraw in the new colours.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class ColorSchemeController implements ReactiveController {
  private query: MediaQueryList | null = null;
  /** Grows on every change; elements compare it to decide to rebuild. */
  version = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly onChange: () => void = () => {},
  ) {
    host.addController(this);
  }

  get dark(): boolean {
    return this.query?.matches ?? false;
  }

  hostConnected(): void {
    this.query = matchMedia('(prefers-color-scheme: dark)');
    this.query.addEventListener('change', this.changed);
  }

  hostDisconnected(): void {
    this.query?.removeEventListener('change', this.changed);
    this.query = null;
  }

  private changed = () => {
    this.version++;
    this.onChange();
    this.host.requestUpdate();
  };
}
