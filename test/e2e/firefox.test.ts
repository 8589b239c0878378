/**
 * The page's core checks in Firefox ESR (Debian's firefox-esr over WebDriver BiDi, firefox-driver.ts):
 * - the race trains at the default URL, served with and without COOP/COEP, in each of several visits:
 *   every panel passes iteration 5 within 60 s of navigation and goes on training (Firefox has no
 *   WebGPU, so this is wasm; isolated, tfjs's threaded wasm start once hung there: wasm-threads.ts);
 * - a bad URL parameter is named in a role="alert" message;
 * - offline: after one visit, the service worker serves the page when the server is gone, and it trains;
 * - presenter mode opens on its stage layout and trains.
 * The built page is served from a sub-path (scripts/sub-path-server.ts). Times per visit are printed.
 */
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubPathServer } from '../../scripts/sub-path-server.ts';
import { alertsIn, badgeIn, hasIn, iterationsIn, launchFirefox, newFirefoxPage, visit, type FirefoxOpened } from './firefox-driver.ts';
import { servedBuild, waitFor } from './page-driver.ts';

/** Visits per serving mode. */
const VISITS = 3;
/** Every panel passes this iteration ... */
const ITERATION = 5;
/** ... within this long of navigation. */
const WITHIN_MS = 60_000;
const TINY = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0';

let server: SubPathServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([servedBuild(), launchFirefox()]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const isolatedIn = (o: FirefoxOpened) => o.page.evaluate('crossOriginIsolated') as Promise<boolean>;

/** Every panel's iteration, once all pass `target`; fails (with the page's console) after `deadline`. */
async function allPass(o: FirefoxOpened, target: number, what: string, deadline: number): Promise<Record<string, number>> {
  try {
    return await waitFor(
      what,
      () => iterationsIn(o.page),
      (v) => Object.keys(v).length >= 2 && Object.values(v).every((i) => i >= target),
      Math.max(0, deadline - Date.now()),
    );
  } catch (e) {
    const badge = await badgeIn(o.page).catch(() => null);
    throw new Error(`${(e as Error).message}\nbadge: ${JSON.stringify(badge)}\nconsole (last 30):\n${o.console.slice(-30).join('\n')}`);
  }
}

/** One visit at the default URL: every panel past ITERATION within WITHIN_MS, then one more iteration each. */
async function trainsOnVisit(o: FirefoxOpened, label: string): Promise<number> {
  const t0 = await visit(o.page, server.url);
  const reached = await allPass(o, ITERATION, `${label}: every panel at iteration ${ITERATION}`, t0 + WITHIN_MS);
  const seconds = (Date.now() - t0) / 1000;
  // A visit that resumed a stored race shows iteration 5 at once: it must also go on training.
  const next = Math.max(...Object.values(reached)) + 1;
  await allPass(o, next, `${label}: every panel at iteration ${next}`, Date.now() + 45_000);
  const badge = await badgeIn(o.page);
  expect(badge.backend).toBe('wasm');
  console.log(`[firefox] ${label}: every panel past iteration ${ITERATION} ${seconds.toFixed(1)} s after navigation; badge: ${badge.text}`);
  return seconds;
}

describe('Firefox ESR', () => {
  it(`trains at the default URL, cross-origin isolated (COOP/COEP), in each of ${VISITS} visits`, async () => {
    server.setIsolated(true);
    // One profile: the first visit installs the service worker, the later ones go through it (as a
    // returning visitor's would).
    const o = await newFirefoxPage(browser);
    try {
      for (let v = 1; v <= VISITS; v++) {
        await trainsOnVisit(o, `isolated visit ${v}`);
        expect(await isolatedIn(o)).toBe(true);
      }
      expect(o.errors).toEqual([]);
    } finally {
      await o.context.close();
    }
  }, 600_000);

  it(`trains at the default URL, served without COOP/COEP, in each of ${VISITS} visits`, async () => {
    server.setIsolated(false);
    for (let v = 1; v <= VISITS; v++) {
      // A fresh profile each time: the service worker of an earlier visit would add the headers.
      const o = await newFirefoxPage(browser);
      try {
        await trainsOnVisit(o, `not isolated, visit ${v}`);
        expect(await isolatedIn(o)).toBe(false);
        expect(o.errors).toEqual([]);
      } finally {
        await o.context.close();
      }
    }
  }, 600_000);

  it('names a bad URL parameter in a role="alert" message', async () => {
    server.setIsolated(false);
    const o = await newFirefoxPage(browser);
    try {
      await visit(o.page, server.url, 'gamma=7&bogus=1&autostart=0&backend=cpu');
      const alerts = await waitFor(
        'a role="alert" message',
        () => alertsIn(o.page),
        (a) => a.some((t) => t.length > 0),
        30_000,
      );
      const text = alerts.join('\n');
      expect(text).toMatch(/gamma: gamma must be a number in \[0, 1\]; got "7"; using 0\.95/);
      expect(text).toMatch(/bogus: unknown setting "bogus"/);
      expect(o.errors).toEqual([]);
    } finally {
      await o.context.close();
    }
  }, 120_000);

  it('after one visit, the service worker serves the page when the server is gone, and it trains', async () => {
    server.setIsolated(false);
    const o = await newFirefoxPage(browser);
    try {
      await visit(o.page, server.url, TINY);
      await waitFor(
        'the service worker and its precache',
        () =>
          o.page.evaluate(
            'navigator.serviceWorker.getRegistration().then(async (r) => [r?.active?.state ?? "none", (await caches.keys()).length].join())',
          ) as Promise<string>,
        (s) => s === 'activated,1',
        60_000,
      );
      const online = await allPass(o, 1, 'an iteration online', Date.now() + 60_000);
      server.setReachable(false);
      const served = server.requests.length;
      const refused = server.refused.length;
      await o.page.reload({ timeout: 60_000 });
      const target = Math.max(...Object.values(online)) + 2;
      await allPass(o, target, `iteration ${target} offline`, Date.now() + 90_000);
      // Nothing was served; the page's requests that reached for the network were refused (the service
      // worker asks the network first for the page itself, then answers from its cache).
      expect(server.requests.length).toBe(served);
      expect(server.refused.length).toBeGreaterThan(refused);
      // The service worker's headers make the page cross-origin isolated though the server sent none.
      expect(await isolatedIn(o)).toBe(true);
      expect(o.errors).toEqual([]);
    } finally {
      server.setReachable(true);
      await o.context.close();
    }
  }, 300_000);

  it('presenter mode opens on its stage and trains', async () => {
    server.setIsolated(true);
    const o = await newFirefoxPage(browser, 1920, 1080);
    try {
      const t0 = await visit(o.page, server.url, 'present=1');
      // The app element may upgrade after the load event that ends navigation: wait for its attribute.
      await waitFor(
        'the app in presenter mode',
        () => o.page.evaluate(`document.querySelector('beacon-live-app')?.hasAttribute('present') ?? false`) as Promise<boolean>,
        (present) => present,
        30_000,
      );
      await allPass(o, 2, 'presenter mode: every panel at iteration 2', t0 + WITHIN_MS);
      expect(await hasIn(o.page, 'main.stage comparison-chart')).toBe(true);
      expect(await hasIn(o.page, 'settings-form')).toBe(false);
      expect(o.errors).toEqual([]);
    } finally {
      await o.context.close();
    }
  }, 180_000);
});
