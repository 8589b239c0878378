/**
 * The workshop features end to end, in headless Chromium against the built page served from a sub-path:
 * - one Web Worker per raced method, and a three-method race with each method's description shown;
 * - a bad `methods` value named in the alert with the allowed values; the race presets that exist, and
 *   BEACON racing its own released variant (two panels keyed by entry, the variant's settings shown);
 * - `auto` decided by measurement in the background: the probe's choice and the badge text, the probe's timings
 *   scaled by the page's test hook so that either backend can be forced on any machine;
 * - presenter mode (large type at 1920 × 1080, accessible) and every keyboard shortcut, and every
 *   scenario of the tour loading its preset;
 * - offline: after one visit, the page reloads with no network and trains 3 iterations;
 * - seeds=2: both seeds of each method in its one worker, mean ± sd bands labelled, exports per seed.
 * Tiny settings and wasm keep it fast.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { methodSpec } from '../../src/methods/registry.ts';
import { RACE_ENTRY_NAMES } from '../../src/race/entries.ts';
import { applyPreset, availablePresets, availableScenarios, presetState, RACE_PRESETS } from '../../src/page/scenarios.ts';
import { readPageState, writePageState } from '../../src/page/url-state.ts';
import { axeViolations, backendOf, iterations, openPage, servedSite, waitFor, type OpenOptions } from './page-driver.ts';

const TINY = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0';

const site = servedSite();

const open = (query: string, options: OpenOptions = {}) => openPage(site.browser, site.server.url, query, options);

/** Training workers alive (probe workers are terminated once they answer). */
const workers = (page: Page) => page.workers().filter((w) => /training-worker/.test(w.url())).length;

