/**
 * Colours and shared styles of the page.
 *
 * Colours are the Okabe–Ito palette (distinguishable with the common colour-vision deficiencies) and
 * live as CSS custom properties on :root (index.html), with a light and a dark set; they inherit into
 * every shadow root. Canvas code (uPlot, the episode and credit views) reads the same properties at draw
 * time through `cssColor`, so charts follow the colour scheme too.
 */
import { css } from 'lit';
import { methodSpec } from '../methods/registry.ts';
import { describeOverrides, RACE_ENTRIES, raceEntry } from '../race/entries.ts';

/** The custom property of a method's line colour ('--grpo') and of its text colour ('--grpo-ink'). */
export function methodColorVar(method: string): string {
  return `--${method}`;
}
function methodInkVar(method: string): string {
  return `--${method}-ink`;
}

/**
 * What a panel shows of a race entry (a method or a named variant of one): its name, its method's
 * formula, the settings it runs instead of the shared ones ('' for a plain method), and its colours as
 * custom properties.
 */
export function methodLabel(entry: string): { name: string; formula: string; overrides: string; color: string; ink: string } {
  const e = raceEntry(entry);
  return {
    name: e.label,
    formula: methodSpec(e.method).formula,
    overrides: describeOverrides(e.overrides),
    color: methodColorVar(entry),
    ink: methodInkVar(entry),
  };
}

/**
 * The race entries' colours (the registry's methods and their named variants) as CSS for the document,
 * light and dark (the page's other colours sit beside them in index.html), so a registered method or
 * variant brings its colour with it.
 */
export function methodColorCss(): string {
  const vars = (scheme: 'light' | 'dark') =>
    RACE_ENTRIES.map((e) => `${methodColorVar(e.name)}: ${e.color[scheme].line}; ${methodInkVar(e.name)}: ${e.color[scheme].ink};`).join(' ');
  return `:root { ${vars('light')} }\n@media (prefers-color-scheme: dark) { :root { ${vars('dark')} } }`;
}

/** Resolves a custom property (e.g. '--grpo') on `el` to a colour string; falls back to `fallback`. */
export function cssColor(el: Element, property: string, fallback = '#888'): string {
  const v = getComputedStyle(el).getPropertyValue(property).trim();
  return v || fallback;
}

/** `color` with alpha `a` (0…1), for #rrggbb colours; other formats are returned unchanged. */
export function withAlpha(color: string, a: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return color;
  const n = parseInt(m[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

/** Card, button, form and focus styles shared by the elements. */
export const sharedStyles = css`
  :host {
    color: var(--fg);
    font-family: var(--font);
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h2,
  h3 {
    margin: 0;
    font-weight: 650;
    letter-spacing: -0.01em;
  }
  h2 {
    font-size: 1.05rem;
  }
  h3 {
    font-size: 0.92rem;
  }
  .card {
    background: var(--surface);
    border: 1px solid var(--border);
    border-radius: 12px;
    padding: 14px 16px;
  }
  .muted {
    color: var(--fg-muted);
  }
  .num {
    font-variant-numeric: tabular-nums;
  }
  button,
  select,
  input {
    font: inherit;
    color: inherit;
  }
  button {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    min-height: 36px;
    padding: 6px 12px;
    border-radius: 8px;
    border: 1px solid var(--border-strong);
    background: var(--button);
    cursor: pointer;
    font-size: 0.9rem;
    font-weight: 550;
  }
  button:hover:not(:disabled) {
    background: var(--button-hover);
  }
  button:disabled {
    opacity: 0.5;
    cursor: not-allowed;
  }
  button.primary {
    background: var(--accent);
    border-color: var(--accent);
    color: var(--on-accent);
  }
  button.primary:hover:not(:disabled) {
    background: var(--accent-hover);
  }
  select,
  input[type='number'],
  input[type='text'] {
    min-height: 36px;
    padding: 4px 8px;
    border-radius: 8px;
    border: 1px solid var(--border-strong);
    background: var(--input);
    font-size: 0.9rem;
  }
  input[type='range'] {
    accent-color: var(--accent);
  }
  input[type='checkbox'] {
    accent-color: var(--accent);
    width: 18px;
    height: 18px;
  }
  :focus-visible {
    outline: 3px solid var(--focus);
    outline-offset: 2px;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;

/** A bar of controls under the training controls (share and export, durable runs): a wrapping row and its status line. */
export const toolbarStyles = css`
  :host {
    display: block;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
  }
  .status {
    font-size: 0.8rem;
    color: var(--fg-muted);
  }
`;
