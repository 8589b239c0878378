/**
 * `backend=auto` without waiting, end to end in headless Chromium with a software WebGPU adapter
 * (SwiftShader) against the built page:
 * - at page defaults every panel's first chart point shows within 6 s of navigation (a product
 *   requirement; the figure and the machine's load are printed), the race starting on wasm while
 *   WebGPU is measured in the background, after those first points;
 * - the verdict is remembered for this adapter: a second visit starts on the winner with no probe worker;
 * - when WebGPU wins (the probe's wasm timing scaled by the page's test hook), the race moves to it at an
 *   iteration boundary, continuing from where it was, and the badge says where and why; then the probe
 *   times 4 and 8 seeds side by side on WebGPU (the offer of more seeds, src/page/seed-offer.ts).
 */
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { backendOf, iterations, openPage, servedSite, waitFor, type OpenOptions } from './page-driver.ts';

const TINY = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0';
/** The product requirement: every panel's first point within this long of navigation. */
const FIRST_POINT_BOUND_MS = 6000;

const site = servedSite();

/** Records the name of every Web Worker the page starts (probe workers are named `beacon-live-probe-…`). */
const COUNT_WORKERS = `(() => {
  const W = window.Worker;
  window.__workerNames = [];
  window.Worker = class extends W {
    constructor(url, options) {
      super(url, options);
      window.__workerNames.push((options && options.name) || '');
    }
  };
})();`;

const open = (query: string, options: OpenOptions = {}) =>
  openPage(site.browser, site.server.url, query, { ...options, init: `${COUNT_WORKERS}\n${options.init ?? ''}` });

const workerNames = (page: Page) => page.evaluate(() => (window as unknown as { __workerNames: string[] }).__workerNames.slice());

/**
 * Per panel, the time since navigation (performance.now() in the page) at which its success chart first
 * held a point; resolves once every panel has one. Polled in the page every 25 ms, shadow roots walked.
 */
function firstPointTimes(page: Page, timeoutMs: number): Promise<Record<string, number>> {
  return page.evaluate(
    (timeout) =>
      new Promise<Record<string, number>>((resolve, reject) => {
        type Panel = HTMLElement & { shadowRoot: ShadowRoot | null };
        const panels = (): Panel[] => {
          const out: Panel[] = [];
          const walk = (root: Document | ShadowRoot) => {
            for (const el of root.querySelectorAll('*')) {
              if (el.tagName === 'METHOD-PANEL') out.push(el as Panel);
              if (el.shadowRoot) walk(el.shadowRoot);
            }
          };
          walk(document);
          return out;
        };
        const seen: Record<string, number> = {};
        const tick = () => {
          const ps = panels();
          for (const p of ps) {
            const chart = p.shadowRoot?.querySelector('metric-chart') as (HTMLElement & { data?: unknown[][] }) | null;
            const points = chart?.data?.[0]?.length ?? 0;
            const m = p.dataset.method;
            if (m && !(m in seen) && points > 0) seen[m] = performance.now();
          }
          if (ps.length > 0 && ps.every((p) => (p.dataset.method ?? '') in seen)) resolve(seen);
          else if (performance.now() > timeout) reject(new Error(`no first point in every panel after ${timeout} ms: ${JSON.stringify(seen)}`));
          else setTimeout(tick, 25);
        };
        tick();
      }),
    timeoutMs,
  );
}

