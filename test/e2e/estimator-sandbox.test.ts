/**
 * A visitor's estimator from a shared link, consented to, runs where it can reach nothing (the page's
 * estimator frame: an opaque origin under a policy that allows no connection, src/estimator/sandbox-frame.ts):
 * - a probe estimator (sandbox-probe.ts) tries fetch, XHR, sendBeacon, WebSocket, EventSource,
 *   importScripts, a remote import(), a remote worker, IndexedDB, CacheStorage and a BroadcastChannel to
 *   the page: every attempt fails inside the sandbox (the probe throws what it saw and the test reads the
 *   panel's alert), nothing reaches a loopback server started here, and the page hears nothing;
 * - the page's caches and databases are the same afterwards, and a reload offline serves the genuine page;
 * - the GRPO starter applied next in the same panel trains exactly like GRPO (the sandbox is the
 *   estimator's only way in and out, and it changes nothing of the result);
 * - with and without cross-origin isolation, in Chromium, in Firefox (WebDriver BiDi) and in WebKit
 *   (WebKitGTK's MiniBrowser through W3C WebDriver);
 * - the service worker serves only the build as built: a cache entry altered by hand is dropped and
 *   fetched again, and offline the visitor is told the page is offline and stale, never given the copy.
 * One build, one loopback host and one Chromium for the file; tiny races on wasm.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRPO_TEMPLATE } from '../../src/estimator/templates.ts';
import { alertsIn, launchFirefox, visit } from './firefox-driver.ts';
import { iterations, openPage, servedSite, waitFor } from './page-driver.ts';
import { ATTEMPTS, type LoopbackHost, loopbackHost, PROBE_MARK, probeEstimator, probeReport } from './sandbox-probe.ts';
import { alertsIn as webkitAlertsIn, launchWebKit } from './webkit-driver.ts';

const RACE = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0&backend=wasm&methods=grpo,custom&iters=100000';
/** The page's channel name that a probe tries to reach; the page listens on it (LISTEN). */
const CHANNEL = 'beacon-live';
const LISTEN = `window.__heard = []; new BroadcastChannel(${JSON.stringify(CHANNEL)}).onmessage = (e) => window.__heard.push(String(e.data));`;

const site = servedSite();
let host: LoopbackHost;
beforeAll(async () => {
  host = await loopbackHost();
});
afterAll(() => host?.close());

const linkTo = (source: string) => `${RACE}&estimator=${Buffer.from(source, 'utf8').toString('base64url')}`;
const probe = () => probeEstimator(host.url, site.server.url, CHANNEL);

/** Every attempt failed inside the sandbox, the BroadcastChannel's post aside (the test checks that the page heard nothing). */
function expectAllFailed(report: Record<string, string>): void {
  expect(Object.keys(report)).toEqual([...ATTEMPTS]);
  const { broadcastChannel, ...rest } = report;
  expect(Object.entries(rest).filter(([, seen]) => !seen.startsWith('failed: '))).toEqual([]);
  expect(broadcastChannel).toMatch(/^(ok: posted|failed: )/);
  expect(host.reached).toEqual([]);
}

const customAlert = (page: Page) => page.locator('method-panel[data-method="custom"] [role=alert]').allInnerTexts();

/** Consents to the link's code and returns the probe's report from the custom panel's alert. */
async function consentAndRead(page: Page): Promise<Record<string, string>> {
  await page.getByRole('dialog').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Run this code' }).click();
  const [alert] = await waitFor(
    "the probe's report in the custom panel's alert",
    () => customAlert(page),
    (t) => t.some((a) => a.includes(PROBE_MARK)),
    90_000,
  );
  return probeReport(alert);
}

/** Each cache of this origin: its entries' URLs and the SHA-256 of their bodies; and the origin's databases. */
const storage = (page: Page) =>
  page.evaluate(async () => {
    const hex = (b: ArrayBuffer) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      const entries: string[] = [];
      for (const request of await cache.keys()) {
        const body = await (await cache.match(request))!.arrayBuffer();
        entries.push(`${request.url} ${hex(await crypto.subtle.digest('SHA-256', body))}`);
      }
      out[name] = entries.sort();
    }
    return { caches: out, databases: (await indexedDB.databases()).map((d) => d.name).sort() };
  });

const records = (page: Page, method: string) =>
  page.locator(`method-panel[data-method="${method}"]`).evaluate((e) =>
    (e as unknown as { history: { records: Record<string, unknown>[] } }).history.records.map((r) => {
      const { ms, envStepsPerSecond, method: _m, ...rest } = r;
      return JSON.parse(JSON.stringify(rest));
    }),
  );

/** The genuine bytes of a file of the build, from the server itself. */
const genuine = (path: string) => fetch(new URL(path, site.server.url)).then((r) => r.text());