describe('workshop page', () => {
  it('races three methods, one worker each, with every method explained', async () => {
    const { page, context, errors } = await open(`${TINY}&backend=wasm&methods=grpo,beacon,gigpo`);
    try {
      const its = await waitFor(
        '2 iterations of each method',
        () => iterations(page),
        (v) => v.grpo >= 2 && v.beacon >= 2 && v.gigpo >= 2,
        120_000,
      );
      expect(Object.keys(its)).toEqual(['grpo', 'beacon', 'gigpo']);
      expect(workers(page)).toBe(3);
      expect(await page.locator('comparison-chart metric-chart').getAttribute('heading')).toBe(
        `Success rate: ${(['grpo', 'beacon', 'gigpo'] as const).map((m) => methodSpec(m).label).join(' vs ')}`,
      );
      const explainer = await page.locator('explainer-section .methods').innerText();
      for (const m of ['grpo', 'beacon', 'gigpo'] as const) expect(explainer).toContain(methodSpec(m).description);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('seeds=2: each method trains both seeds in its one worker, drawn as mean ± sd bands, exported per seed', async () => {
    // The SFT prior stays on (auto): each seed's prior is computed once and shared by both methods.
    const { page, context, errors } = await open('horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&backend=wasm&seeds=2&methods=grpo,beacon');
    try {
      await waitFor(
        '2 iterations of both seeds of each method',
        () => iterations(page),
        (v) => v.grpo >= 2 && v.beacon >= 2,
        180_000,
      );
      expect(workers(page)).toBe(2); // one worker per method, not per seed
      expect(await page.locator('method-panel .seeds').allInnerTexts()).toEqual(['mean of 2 seeds', 'mean of 2 seeds']);

      // The comparison: per method raw mean, smoothed mean, then per method the band's lower and upper edges.
      const chart = await page.locator('comparison-chart metric-chart').evaluate((e) => {
        const c = e as HTMLElement & {
          series: { label: string; band?: { lower: number; upper: number } }[];
          data: (number | null)[][];
          plot: { bands: { series: number[]; fill: unknown }[] };
        };
        return {
          labels: c.series.map((s) => s.label),
          bands: c.series.map((s) => s.band ?? null),
          data: c.data.map((col) => Array.from(col)),
          plotBands: c.plot.bands.map((b) => b.series),
        };
      });
      expect(chart.labels.slice(0, 4)).toEqual([
        'GRPO per iteration',
        'GRPO (mean ± sd over 2 seeds)',
        'BEACON per iteration',
        'BEACON (mean ± sd over 2 seeds)',
      ]);
      expect(chart.bands[1]).toEqual({ lower: 4, upper: 5 });
      expect(chart.bands[3]).toEqual({ lower: 6, upper: 7 });
      expect(chart.plotBands).toEqual([
        [6, 5],
        [8, 7],
      ]); // uPlot's indices: x is series 0
      for (const [mean, lower, upper] of [
        [1, 4, 5],
        [3, 6, 7],
      ]) {
        const at = [0, 1]; // iterations 1 and 2, which both seeds have completed
        for (const i of at) {
          const [m, lo, hi] = [chart.data[mean + 1][i], chart.data[lower + 1][i], chart.data[upper + 1][i]];
          expect(lo).not.toBeNull();
          expect(hi!).toBeGreaterThanOrEqual(lo!);
          expect((lo! + hi!) / 2).toBeCloseTo(m!, 9); // centred on the bold mean line
        }
      }
      const legend = await page.locator('comparison-chart metric-chart .legend').innerText();
      expect(legend).toMatch(/GRPO \(mean ± sd over 2 seeds\)\s+\d+\.\d% ± \d+\.\d%/);
      expect(legend).toMatch(/BEACON \(mean ± sd over 2 seeds\)/);

      // Exports: every seed's records, with its seed.
      const saved = async (button: string) => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
        return readFileSync((await download.path())!).toString('utf8');
      };
      const rows = (await saved('CSV')).trimEnd().split('\n');
      expect(rows[0]).toMatch(/^method,seed,iteration,/);
      for (const m of ['grpo', 'beacon'])
        for (const seed of [1, 2]) expect(rows.filter((r) => r.startsWith(`${m},${seed},`)).length, `${m} seed ${seed}`).toBeGreaterThanOrEqual(3);
      const json = JSON.parse(await saved('JSON'));
      for (const m of ['grpo', 'beacon']) expect(new Set(json.records[m].map((r: { seed: number }) => r.seed))).toEqual(new Set([1, 2]));
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('names a bad methods value with the allowed ones, and offers the presets whose methods exist', async () => {
    const { page, context, errors } = await open(`${TINY}&backend=cpu&autostart=0&methods=grpo,nope`);
    try {
      const alert = await page.locator('settings-alert [role=alert]').innerText();
      expect(alert).toContain(
        `methods must be 2 to 4 distinct methods or variants, comma-separated, from ${RACE_ENTRY_NAMES.join(', ')}; got "grpo,nope": "nope" is not a method or variant; using grpo,beacon`,
      );
      // The panels appear once the start has looked for a saved run (an asynchronous IndexedDB read).
      await waitFor(
        'the default race',
        () => iterations(page),
        (v) => Object.keys(v).join() === 'grpo,beacon',
        30_000,
      );
      const shown = await page.locator('method-picker [data-preset]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.preset));
      expect(shown).toEqual(availablePresets().map((p) => p.id));
      // A preset naming a method the registry lacks stays hidden.
      for (const p of RACE_PRESETS) expect(shown.includes(p.id)).toBe(presetState(p.query) !== null);
      await page.locator('method-picker [data-preset=beacon-gigpo]').click();
      await waitFor(
        'the GiGPO race',
        () => iterations(page),
        (v) => Object.keys(v).join() === 'beacon,gigpo',
        30_000,
      );
      await waitFor(
        'the address bar',
        () => page.evaluate(() => new URLSearchParams(location.search).get('methods')),
        (m) => m === 'beacon,gigpo',
        10_000,
      );
      await waitFor(
        'one worker per method',
        async () => workers(page),
        (n) => n === 2,
        30_000,
      );
      // A method against its own variant: one panel and one worker per entry, both training beacon.
      expect(shown).toContain('paper-released');
      await page.locator('method-picker [data-preset=paper-released]').click();
      await waitFor(
        'the address bar',
        () => page.evaluate(() => new URLSearchParams(location.search).get('methods')),
        (m) => m === 'beacon,beaconReleased',
        10_000,
      );
      await waitFor(
        'the paper-vs-released race',
        () => iterations(page),
        (v) => Object.keys(v).join() === 'beacon,beaconReleased',
        30_000,
      );
      await waitFor(
        'one worker per entry',
        async () => workers(page),
        (n) => n === 2,
        30_000,
      );
      expect(await page.locator('method-panel[data-method=beaconReleased] h2#title').innerText()).toBe('BEACON (released)');
      expect(await page.locator('method-panel[data-method=beaconReleased] .overrides').innerText()).toMatch(/γ = 0\.9.*λ = 10/s);
      expect(await page.locator('method-panel[data-method=beacon] .overrides').count()).toBe(0);
      await page.getByRole('button', { name: 'Step', exact: true }).click();
      await waitFor(
        'one iteration of each entry',
        () => iterations(page),
        (v) => v.beacon >= 1 && v.beaconReleased >= 1,
        60_000,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('under auto, measures both backends and picks the faster, saying why (slow adapter forced)', async () => {
    const { page, context, errors } = await open(TINY, { init: 'window.__beaconProbeScale = { webgpu: 1000 };' });
    try {
      expect(
        await waitFor(
          'a backend',
          () => backendOf(page),
          (b) => b !== null,
          120_000,
        ),
      ).toBe('wasm');
      // The race starts on wasm at once; the probe runs in the background and then says why wasm stays.
      const probe = (
        await waitFor(
          'the background probe',
          () => page.locator('backend-badge .probe').allInnerTexts(),
          (t) => t.length > 0,
          180_000,
        )
      )[0];
      expect(probe).toMatch(/wasm: ((over )?\d+(\.\d)?× faster than this GPU adapter|this GPU adapter's warm-up iteration)/);
      expect(probe.toLowerCase()).toMatch(/software adapter.*swiftshader/);
      // The badge names what was timed: a steady iteration of this race on each backend.
      expect(probe).toMatch(/A steady iteration of this race \(.*\), the median of 3 after a warm-up: wasm \d+(\.\d)? m?s, WebGPU/);
      expect(await page.locator('backend-badge .badge').innerText()).toMatch(/WebAssembly\s+chosen by measurement/);
      await waitFor(
        'training on the chosen backend',
        () => iterations(page),
        (v) => v.grpo >= 1 && v.beacon >= 1,
        120_000,
      );
      // The probe's throw-away workers (the same script) are gone once the page has closed them.
      await waitFor(
        'one worker per method',
        async () => workers(page),
        (n) => n === 2,
        30_000,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('under auto, picks WebGPU when wasm measures slower (slow wasm forced)', async () => {
    const { page, context } = await open(`${TINY}&autostart=0`, { init: 'window.__beaconProbeScale = { wasm: 100000 };' });
    try {
      // Paused, the race still moves to WebGPU once measured (test/e2e/backend-probe.test.ts: while running).
      expect(
        await waitFor(
          'the move to webgpu',
          () => backendOf(page),
          (b) => b === 'webgpu',
          240_000,
        ),
      ).toBe('webgpu');
      expect(await page.locator('backend-badge .probe').innerText()).toMatch(/webgpu: \d+(\.\d)?× faster than wasm/);
      // The badge reports the backend once the first worker has moved; the note, once every worker has.
      const note = await waitFor(
        'every worker moved',
        () => page.locator('backend-badge .note').innerText(),
        (t) => !t.startsWith('Moving'),
        60_000,
      );
      expect(note).toMatch(/^Moved to webgpu at iteration 0: \d+(\.\d)?× faster than wasm on this adapter$/);
    } finally {
      await context.close();
    }
  }, 240_000);

  it('presenter mode: stage layout, large type, every shortcut, every scenario, accessible', async () => {
    const query = `${TINY}&backend=wasm&autostart=0&present=1`;
    const { page, context, errors } = await open(query, { width: 1920, height: 1080 });
    try {
      await waitFor(
        'the trainers',
        () => page.locator('training-controls button.run').isDisabled(),
        (d) => !d,
        60_000,
      );
      expect(await page.locator('beacon-live-app').evaluate((e) => e.hasAttribute('present'))).toBe(true);
      expect(await page.locator('beacon-live-app main.stage comparison-chart').count()).toBe(1);
      expect(await page.locator('beacon-live-app main.stage run-inspector').count()).toBe(2);
      expect(await page.locator('settings-form').count()).toBe(0);
      const px = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
      expect(await px('training-controls .budget')).toBeGreaterThanOrEqual(20);
      expect(await px('scenario-tour section')).toBeGreaterThanOrEqual(20);

      // → steps once; Space runs and pauses; R resets to iteration 0.
      await page.keyboard.press('ArrowRight');
      await waitFor(
        'one step',
        () => iterations(page),
        (v) => v.grpo === 1 && v.beacon === 1,
        60_000,
      );
      await page.keyboard.press(' ');
      await waitFor(
        'training',
        () => iterations(page),
        (v) => v.grpo >= 3 && v.beacon >= 3,
        60_000,
      );
      await page.keyboard.press(' ');
      await waitFor(
        'paused',
        () => page.locator('training-controls button.run').innerText(),
        (t) => /Resume/.test(t),
        10_000,
      );
      const paused = await iterations(page);
      await page.waitForTimeout(1500);
      const still = await iterations(page);
      expect(still.grpo - paused.grpo).toBeLessThanOrEqual(1); // at most the iteration in flight
      await page.keyboard.press('r');
      await waitFor(
        'the reset',
        () => iterations(page),
        (v) => v.grpo === 0 && v.beacon === 0,
        30_000,
      );
      // F toggles full screen; ? opens and Escape closes the help.
      await page.keyboard.press('f');
      await waitFor(
        'full screen',
        () => page.evaluate(() => document.fullscreenElement !== null),
        (v) => v,
        10_000,
      );
      await page.keyboard.press('f');
      await waitFor(
        'no full screen',
        () => page.evaluate(() => document.fullscreenElement === null),
        (v) => v,
        10_000,
      );
      await page.keyboard.press('?');
      await waitFor(
        'the help',
        () => page.locator('shortcut-help dialog').evaluate((d) => (d as HTMLDialogElement).open),
        (v) => v,
        10_000,
      );
      expect(await page.locator('shortcut-help dialog').innerText()).toMatch(/Space[\s\S]*pause or resume[\s\S]*1 – 9[\s\S]*scenario/);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await waitFor(
        'the help closed',
        () => page.locator('shortcut-help dialog').evaluate((d) => (d as HTMLDialogElement).open),
        (v) => !v,
        10_000,
      );

      // 1–9 load the scenarios of the tour, each with its preset in the URL; the rest through Next.
      const scenarios = availableScenarios();
      expect(scenarios.length).toBeGreaterThanOrEqual(6);
      let current = readPageState(await page.evaluate(() => location.search));
      for (let i = 0; i < scenarios.length; i++) {
        if (i < 9) await page.keyboard.press(String(i + 1));
        else await page.getByRole('button', { name: 'Next scenario' }).click();
        const expected = applyPreset(scenarios[i].query, current)!;
        const want = writePageState(expected);
        await waitFor(
          `scenario ${scenarios[i].id} in the URL`,
          async () => {
            // On wasm a scenario of thousands of runs first says what it will cost (the cost check); run it.
            const run = page.locator('cost-check button[data-cost-run]');
            if ((await run.count()) > 0) await run.evaluate((b) => (b as HTMLButtonElement).click());
            return page.evaluate(() => location.search.slice(1));
          },
          (q) => q === want,
          10_000,
        );
        expect(await page.locator('scenario-tour h3').getAttribute('data-scenario')).toBe(scenarios[i].id);
        expect(await page.locator('scenario-tour .narrative').innerText()).toBe(scenarios[i].narrative);
        await waitFor(
          `scenario ${scenarios[i].id}'s panels`,
          () => iterations(page),
          (v) => Object.keys(v).join() === expected.page.methods.join(),
          10_000,
        );
        current = { ...expected, issues: [] };
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('after one visit, reloads and trains with no network', async () => {
    const { page, context, errors } = await open(`${TINY}&backend=wasm`);
    try {
      await waitFor(
        'the service worker and its precache',
        () =>
          page.evaluate(
            'navigator.serviceWorker.getRegistration().then(async (r) => [r?.active?.state ?? "none", (await caches.keys()).length].join())',
          ) as Promise<string>,
        (s) => s === 'activated,1',
        60_000,
      );
      await waitFor(
        'an iteration online',
        () => iterations(page),
        (v) => v.grpo >= 1 && v.beacon >= 1,
        60_000,
      );
      await context.setOffline(true);
      const served = site.server.requests.length;
      await page.reload({ timeout: 60_000 });
      const its = await waitFor(
        '3 iterations offline',
        () => iterations(page),
        (v) => v.grpo >= 3 && v.beacon >= 3,
        120_000,
      );
      expect(its).toMatchObject({ grpo: expect.any(Number), beacon: expect.any(Number) });
      // Nothing the page asked for reached the server. Chromium's own update check of the service worker
      // script on navigation is made outside the page's network emulation and may or may not land here;
      // the page loads from the cache either way.
      expect(site.server.requests.slice(served).filter((path) => !path.endsWith('/sw.js'))).toEqual([]);
      // The service worker's headers make the reloaded page cross-origin isolated (wasm threads).
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
