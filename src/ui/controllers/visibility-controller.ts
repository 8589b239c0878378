/**
 * A reactive controller that says whether its host is on screen (or within a margin of it).
 *
 * Why: the page's main thread shares the machine's cores with the methods' training workers. Charts and
 * episode replays below the fold would otherwise redraw on every update and repaint the page many times a
 * second for nobody, taking CPU time from training (bench:page measures the effect). Hosts use `visible`
 * to hold off drawing while off screen and catch up in `onChange` when they come back.
 *
 * Before the first observation, and where IntersectionObserver is missing, the host counts as visible:
 * drawing too much is better than not drawing. `seen` is stricter: true once the host has been observed on
 * screen (at once where IntersectionObserver is missing), so a chart below the fold is not even built
 * while the page starts (docs/performance.md, "The first point").
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** How far outside the viewport a host still counts as visible. */
const MARGIN = '0px';

export class VisibilityController implements ReactiveController {
  visible = true;
  /** The host has been on screen at least once (always true where IntersectionObserver is missing). */
  seen = typeof IntersectionObserver === 'undefined';
  private observer: IntersectionObserver | null = null;

  constructor(
    private readonly host: ReactiveControllerHost & Element,
    private readonly onChange: (visible: boolean) => void = () => {},
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    if (typeof IntersectionObserver === 'undefined') return;
    this.observer = new IntersectionObserver(
      (entries) => {
        const visible = entries[entries.length - 1].isIntersecting;
        const first = visible && !this.seen;
        if (visible) this.seen = true;
        if (visible === this.visible && !first) return;
        this.visible = visible;
        this.onChange(visible);
      },
      { rootMargin: MARGIN },
    );
    this.observer.observe(this.host);
  }

  hostDisconnected(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.visible = true;
  }
}
