/**
 * A reactive controller that advances a step counter at a fixed rate while playing: the clock of the
 * episode viewer. It stops on its own at the last step and when the host leaves the page.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export class PlaybackController implements ReactiveController {
  step = 0;
  last = 0;
  playing = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private rate = 10;
  /** Held (its host is off screen): playing, but the clock does not advance. */
  private held = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly onEnd: () => void,
  ) {
    host.addController(this);
  }

  /** Starts over at step 0 of an episode with `last` steps. */
  load(last: number, autoplay: boolean): void {
    this.step = 0;
    this.last = last;
    if (autoplay) this.play();
    else this.stop();
    this.host.requestUpdate();
  }

  setRate(stepsPerSecond: number): void {
    if (stepsPerSecond === this.rate) return;
    this.rate = stepsPerSecond;
    if (this.playing) this.restartTimer();
  }

  play(): void {
    if (this.step >= this.last) this.step = 0;
    this.playing = true;
    this.restartTimer();
    this.host.requestUpdate();
  }

  stop(): void {
    this.playing = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.host.requestUpdate();
  }

  /** Holds the clock (`true`) without stopping playback, or lets it go on (`false`). */
  hold(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    if (this.playing) this.restartTimer();
  }

  seek(step: number): void {
    this.step = Math.max(0, Math.min(this.last, step));
    this.host.requestUpdate();
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.stop();
  }

  private restartTimer(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.held) return;
    this.timer = setInterval(() => {
      if (this.step >= this.last) {
        this.stop();
        this.onEnd();
        return;
      }
      this.step++;
      this.host.requestUpdate();
    }, 1000 / this.rate);
  }
}
