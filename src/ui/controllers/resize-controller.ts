/**
 * A reactive controller that reports the content width of an element of its host's shadow DOM.
 *
 * It observes from the host's first update (the element exists then) until the host is disconnected,
 * and calls `onResize` with the new width (CSS pixels, rounded), skipping repeats.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class ResizeController implements ReactiveController {
  private observer: ResizeObserver | null = null;
  private observed: Element | null = null;
  width = 0;

  constructor(
    host: ReactiveControllerHost,
    private readonly target: () => Element | null,
    private readonly onResize: (width: number) => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.observer = new ResizeObserver((entries) => {
      const w = Math.round(entries[entries.length - 1].contentRect.width);
      if (w > 0 && w !== this.width) {
        this.width = w;
        this.onResize(w);
      }
    });
    this.observed = null;
  }

  hostUpdated(): void {
    const el = this.target();
    if (el && el !== this.observed && this.observer) {
      if (this.observed) this.observer.unobserve(this.observed);
      this.observer.observe(el);
      this.observed = el;
    }
  }

  hostDisconnected(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.observed = null;
  }
}
