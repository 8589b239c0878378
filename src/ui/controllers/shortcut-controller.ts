/**
 * The page's keyboard shortcuts, in presenter mode and out of it: a reactive controller that listens on
 * the window while its host is connected and turns keys into actions the host supplies.
 *
 * Keys typed into a form control, or pressed with Ctrl, Alt or Meta, are left alone, as is Space on a
 * button (the button itself answers it), so a shortcut never fights an edit or a click.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface ShortcutActions {
  togglePause(): void;
  step(): void;
  reset(): void;
  toggleFullscreen(): void;
  /** Load scenario `n` (0-based) of the tour. */
  scenario(n: number): void;
  toggleHelp(): void;
}

/** The shortcut table: what the help overlay lists. */
export const SHORTCUTS: readonly { keys: string; doc: string }[] = [
  { keys: 'Space', doc: 'pause or resume training' },
  { keys: '→', doc: 'one iteration of every method, then pause' },
  { keys: 'R', doc: 'reset: every method starts again from iteration 0' },
  { keys: 'F', doc: 'full screen on or off' },
  { keys: '1 – 9', doc: 'load that scenario of the guided tour' },
  { keys: '?', doc: 'this help' },
];

const EDITABLE = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

export class ShortcutController implements ReactiveController {
  constructor(
    host: ReactiveControllerHost,
    private readonly actions: ShortcutActions,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    window.addEventListener('keydown', this.onKey);
  }

  hostDisconnected(): void {
    window.removeEventListener('keydown', this.onKey);
  }

  private onKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.altKey || e.metaKey || e.defaultPrevented) return;
    const target = e.composedPath()[0] as HTMLElement | undefined;
    if (target && (EDITABLE.has(target.tagName) || target.isContentEditable)) return;
    const a = this.actions;
    switch (e.key) {
      case ' ':
        if (target?.tagName === 'BUTTON') return;
        a.togglePause();
        break;
      case 'ArrowRight':
        a.step();
        break;
      case 'r':
      case 'R':
        a.reset();
        break;
      case 'f':
      case 'F':
        a.toggleFullscreen();
        break;
      case '?':
        a.toggleHelp();
        break;
      default:
        if (/^[1-9]$/.test(e.key)) {
          a.scenario(Number(e.key) - 1);
          break;
        }
        return;
    }
    e.preventDefault();
  };
}
