/**
 * The page defaults' prior shipped precomputed (src/page/shipped-prior.ts), end to end in headless
 * Chromium against the built page: the page's own training worker, asked for the prior as the page
 * asked before it was shipped, computes the very bytes of the shipped file (served with and without
 * COOP/COEP, so on the plain and the threaded wasm binaries); and at the default URL the page sends no
 * worker a `prior` request (the shipped one is used), while another seed still has its prior computed.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { decodeShippedPrior, type ShippedPriorFile } from '../../src/page/shipped-prior.ts';
import { openPage, servedSite, waitFor } from './page-driver.ts';

const site = servedSite();
const file = JSON.parse(readFileSync(new URL('../../src/page/page-prior.json', import.meta.url), 'utf8')) as ShippedPriorFile;
const shippedBytes = Buffer.concat(decodeShippedPrior(file).map((w) => Buffer.from(w.buffer, w.byteOffset, w.byteLength)));

/** Records each worker's script URL and every message type the page posts to a worker. */
const WATCH_WORKERS = `(() => {
  window.__workers = { urls: [], sent: [] };
  const W = window.Worker;
  window.Worker = class extends W {
    constructor(url, options) { super(url, options); window.__workers.urls.push(String(new URL(url, location.href))); }
    postMessage(m, t) { window.__workers.sent.push(m && m.type); return super.postMessage(m, t); }
  };
})();`;

const watched = (page: Page) => page.evaluate(() => (window as unknown as { __workers: { urls: string[]; sent: string[] } }).__workers);

/** The prior that a fresh training worker of the built page computes for `config` (its float32 bytes). */
const workerPrior = (page: Page, url: string, config: object, wasmThreads: number) =>
  page.evaluate(
    ({ url, config, wasmThreads }) =>
      new Promise<number[] | string>((resolve) => {
        const worker = new Worker(url, { type: 'module', name: 'prior-check' });
        worker.onmessage = (e) => {
          if (e.data?.type !== 'prior') return;
          worker.terminate();
          if (!e.data.weights) resolve(`no weights: ${e.data.error}`);
          else resolve((e.data.weights as Float32Array[]).flatMap((w) => Array.from(new Uint8Array(w.buffer, w.byteOffset, w.byteLength))));
        };
        worker.postMessage({ type: 'prior', config, method: 'grpo', wasmThreads });
      }),
    { url, config, wasmThreads },
  );

describe('the shipped prior in the page', () => {
  for (const isolated of [false, true])
    it(`equals what the page's worker computes on wasm (${isolated ? 'cross-origin isolated, 2 threads' : 'not isolated'})`, async () => {
      site.server.setIsolated(isolated);
      const o = await openPage(site.browser, site.server.url, 'backend=wasm', { init: WATCH_WORKERS, serviceWorkers: 'block' });
      try {
        expect(await o.page.evaluate(() => crossOriginIsolated)).toBe(isolated);
        const { urls } = await waitFor(
          'a training worker',
          () => watched(o.page),
          (w) => w.urls.length > 0,
          60_000,
        );
        const bytes = await workerPrior(o.page, urls[0], { ...PAGE_DEFAULT_CONFIG, backend: 'wasm' }, isolated ? 2 : 1);
        expect(typeof bytes === 'string' ? bytes : Buffer.from(bytes).equals(shippedBytes)).toBe(true);
      } finally {
        await o.context.close();
        site.server.setIsolated(false);
      }
    }, 180_000);

  it('is used at the default URL (no worker is asked for a prior); another seed has its prior computed', async () => {
    for (const [query, asked] of [
      ['', false],
      [`seed=${PAGE_DEFAULT_CONFIG.seed + 1}`, true],
    ] as const) {
      const o = await openPage(site.browser, site.server.url, query, { init: WATCH_WORKERS, serviceWorkers: 'block' });
      try {
        const { sent } = await waitFor(
          `every worker's init (${query || 'default URL'})`,
          () => watched(o.page),
          (w) => w.sent.filter((t) => t === 'init').length >= 2,
          120_000,
        );
        expect(sent.includes('prior')).toBe(asked);
        expect(o.errors).toEqual([]);
      } finally {
        await o.context.close();
      }
    }
  }, 300_000);
});
