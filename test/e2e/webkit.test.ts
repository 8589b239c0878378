/**
 * The page's core checks in WebKit (WebKitGTK's MiniBrowser through Debian's WebKitWebDriver,
 * webkit-driver.ts), with the process locale of a minimal container, under which WebKit reports
 * `navigator.language` as `C`:
 * - an injected failure in the entry module shows the boot guard's message, never an empty page;
 * - the race trains at the default URL, served without and with COOP/COEP: every panel passes
 *   iteration 5 within 90 s of navigation, on wasm (WebKitGTK has no WebGPU), the
 *   locale `C` replaced by a valid one;
 * - a bad URL parameter is named in a role="alert" message;
 * - presenter mode opens on its stage layout and trains;
 * - offline: after one visit, the service worker serves the page when the server is gone, and it trains
 *   (a panel whose worker failed to load there is allowed and named: see that test).
 * One build and one driver for the file; each test opens a browser session of its own (fresh storage:
 * a first visit) and closes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubPathServer } from '../../scripts/sub-path-server.ts';
import { expectBootMessage, injectEntryFailure, PAGE_SHOWS, type PageShows } from './boot-failure.ts';
import { servedBuild, waitFor } from './page-driver.ts';
import { alertsIn, badgeIn, hasIn, iterationsIn, launchWebKit, type WebKit, type WebKitSession, WebDriverTimeout } from './webkit-driver.ts';

/** Every panel passes this iteration ... */
const ITERATION = 5;
/** ... within this long of navigation. */
const WITHIN_MS = 90_000;
const TINY = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0';

let server: SubPathServer;
let driver: WebKit;
/** The session of the test under way. */
let webkit: WebKitSession;

beforeAll(async () => {
  [server, driver] = await Promise.all([servedBuild(), launchWebKit()]);
}, 300_000);
afterAll(async () => {
  await driver?.close();
  await server?.close();
});

/**
 * Runs `check` in a new browser session (a first visit), closed after it whatever happens. A session
 * whose driver stops answering (WebDriverTimeout: a hang of WebKitWebDriver, not a failed check) is
 * given up once for a new one; any other failure fails the test.
 */
async function inSession(check: () => Promise<void>, attempt = 1): Promise<void> {
  webkit = await driver.newSession();
  try {
    await check();
  } catch (e) {
    if (!(e instanceof WebDriverTimeout) || attempt > 1) throw e;
    console.warn(`[webkit] ${e.message}: once more in a new session`);
    await webkit.close();
    return inSession(check, attempt + 1);
  } finally {
    await webkit.close();
  }
}

const visit = (query = '') => webkit.visit(`${server.url}${query ? `?${query}` : ''}`);

const pageShows = () => webkit.evaluate<PageShows>(PAGE_SHOWS);
const isolated = () => webkit.evaluate<boolean>('crossOriginIsolated');

/** Every panel's iteration, once all pass `target`; fails (with the badge and what the page shows) after `deadline`. */
async function allPass(target: number, what: string, deadline: number): Promise<Record<string, number>> {
  try {
    return await waitFor(
      what,
      () => iterationsIn(webkit),
      (v) => Object.keys(v).length >= 2 && Object.values(v).every((i) => i >= target),
      Math.max(0, deadline - Date.now()),
    );
  } catch (e) {
    const badge = await badgeIn(webkit).catch(() => null);
    const shows = await pageShows().catch(() => null);
    throw new Error(`${(e as Error).message}\nbadge: ${JSON.stringify(badge)}\npage: ${JSON.stringify(shows)}`);
  }
}

/** A first visit at the default URL: every panel past ITERATION within WITHIN_MS of navigation. */
async function trainsAtTheDefaultUrl(label: string): Promise<void> {
  const t0 = await visit();
  await allPass(ITERATION, `${label}: every panel at iteration ${ITERATION}`, t0 + WITHIN_MS);
  const seconds = (Date.now() - t0) / 1000;
  const badge = await badgeIn(webkit);
  expect(badge.backend).toBe('wasm');
  expect(badge.text).toMatch(/WebAssembly fallback/);
  const shows = await pageShows();
  expect(shows.message).toBeNull();
  // The browser's locale was `C` (the driver's LANG=C.UTF-8): the boot guard replaced it with a valid one.
  expect(shows).toMatchObject({ rendered: true, language: 'en-US', localeReplaced: true });
  const sab = await webkit.evaluate<string>('typeof SharedArrayBuffer');
  console.log(
    `[webkit] ${label}: every panel past iteration ${ITERATION} ${seconds.toFixed(1)} s after navigation; SharedArrayBuffer: ${sab}; badge: ${badge.text}`,
  );
}

