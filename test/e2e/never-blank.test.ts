/**
 * The page is never left blank, in Chromium and in Firefox (WebKit's checks are in webkit.test.ts):
 * - when the entry module throws while it loads, the boot guard (src/boot/boot-guard.js) shows what
 *   failed, what to try and where to report it;
 * - with `navigator.language` `C` (an init script: neither browser takes that locale from its process),
 *   the guard gives Intl a valid locale before uPlot's module formats numbers, and the race trains; the
 *   results page renders too.
 * One build for the file; each browser is launched once, by the first test that needs it.
 */
import type { Browser as ChromiumBrowser } from 'playwright-core';
import type { Browser as FirefoxBrowser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/browser.ts';
import type { SubPathServer } from '../../scripts/sub-path-server.ts';
import { expectBootMessage, INJECTED, injectEntryFailure, LOCALE_C, PAGE_SHOWS, type PageShows } from './boot-failure.ts';
import { iterationsIn, launchFirefox, visit } from './firefox-driver.ts';
import { iterations, openPage, servedBuild, waitFor } from './page-driver.ts';

const TINY = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0';
const trained = (v: Record<string, number>) => Object.keys(v).length >= 2 && Object.values(v).every((i) => i >= 1);

let server: SubPathServer;
let chromium: ChromiumBrowser | undefined;
let firefox: FirefoxBrowser | undefined;

beforeAll(async () => {
  server = await servedBuild();
}, 300_000);
afterAll(async () => {
  await chromium?.close();
  await firefox?.close();
  await server?.close();
});

describe('Chromium', () => {
  beforeAll(async () => {
    chromium = await launchChromium({ webgpu: false });
  }, 120_000);

  it('shows what failed, what to try and where to report it when the entry module throws while it loads', async () => {
    const restore = await injectEntryFailure(server);
    try {
      const o = await openPage(chromium!, server.url, TINY);
      try {
        const shows = await waitFor(
          'the boot guard’s message',
          () => o.page.evaluate(PAGE_SHOWS) as Promise<PageShows>,
          (s) => s.message !== null,
          30_000,
        );
        expect(shows.rendered).toBe(false);
        expectBootMessage(shows.message);
        // The failure itself still reaches the console.
        expect(o.errors.join('\n')).toContain(INJECTED);
      } finally {
        await o.context.close();
      }
    } finally {
      restore();
    }
  }, 120_000);

  it('trains with navigator.language "C": Intl gets en-US', async () => {
    const o = await openPage(chromium!, server.url, TINY, { init: LOCALE_C });
    try {
      await waitFor('every panel at iteration 1', () => iterations(o.page), trained, 90_000);
      expect(await o.page.evaluate(PAGE_SHOWS)).toMatchObject({ rendered: true, message: null, language: 'en-US', localeReplaced: true });
      expect(o.errors).toEqual([]);
    } finally {
      await o.context.close();
    }
  }, 120_000);

  it('renders the results page with navigator.language "C"', async () => {
    const o = await openPage(chromium!, new URL('results.html', server.url).href, '', { init: LOCALE_C });
    try {
      const shows = await waitFor(
        'the results page',
        () => o.page.evaluate(PAGE_SHOWS) as Promise<PageShows>,
        (s) => s.rendered,
        30_000,
      );
      expect(shows).toMatchObject({ message: null, language: 'en-US', localeReplaced: true });
      expect(o.errors).toEqual([]);
    } finally {
      await o.context.close();
    }
  }, 60_000);
});

/**
 * A Firefox page in a new user context, at the browser's own window size, with its uncaught errors
 * collected: newFirefoxPage's `setViewport` fails on Firefox ESR 140 with this puppeteer-core (it sends
 * emulation.setScreenOrientationOverride, which that Firefox does not know).
 */
async function firefoxPage() {
  const context = await firefox!.createBrowserContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
  return { context, page, errors };
}

describe('Firefox ESR', () => {
  beforeAll(async () => {
    firefox = await launchFirefox();
  }, 120_000);

  it('shows what failed, what to try and where to report it when the entry module throws while it loads', async () => {
    const restore = await injectEntryFailure(server);
    const o = await firefoxPage();
    try {
      await visit(o.page, server.url, TINY);
      const shows = await waitFor(
        'the boot guard’s message',
        () => o.page.evaluate(PAGE_SHOWS) as Promise<PageShows>,
        (s) => s.message !== null,
        30_000,
      );
      expect(shows.rendered).toBe(false);
      expectBootMessage(shows.message);
    } finally {
      restore();
      await o.context.close();
    }
  }, 120_000);

  it('trains with navigator.language "C": Intl gets en-US', async () => {
    const o = await firefoxPage();
    try {
      await o.page.evaluateOnNewDocument(LOCALE_C);
      await visit(o.page, server.url, TINY);
      await waitFor('every panel at iteration 1', () => iterationsIn(o.page), trained, 90_000);
      expect(await o.page.evaluate(PAGE_SHOWS)).toMatchObject({ rendered: true, message: null, language: 'en-US', localeReplaced: true });
      expect(o.errors).toEqual([]);
    } finally {
      await o.context.close();
    }
  }, 120_000);
});