describe("a visitor's estimator in the sandbox frame (Chromium)", () => {
  it('reaches no network, no storage and no page channel, changes no cache, and GRPO written as an estimator still trains as GRPO (cross-origin isolated)', async () => {
    site.server.setIsolated(true);
    const { page, context, errors } = await openPage(site.browser, site.server.url, 'autostart=false', { serviceWorkers: 'allow', init: LISTEN });
    try {
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await waitFor(
        'the service worker to precache the build',
        () => storage(page),
        (s) => Object.values(s.caches).some((entries) => entries.length > 10),
        60_000,
      );
      const before = await storage(page);

      await page.goto(`${site.server.url}?${linkTo(probe())}`);
      const report = await consentAndRead(page);
      expectAllFailed(report);
      expect(report.indexedDB).toMatch(/failed: .*(SecurityError|denied|not allowed|insecure)/i);
      expect(report.cachesPut).toMatch(/failed: /);

      // The GRPO starter in the same panel: it restarts from the race's prior and seed and trains as GRPO does.
      await page.locator('estimator-editor').evaluate((el, s) => {
        (el as unknown as { draft: string }).draft = s;
      }, GRPO_TEMPLATE);
      await page.locator('estimator-editor button.apply').click();
      await waitFor(
        'the GRPO starter to train 3 iterations',
        () => iterations(page),
        (v) => v.custom >= 3 && v.grpo >= 3,
        120_000,
      );
      expect((await records(page, 'custom')).slice(0, 3)).toEqual((await records(page, 'grpo')).slice(0, 3));
      expect(await customAlert(page)).toEqual([]);

      expect(await page.evaluate(() => (window as unknown as { __heard: string[] }).__heard)).toEqual([]);
      const after = await storage(page);
      expect(after.caches).toEqual(before.caches);
      expect(after.databases).not.toContain('estimator-was-here');
      expect(host.reached).toEqual([]);

      // Offline, a reload serves the build's own page from the cache.
      site.server.setReachable(false);
      try {
        await page.goto(`${site.server.url}?autostart=false`);
        await page.locator('method-panel').first().waitFor({ timeout: 60_000 });
        expect(await page.title()).toMatch(/^Beacon Live/);
      } finally {
        site.server.setReachable(true);
      }
      expect(errors.filter((e) => !e.includes(PROBE_MARK))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('reaches nothing either without cross-origin isolation', async () => {
    site.server.setIsolated(false);
    const { page, context } = await openPage(site.browser, site.server.url, linkTo(probe()), { serviceWorkers: 'block' });
    try {
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
      expectAllFailed(await consentAndRead(page));
    } finally {
      await context.close();
      site.server.setIsolated(true);
    }
  }, 180_000);
});

describe('the service worker serves only the build as built', () => {
  it('drops a cache entry altered by hand and fetches it again; offline it says the page is stale instead of serving it', async () => {
    const { page, context } = await openPage(site.browser, site.server.url, 'autostart=false', { serviceWorkers: 'allow' });
    try {
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      // Reloaded, so that the page is controlled and its fetches go through the service worker.
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
      const asset = await page.evaluate(async () => {
        const [name] = await caches.keys();
        const cache = await caches.open(name);
        const url = (await cache.keys()).map((r) => r.url).find((u) => /\/assets\/templates-.*\.js$/.test(u))!;
        return { name, url };
      });
      expect(asset.url).toBeTruthy();
      const alter = (url: string, body: string) =>
        page.evaluate(
          async ({ name, url, body }) => (await caches.open(name)).put(url, new Response(body, { headers: { 'content-type': 'text/javascript' } })),
          { name: asset.name, url, body },
        );
      const served = (url: string) => page.evaluate(async (u) => fetch(u).then(async (r) => ({ status: r.status, text: await r.text() })), url);

      await alter(asset.url, 'globalThis.altered = true;');
      const refetched = await served(asset.url);
      expect(refetched.status).toBe(200);
      expect(refetched.text).toBe(await genuine(new URL(asset.url).pathname.split('/beacon-live/')[1]));

      await alter(asset.url, 'globalThis.altered = true;');
      site.server.setReachable(false);
      try {
        const offline = await served(asset.url);
        expect(offline.status).toBe(503);
        expect(offline.text).not.toContain('altered');
        // The page itself altered in the cache, then visited offline: the visitor is told, not served the copy.
        await alter(site.server.url, '<h1>altered</h1>');
        await page.goto(site.server.url);
        expect(await page.getByRole('alert').innerText()).toMatch(/offline, and the copy of this page saved in your browser is stale/);
        expect(await page.content()).not.toContain('altered');
      } finally {
        site.server.setReachable(true);
      }
      // Online again, the genuine page.
      await page.goto(`${site.server.url}?autostart=false`);
      await page.locator('method-panel').first().waitFor({ timeout: 60_000 });
    } finally {
      await context.close();
    }
  }, 180_000);
});

/** The consent dialog's run button, found through the shadow roots (the drivers without playwright's locators). */
const RUN_BUTTON = `(() => { const all = (r, out = []) => { for (const e of r.querySelectorAll('*')) { if (e.matches('consent-dialog')) out.push(e); if (e.shadowRoot) all(e.shadowRoot, out); } return out; }; return all(document)[0]?.shadowRoot?.querySelector('button.run') ?? null; })()`;
const CLICK_RUN = `${RUN_BUTTON}.click()`;

describe("a visitor's estimator in the sandbox frame (Firefox)", () => {
  it('reaches no network, no storage and no page channel, with and without cross-origin isolation', async () => {
    const browser = await launchFirefox();
    try {
      for (const isolated of [true, false]) {
        site.server.setIsolated(isolated);
        // Under load, Firefox has once held the probe's worker past the estimator's 10 s limit (its
        // synchronous importScripts, most likely): the page then stops the estimator, and nothing of
        // it reached the host. That outcome is a failure to reach out too, but it brings no report, so
        // the probe runs once more; a second stop fails the test.
        for (let attempt = 1; ; attempt++) {
          // A page of its own context, without the driver's viewport call (this Firefox's BiDi lacks the screen-orientation command it sends).
          const context = await browser.createBrowserContext();
          const page = await context.newPage();
          const lines: string[] = [];
          page.on('console', (m) => lines.push(`${m.type()}: ${m.text()}`));
          try {
            await visit(page, site.server.url, linkTo(probe()));
            expect(await page.evaluate('crossOriginIsolated')).toBe(isolated);
            await page.evaluate(LISTEN);
            await page.waitForFunction(RUN_BUTTON, { timeout: 60_000 });
            await page.evaluate(CLICK_RUN);
            const stopped = (t: string) => /over the time limit of \d+ s; it was stopped/.test(t);
            const alerts = await waitFor(
              `the probe's report in Firefox (${isolated ? 'isolated' : 'not isolated'}; console: ${lines.slice(-5).join(' | ')})`,
              () => alertsIn(page),
              (a) => a.some((t) => t.includes(PROBE_MARK) || (attempt === 1 && stopped(t))),
              90_000,
            );
            expect(host.reached, 'nothing reached the host').toEqual([]);
            expect(await page.evaluate('window.__heard')).toEqual([]);
            const report = alerts.find((t) => t.includes(PROBE_MARK));
            if (!report) {
              console.log(
                `Firefox (${isolated ? 'isolated' : 'not isolated'}): the probe was stopped at the time limit (${alerts.find(stopped)}); probing once more`,
              );
              continue;
            }
            expectAllFailed(probeReport(report));
            break;
          } finally {
            await context.close();
          }
        }
      }
    } finally {
      site.server.setIsolated(true);
      await browser.close();
    }
  }, 300_000);
});

/**
 * WebKit (WebKitGTK 2.50's MiniBrowser), with and without cross-origin isolation: the estimator runs in
 * the frame and reaches no network, no IndexedDB and no page channel. CacheStorage answers there, but it
 * is the opaque origin's own: it lists none of the page's caches (the probe's `caches.keys()` is empty),
 * so what it puts never reaches the page's service worker. (Isolated, WebKit starts no worker from a Blob
 * URL of the frame's opaque origin: the frame's worker and the visitor's module come from data: URLs,
 * src/estimator/frame-main.ts.)
 */
describe("a visitor's estimator in the sandbox frame (WebKit)", () => {
  it("reaches no network, no IndexedDB, no page channel and none of the page's caches, with and without cross-origin isolation", async () => {
    const driver = await launchWebKit();
    try {
      for (const isolated of [false, true]) {
        site.server.setIsolated(isolated);
        // A session of its own for each (a first visit: fresh storage, no page left in the back/forward cache).
        const webkit = await driver.newSession();
        try {
          await webkit.visit(`${site.server.url}?${linkTo(probe())}`);
          expect(await webkit.evaluate<boolean>('crossOriginIsolated')).toBe(isolated);
          await webkit.evaluate(`(() => { ${LISTEN} return true; })()`);
          await waitFor(
            'the consent dialog in WebKit',
            () => webkit.evaluate<boolean>(`${RUN_BUTTON} !== null`),
            (shown) => shown,
            60_000,
          );
          await webkit.evaluate(CLICK_RUN);
          const alerts = await waitFor(
            `the probe's report in WebKit (${isolated ? 'isolated' : 'not isolated'})`,
            () => webkitAlertsIn(webkit),
            (a) => a.some((t) => t.includes(PROBE_MARK)),
            90_000,
          );
          const report = probeReport(alerts.find((t) => t.includes(PROBE_MARK))!);
          const { cachesOpen, cachesPut } = report;
          expectAllFailed({ ...report, cachesOpen: 'failed: checked below', cachesPut: 'failed: checked below' });
          expect(cachesOpen).toMatch(/^(failed: |ok: keys $)/);
          expect(cachesPut).toMatch(/^(failed: |ok: put$)/);
          expect(host.reached).toEqual([]);
          expect(await webkit.evaluate<string[]>('window.__heard')).toEqual([]);
        } finally {
          await webkit.close();
        }
      }
    } finally {
      site.server.setIsolated(true);
      await driver.close();
    }
  }, 300_000);
});
