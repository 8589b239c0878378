/**
 * Durable runs end to end, in headless Chromium against the built page served from a sub-path:
 * - reload → the page resumes each panel at its autosaved iteration (the default of the resume offer),
 *   and on wasm the records equal an uninterrupted run's (timings aside);
 * - a lost GPU device (WebGPU on SwiftShader) continues at the last completed iteration, said on the badge;
 * - "Save run" downloads a run file that "Open run" continues in a fresh browser profile, offline;
 *   bad run files are named in a role="alert" message and change nothing;
 * - IndexedDB unavailable or full: a notice, and training goes on;
 * - a background tab (another tab in front, `document.visibilityState` hidden) keeps training.
 * Tiny settings keep it fast; service workers are blocked except where the offline check needs one, so
 * every load has the same (single-threaded, deterministic) wasm.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TIMING_KEYS, type IterationRecord } from '../../src/trainer/iteration-record.ts';
import { iterations, openPage, servedSite, waitFor } from './page-driver.ts';

const TINY = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0';

const site = servedSite();

/** Service workers blocked unless asked for: a cached build must not hide what the server serves. */
const open = (query: string, options: { init?: string; serviceWorkers?: 'allow' | 'block' } = {}) =>
  openPage(site.browser, site.server.url, query, { acceptDownloads: true, serviceWorkers: 'block', ...options });

/** Every panel's record history as the page holds it (what its charts draw). */
const histories = (page: Page) =>
  page
    .locator('method-panel')
    .evaluateAll((els) =>
      Object.fromEntries(els.map((e) => [(e as HTMLElement).dataset.method, (e as unknown as { history: { records: unknown[] } }).history.records])),
    ) as Promise<Record<string, IterationRecord[]>>;

/** JSON-safe records without their wall-clock timings (which differ between identical runs). */
const untimed = (runs: Record<string, IterationRecord[]>) =>
  JSON.parse(
    JSON.stringify(
      Object.fromEntries(
        Object.entries(runs).map(([m, rs]) => [
          m,
          rs.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !(TIMING_KEYS as readonly string[]).includes(k)))),
        ]),
      ),
    ),
  );

const autosaved = (page: Page) => page.locator('durable-bar').evaluate((e) => Number((e as HTMLElement).dataset.autosaved ?? -1));
const all = (v: Record<string, number>, ok: (n: number) => boolean) => Object.keys(v).length === 2 && Object.values(v).every(ok);