describe('backend=auto without waiting', () => {
  it('page defaults: every first point within 6 s on wasm, WebGPU measured after; a second visit starts on the remembered winner', async () => {
    const load = loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
    const { page, context, errors } = await open('');
    try {
      const times = await firstPointTimes(page, 60_000);
      const worst = Math.max(...Object.values(times));
      console.log(
        `first chart point after navigation, page defaults, auto on a software adapter: ${Object.entries(times)
          .map(([m, t]) => `${m} ${(t / 1000).toFixed(2)} s`)
          .join(', ')} (load average before: ${load}; after: ${loadavg()
          .map((x) => x.toFixed(1))
          .join(' ')})`,
      );
      // The race started before any probe: on wasm, no probe worker yet when the first points showed.
      expect(await backendOf(page)).toBe('wasm');
      expect(worst).toBeLessThanOrEqual(FIRST_POINT_BOUND_MS);

      // The background probe then decides (a software adapter: wasm wins and training simply continues).
      const probe = await waitFor(
        'the background probe',
        () => page.locator('backend-badge .probe').allInnerTexts(),
        (t) => t.length > 0,
        180_000,
      );
      // Stopped in its timed part (a factor bound) or its warm-up (a software adapter compiling on a busy CPU).
      expect(probe[0]).toMatch(/wasm: ((over )?\d+(\.\d)?× faster than this GPU adapter|this GPU adapter's warm-up iteration)/);
      // The badge names what was timed: a steady iteration of this race, on each backend.
      expect(await page.locator('backend-badge [data-measured]').innerText()).toMatch(
        /^A steady iteration of this race \(gridhouse, \w+ horizon, \d+ × \d+ runs, width \d+\), the median of 3 after a warm-up: wasm \d+(\.\d)? m?s, WebGPU /,
      );
      expect((await workerNames(page)).filter((n) => n.startsWith('beacon-live-probe-'))).toEqual(['beacon-live-probe-wasm', 'beacon-live-probe-webgpu']);
      expect(await backendOf(page)).toBe('wasm');
      const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('beacon-live:backend-verdict:')));
      expect(stored).toHaveLength(1);
      expect(stored[0].toLowerCase()).toContain('swiftshader');

      // Second visit (same browser profile): the winner at once, no probe worker, and the badge says why.
      await page.reload();
      await waitFor(
        'a backend on the second visit',
        () => backendOf(page),
        (b) => b !== null,
        60_000,
      );
      await firstPointTimes(page, 60_000);
      expect(await backendOf(page)).toBe('wasm');
      expect(await page.locator('backend-badge .note').innerText()).toBe('Remembered from an earlier visit on this adapter');
      expect(await page.locator('backend-badge .probe').innerText()).toMatch(
        /wasm: ((over )?\d+(\.\d)?× faster than this GPU adapter|this GPU adapter's warm-up iteration)/,
      );
      expect((await workerNames(page)).filter((n) => n.startsWith('beacon-live-probe-'))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 360_000);

  it('when WebGPU wins the probe, the race moves to it at an iteration boundary and goes on from there (slow wasm forced)', async () => {
    const { page, context, errors } = await open(`${TINY}&iters=100000`, { init: 'window.__beaconProbeScale = { wasm: 100000 };' });
    try {
      expect(
        await waitFor(
          'a backend',
          () => backendOf(page),
          (b) => b !== null,
          60_000,
        ),
      ).toBe('wasm');
      const note = await waitFor(
        'the move',
        () => page.locator('backend-badge .note').allInnerTexts(),
        (t) => t.length > 0 && t[0].startsWith('Moved'),
        240_000,
      );
      const at = /^Moved to webgpu at iterations? (\d+)(?:–(\d+))?: \d+(\.\d)?× faster than wasm on this adapter$/.exec(note[0]);
      expect(at, note[0]).not.toBeNull();
      expect(await backendOf(page)).toBe('webgpu');
      expect(await page.locator('backend-badge .probe').innerText()).toMatch(/webgpu: \d+(\.\d)?× faster than wasm/);
      // Continued, not restarted: every panel shows at least the iteration it moved at, then goes on.
      const from = Number(at![1]);
      const moved = await waitFor(
        'iterations on webgpu',
        () => iterations(page),
        (v) => Object.values(v).every((i) => i >= from + 1),
        240_000,
      );
      expect(Object.keys(moved).length).toBeGreaterThan(0);
      // On WebGPU by measurement, the probe goes on to time seeds side by side, for the offer of 8 seeds.
      await waitFor(
        'the seeds probe',
        () => workerNames(page),
        (names) => names.includes('beacon-live-probe-webgpu-4-seeds'),
        120_000,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 420_000);

  it('"Measure again" in the badge measures the race anew and stores a new verdict', async () => {
    const { page, context, errors } = await open(`${TINY}&iters=100000`);
    const verdicts = () =>
      page.evaluate(() =>
        Object.keys(localStorage)
          .filter((k) => k.startsWith('beacon-live:backend-verdict:'))
          .map((k) => JSON.parse(localStorage.getItem(k)!) as { measuredAt: number; measured: string }),
      );
    try {
      const [first] = await waitFor('the first verdict', verdicts, (v) => v.length === 1, 300_000);
      expect(first.measured).toMatch(/^a steady iteration of this race \(gridhouse, tiny horizon, 2 × 2 runs, width 8\)/);
      // The button lives in the badge's explanation, which opens on demand.
      const openExplanation = async () => {
        const badge = page.locator('backend-badge button.badge');
        if ((await badge.getAttribute('aria-expanded')) !== 'true') await badge.click();
      };
      await openExplanation();
      await page.getByRole('button', { name: 'Measure again' }).click();
      // While it measures, the button is gone (one measurement at a time); then a new verdict replaces the first.
      const [again] = await waitFor('a new verdict', verdicts, (v) => v.length === 1 && v[0].measuredAt > first.measuredAt, 300_000);
      expect(again.measured).toMatch(/^a steady iteration of this race/);
      await waitFor(
        'the button back',
        async () => {
          await openExplanation();
          return page.getByRole('button', { name: 'Measure again' }).count();
        },
        (n) => n === 1,
        30_000,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 660_000);
});