describe('WebKit (WebKitGTK MiniBrowser)', () => {
  it(
    'shows what failed, what to try and where to report it when the entry module throws while it loads',
    () =>
      inSession(async () => {
        server.setIsolated(false);
        const restore = await injectEntryFailure(server);
        try {
          await visit(TINY);
          const shows = await waitFor('the boot guard’s message', pageShows, (s) => s.message !== null, 30_000);
          expect(shows.rendered).toBe(false);
          expectBootMessage(shows.message);
        } finally {
          restore();
        }
      }),
    240_000,
  );

  it(
    `trains at the default URL, served without COOP/COEP: every panel past iteration ${ITERATION} within ${WITHIN_MS / 1000} s`,
    () =>
      inSession(async () => {
        server.setIsolated(false);
        await trainsAtTheDefaultUrl('not isolated');
        expect(await isolated()).toBe(false);
      }),
    240_000,
  );

  it(
    `trains at the default URL, cross-origin isolated (COOP/COEP): every panel past iteration ${ITERATION} within ${WITHIN_MS / 1000} s`,
    () =>
      inSession(async () => {
        server.setIsolated(true);
        await trainsAtTheDefaultUrl('isolated');
        expect(await isolated()).toBe(true);
      }),
    240_000,
  );

  it(
    'names a bad URL parameter in a role="alert" message',
    () =>
      inSession(async () => {
        server.setIsolated(false);
        await visit('gamma=7&bogus=1&autostart=0&backend=cpu');
        const alerts = await waitFor(
          'a role="alert" message',
          () => alertsIn(webkit),
          (a) => a.some((t) => t.length > 0),
          30_000,
        );
        const text = alerts.join('\n');
        expect(text).toMatch(/gamma: gamma must be a number in \[0, 1\]; got "7"; using 0\.95/);
        expect(text).toMatch(/bogus: unknown setting "bogus"/);
      }),
    240_000,
  );

  it(
    'presenter mode opens on its stage and trains',
    () =>
      inSession(async () => {
        server.setIsolated(true);
        await webkit.resize(1920, 1080);
        const t0 = await visit(`present=1&${TINY}`);
        await waitFor(
          'the app in presenter mode',
          () => webkit.evaluate<boolean>(`document.querySelector('beacon-live-app')?.hasAttribute('present') ?? false`),
          (present) => present,
          30_000,
        );
        await allPass(2, 'presenter mode: every panel at iteration 2', t0 + WITHIN_MS);
        expect(await hasIn(webkit, 'main.stage comparison-chart')).toBe(true);
        expect(await hasIn(webkit, 'settings-form')).toBe(false);
      }),
    240_000,
  );

  it(
    'after one visit, the service worker serves the page when the server is gone, and it trains',
    () =>
      inSession(async () => {
        server.setIsolated(false);
        await visit(TINY);
        await waitFor(
          'the service worker and its precache',
          () =>
            webkit.evaluate<string>(
              'navigator.serviceWorker.getRegistration().then(async (r) => [r?.active?.state ?? "none", (await caches.keys()).length].join())',
            ),
          (s) => s === 'activated,1',
          60_000,
        );
        const online = await allPass(1, 'an iteration online', Date.now() + 60_000);
        server.setReachable(false);
        const served = server.requests.length;
        try {
          await webkit.reload();
          const target = Math.max(...Object.values(online)) + 2;
          // Each panel trains offline, or its worker failed to load: the failure WebKitGTK 2.50 shows at
          // times on a page the service worker controls with the isolation headers it adds (one training
          // worker's script fires `error`; the same page served by the network, isolated or not, trains),
          // named in the page's alert. Anything else (a panel stuck at "Starting…") fails.
          const settled = await waitFor(
            `every panel at iteration ${target} offline, or its worker named as failed to load`,
            async () => ({ iterations: await iterationsIn(webkit), alerts: (await alertsIn(webkit)).join('\n') }),
            ({ iterations, alerts }) =>
              Object.keys(iterations).length >= 2 &&
              Object.entries(iterations).every(
                ([m, i]) => i >= target || alerts.includes(`The ${m} training worker stopped: the training worker failed to load`),
              ),
            90_000,
          );
          const trained = Object.entries(settled.iterations).filter(([, i]) => i >= target);
          console.log(`[webkit] offline: ${JSON.stringify(settled.iterations)}; ${trained.length} of ${Object.keys(settled.iterations).length} panels trained`);
          // The service worker works here: the page, its modules, its workers and the wasm binaries came
          // from it (nothing was served), and a race trains offline.
          expect(trained.length).toBeGreaterThan(0);
          expect(server.requests.length).toBe(served);
          // The service worker's headers make the page cross-origin isolated though the server sent none.
          expect(await isolated()).toBe(true);
        } finally {
          server.setReachable(true);
        }
      }),
    300_000,
  );
});
