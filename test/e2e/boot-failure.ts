/**
 * What the never-blank checks share across engines (src/boot/boot-guard.js): a failure injected into the
 * built page's entry module, a locale of `C` for engines that cannot be given one by their process, and
 * readers of the guard's message and of whether the app rendered.
 */
import { expect } from 'vitest';
import type { SubPathServer } from '../../scripts/sub-path-server.ts';

/** What the injected entry module throws while it loads. */
export const INJECTED = 'injected failure: the entry module threw while it loaded';

/**
 * The path of the built page's entry module (hashed by the build), as the server sees it: serve a
 * throwing module there with `server.replaceScript` to inject a failure before the app renders.
 */
export async function entryScriptPath(server: SubPathServer): Promise<string> {
  const html = await (await fetch(server.url)).text();
  const src = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error(`the built index.html has no module script: ${html.slice(0, 400)}`);
  return new URL(src, server.url).pathname;
}

/** Serves a throwing entry module until the returned function is called (in a `finally`). */
export async function injectEntryFailure(server: SubPathServer): Promise<() => void> {
  const path = await entryScriptPath(server);
  server.replaceScript(path, `throw new Error(${JSON.stringify(INJECTED)});`);
  return () => server.replaceScript(path, null);
}

/**
 * An init script that makes `navigator.language` `C`, as WebKit reports it under LANG=C.UTF-8: for the
 * engines that take no such locale from their process (Chromium and Firefox normalise it).
 */
export const LOCALE_C = `Object.defineProperty(Navigator.prototype, 'language', { configurable: true, get: () => 'C' }); Object.defineProperty(Navigator.prototype, 'languages', { configurable: true, get: () => ['C'] });`;

/** Source text: the guard's message, or null when it shows none. */
export const BOOT_MESSAGE = `(() => { const b = document.querySelector('.boot-failure'); return b ? b.textContent.replace(/\\s+/g, ' ').trim() : null; })()`;

/**
 * Source text: what the page shows, for "never blank": the app's element rendered (defined, with a
 * shadow root that has content), the guard's message, and whether the guard replaced an invalid locale.
 */
export const PAGE_SHOWS = `(() => {
  const app = Array.from(document.body.children).find((e) => e.localName.includes('-'));
  const rendered = Boolean(app && customElements.get(app.localName) && app.shadowRoot && app.shadowRoot.childNodes.length);
  const b = document.querySelector('.boot-failure');
  return { rendered, message: b ? b.textContent.replace(/\\s+/g, ' ').trim() : null, language: navigator.language, localeReplaced: Object.getOwnPropertyDescriptor(navigator, 'language') !== undefined };
})()`;

export interface PageShows {
  rendered: boolean;
  message: string | null;
  language: string;
  localeReplaced: boolean;
}

/** The message names what failed, what to try and how to report it. */
export function expectBootMessage(message: string | null): void {
  expect(message).toMatch(/This page could not start in this browser/);
  expect(message).toContain(INJECTED);
  expect(message).toMatch(/another browser/);
  expect(message).toMatch(/\?backend=cpu/);
  expect(message).toMatch(/To report it: open an issue/);
}