describe('durable runs', () => {
  it('resumes after a reload at the autosaved iteration, with the records of an uninterrupted run (wasm)', async () => {
    const query = `${TINY}&backend=wasm&iters=8`;
    const reference = await open(query);
    let expected: Record<string, IterationRecord[]>;
    try {
      await waitFor(
        'the uninterrupted run to finish',
        () => iterations(reference.page),
        (v) => all(v, (n) => n === 8),
        180_000,
      );
      expected = untimed(await histories(reference.page));
      expect(reference.errors).toEqual([]);
    } finally {
      await reference.context.close();
    }
    // Slow (1.5 s between iterations, a view setting, not part of the race) so the reload lands mid-run.
    const { page, context, errors } = await open(`${query}&speed=slow`);
    try {
      const saved = await waitFor(
        'an autosave at iteration 3 or later',
        () => autosaved(page),
        (n) => n >= 3,
        180_000,
      );
      expect(saved).toBeLessThan(7);
      await page.reload();
      const offer = await waitFor(
        'the resume offer',
        () => page.locator('durable-bar .offer').allInnerTexts(),
        (t) => t.length > 0,
        30_000,
      );
      const at = Number(/Resume at iteration (\d+)/.exec(offer[0])?.[1]);
      expect(at).toBeGreaterThanOrEqual(saved);
      expect(offer[0]).toMatch(/Start fresh/);
      // The first iterations the panels show are the resumed ones, not 1, 2, … of a run started over.
      const first = await waitFor(
        'the resumed panels',
        () => iterations(page),
        (v) => all(v, (n) => n > 0),
        60_000,
      );
      for (const n of Object.values(first)) expect(n).toBeGreaterThanOrEqual(at);
      await waitFor(
        'the resumed run to finish',
        () => iterations(page),
        (v) => all(v, (n) => n === 8),
        180_000,
      );
      const got = untimed(await histories(page));
      for (const rs of Object.values(got) as IterationRecord[][]) expect(rs.map((r) => r.iteration)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(got).toEqual(expected!);
      // "Start fresh" forgets the saved state and trains from iteration 0 again.
      await page.getByRole('button', { name: 'Start fresh' }).click();
      await waitFor(
        'the offer to go',
        () => page.locator('durable-bar .offer').count(),
        (n) => n === 0,
        10_000,
      );
      const restarted = await waitFor(
        'a fresh start',
        () => histories(page),
        (h) => Object.values(h).length === 2 && Object.values(h).every((rs) => rs.length > 0 && rs.length < 9),
        60_000,
      );
      for (const rs of Object.values(restarted)) expect(rs[0].iteration).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);

  it('continues at the last completed iteration after the GPU device is lost (WebGPU, SwiftShader)', async () => {
    const { page, context, errors } = await open(`${TINY}&backend=webgpu&iters=40`);
    try {
      const before = await waitFor(
        '3 iterations on WebGPU',
        () => iterations(page),
        (v) => all(v, (n) => n >= 3),
        300_000,
      );
      expect(await page.locator('backend-badge').getAttribute('data-backend')).toBe('webgpu');
      await page.evaluate(() => (document.querySelector('beacon-live-app') as unknown as { loseDevice(): void }).loseDevice());
      const recovery = await waitFor(
        'the recovery notice',
        () => page.locator('backend-badge .recovery').allInnerTexts(),
        (t) => t.length > 0,
        60_000,
      );
      const at = Number(/continued at iteration (\d+) after the GPU was lost/.exec(recovery[0])?.[1]);
      expect(recovery[0]).toMatch(/GPU device lost .*recovered on a new WebGPU device/);
      // No completed iteration is lost: at most the one whose state was being kept when the device died.
      expect(at).toBeGreaterThanOrEqual(Math.min(...Object.values(before)) - 1);
      const after = await waitFor(
        'training after the recovery',
        () => iterations(page),
        (v) => all(v, (n) => n >= at + 2),
        300_000,
      );
      const h = await histories(page);
      for (const [m, rs] of Object.entries(h))
        expect(
          rs.map((r) => r.iteration),
          m,
        ).toEqual(Array.from({ length: rs.length }, (_, i) => i));
      expect(Math.min(...Object.values(after))).toBeGreaterThan(at);
      expect(await page.locator('backend-badge').getAttribute('data-backend')).toBe('webgpu');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);

  it('saves a run file that opens in a fresh profile, offline, and names what is wrong with bad files', async () => {
    const query = `${TINY}&backend=wasm&iters=4`;
    const first = await open(query);
    let bytes: Buffer;
    let expected: Record<string, IterationRecord[]>;
    try {
      await waitFor(
        'the run to finish',
        () => iterations(first.page),
        (v) => all(v, (n) => n === 4),
        180_000,
      );
      expected = untimed(await histories(first.page));
      const [download] = await Promise.all([first.page.waitForEvent('download'), first.page.getByRole('button', { name: 'Save run' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^beacon-live-grpo4-beacon4\.beaconrun$/);
      bytes = readFileSync((await download.path())!);
      expect(bytes.subarray(0, 8).toString('latin1')).toBe('BEACONRN');
      expect(first.errors).toEqual([]);
    } finally {
      await first.context.close();
    }
    // A fresh profile with other settings, paused; the network goes away before the file is opened.
    const { page, context, errors } = await open('backend=wasm&autostart=false&horizon=short', { serviceWorkers: 'allow' });
    try {
      await waitFor(
        'the page',
        () => iterations(page),
        (v) => Object.keys(v).length === 2,
        60_000,
      );
      await context.setOffline(true);
      const input = page.locator('durable-bar input[type=file]');
      await input.setInputFiles({ name: 'race.beaconrun', mimeType: 'application/octet-stream', buffer: bytes! });
      await waitFor(
        'the opened run',
        () => iterations(page),
        (v) => all(v, (n) => n === 4),
        60_000,
      );
      expect(untimed(await histories(page))).toEqual(expected!);
      expect(await page.locator('durable-bar [role=status]').innerText()).toMatch(/Opened race\.beaconrun: grpo at iteration 4, beacon at iteration 4/);
      // The file's settings are in effect (and in the address bar).
      await waitFor(
        'the address bar',
        () => page.evaluate(() => location.search),
        (s) => s.includes('hiddenSize=8') && s.includes('horizon=tiny'),
        10_000,
      );

      const bad: [string, Buffer, RegExp][] = [
        [
          'cut.beaconrun',
          bytes!.subarray(0, 100),
          /Could not open “cut\.beaconrun” as a run file: truncated: 100 bytes, where its preamble announces \d+\. Nothing was changed\./,
        ],
        ['flipped.beaconrun', Buffer.from(bytes!.map((b, i) => (i === bytes!.length - 9 ? b ^ 1 : b))), /checksum mismatch: the file is corrupted/],
        ['notes.txt', Buffer.from('hello, not a run'), /truncated: 16 bytes, fewer than the 52-byte preamble of a run file/],
        ['checkpoint.beaconrun', Buffer.from('BEACONCK'.padEnd(80, ' ')), /not a Beacon Live run file: it does not start with "BEACONRN"/],
      ];
      for (const [name, buffer, message] of bad) {
        await input.setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
        const alert = await waitFor(
          `the alert for ${name}`,
          () => page.locator('durable-bar [role=alert]').allInnerTexts(),
          (t) => t.length === 1 && t[0].includes(name),
          10_000,
        );
        expect(alert[0]).toMatch(message);
      }
      // Nothing changed: the opened run is still there.
      expect(await iterations(page)).toEqual({ grpo: 4, beacon: 4 });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);

  it('says so when storage is unavailable or full, and training goes on', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'unavailable',
        "Object.defineProperty(window, 'indexedDB', { get: () => undefined, configurable: true });",
        /Autosave is off: the browser's storage \(IndexedDB\) is unavailable/,
      ],
      [
        'full',
        "IDBObjectStore.prototype.put = function () { throw new DOMException('the quota is used up', 'QuotaExceededError'); };",
        /Autosave stopped: the browser's storage for this page is full \(saving: QuotaExceededError\)/,
      ],
    ];
    for (const [what, init, message] of cases) {
      const { page, context, errors } = await open(`${TINY}&backend=wasm&iters=3`, { init });
      try {
        const notice = await waitFor(
          `the ${what} notice`,
          () => page.locator('durable-bar [data-storage-notice]').allInnerTexts(),
          (t) => t.length > 0,
          60_000,
        );
        expect(notice[0], what).toMatch(message);
        expect(notice[0]).toMatch(/Training goes on; use “Save run” to keep this run in a file\./);
        await waitFor(
          `training with storage ${what}`,
          () => iterations(page),
          (v) => all(v, (n) => n === 3),
          180_000,
        );
        expect(errors, what).toEqual([]);
      } finally {
        await context.close();
      }
    }
  }, 600_000);

  it('keeps training in a background tab, as fast as in front', async () => {
    // Headless Chromium keeps every page visible (another tab in front, a minimised window: still
    // "visible"), so the test puts the page in the background the way Chromium treats one: hidden
    // (visibilityState, visibilitychange), no animation frames, and main-thread timers throttled to 1 s.
    // Training that ran on the page's thread or on animation frames would stall or slow right down.
    const background = `(() => {
      let hidden = false;
      const raf = window.requestAnimationFrame.bind(window);
      const timeout = window.setTimeout.bind(window);
      Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible'), configurable: true });
      Object.defineProperty(document, 'hidden', { get: () => hidden, configurable: true });
      window.requestAnimationFrame = (cb) => (hidden ? 0 : raf(cb));
      window.setTimeout = (cb, ms, ...args) => timeout(cb, hidden ? Math.max(1000, ms ?? 0) : ms, ...args);
      window.__toBackground = () => { hidden = true; document.dispatchEvent(new Event('visibilitychange')); };
    })();`;
    const { page, context, errors } = await open(`${TINY}&backend=wasm&iters=5000`, { init: background });
    try {
      await waitFor(
        'training',
        () => iterations(page),
        (v) => all(v, (n) => n >= 2),
        120_000,
      );
      const rate = async () => {
        const a = await iterations(page);
        const t = Date.now();
        await new Promise((r) => setTimeout(r, 6000));
        const b = await iterations(page);
        return Math.min(...Object.keys(a).map((m) => b[m] - a[m])) / ((Date.now() - t) / 1000);
      };
      const front = await rate();
      await page.evaluate(() => (window as unknown as { __toBackground(): void }).__toBackground());
      expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');
      const hiddenAt = await iterations(page);
      const back = await rate();
      expect(front).toBeGreaterThan(0.5);
      expect(back, `iterations per second: ${front.toFixed(2)} in front, ${back.toFixed(2)} in the background`).toBeGreaterThan(0.3 * front);
      // Going to the background autosaved the page.
      expect(await autosaved(page)).toBeGreaterThanOrEqual(Math.min(...Object.values(hiddenAt)));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});
