/**
 * The live page end to end in headless Chromium (system Chromium through playwright-core), built with
 * `vite build` and served from a sub-path:
 * - autostart on WebGPU (SwiftShader adapter) with the advantages on the WGSL kernels, both method
 *   panels pass 3 iterations, the charts hold data, the episode and credit views draw, CSV / JSON / PNG
 *   export, no console errors, no serious axe-core violations, and a lost GPU device is recovered
 *   (training continues at the last completed iteration);
 * - every setting round-trips through the URL (load with parameters → the Share link is the same URL);
 * - bad parameters are named in a role="alert" message and replaced by defaults;
 * - the note under the race chart names the SFT prior and changes it;
 * - off screen, episode replays hold and charts keep their last drawing; scrolled into view, they go on;
 * - without a WebGPU adapter the page falls back to wasm, says why, and trains (the wasm binaries load
 *   from the sub-path).
 * Tiny settings keep it fast: SwiftShader runs WebGPU on the CPU.
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, type FieldSpec, type TrainConfig } from '../../src/config.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { DEFAULT_PAGE_SETTINGS, type PageSettings } from '../../src/page/page-settings.ts';
import { writePageState } from '../../src/page/url-state.ts';
import { launchChromium } from '../../scripts/browser.ts';
import { axeViolations, backendOf, iterations, openPage, servedSite, waitFor } from './page-driver.ts';

/** Small enough that an iteration takes seconds on SwiftShader. */
const TINY = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8';

const site = servedSite();

const open = (browser: Browser, query: string) => openPage(browser, site.server.url, query, { permissions: ['clipboard-read', 'clipboard-write'] });

/** Distinct colours on a canvas (a blank or single-colour canvas has 1). */
function distinctColours(canvas: HTMLCanvasElement): number {
  const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
  const seen = new Set<number>();
  for (let i = 0; i < data.length && seen.size < 50; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return seen.size;
}

describe('live page', () => {
  it('autostarts on WebGPU, trains both methods, draws every view, is accessible and recovers a lost device', async () => {
    // Forced: under auto the probe would (rightly) prefer wasm to the software adapter.
    const { page, context, errors } = await open(site.browser, `${TINY}&backend=webgpu`);
    try {
      expect(
        await waitFor(
          'a backend',
          () => backendOf(page),
          (b) => b !== null,
          60_000,
        ),
      ).toBe('webgpu');
      const badge = await page.locator('backend-badge .badge').innerText();
      expect(badge).toMatch(/WebGPU/);
      expect(badge.toLowerCase()).toMatch(/swiftshader/);
      expect(badge).toMatch(/WGSL kernels/); // advantages on the GPU kernels, not the CPU reference

      const its = await waitFor(
        '3 iterations of each method',
        () => iterations(page),
        (v) => v.grpo >= 3 && v.beacon >= 3,
        240_000,
      );
      expect(Object.keys(its).sort()).toEqual(['beacon', 'grpo']);

      // Charts hold data: every chart has an x column with points and, once on screen (a chart below the
      // fold is built when it first comes into view), a drawn uPlot canvas.
      for (const chart of await page.locator('metric-chart').all()) await chart.scrollIntoViewIfNeeded();
      await page.waitForTimeout(500);
      const charts = await page.locator('metric-chart').evaluateAll((els) =>
        els.map((e) => {
          const chart = e as HTMLElement & { heading: string; data: ArrayLike<unknown>[] };
          const canvas = chart.shadowRoot!.querySelector('canvas');
          return { heading: chart.heading, points: chart.data[0].length, series: chart.data.length - 1, drawn: !!canvas && canvas.width > 0 };
        }),
      );
      expect(charts.length).toBe(9); // comparison + 4 per method
      for (const c of charts) {
        expect(c.points, c.heading).toBeGreaterThanOrEqual(3);
        expect(c.drawn, c.heading).toBe(true);
      }
      const reached = await page.locator('comparison-chart [data-reached]').allInnerTexts();
      expect(reached.join(' ')).toMatch(/GRPO.*BEACON/s);

      // The credit view and the episode viewer draw the latest batch of each method.
      const views = await waitFor(
        'credit and episode views',
        () =>
          page.evaluate(`(() => { ${distinctColours.toString()}; return [...document.querySelector('beacon-live-app').shadowRoot.querySelectorAll('run-inspector')].map((ri) => {
            const credit = ri.shadowRoot.querySelector('credit-view');
            const viewer = ri.shadowRoot.querySelector('episode-viewer');
            const cc = credit.shadowRoot.querySelector('canvas');
            const vc = viewer.shadowRoot.querySelector('canvas');
            return { steps: credit.credit ? credit.credit.steps : 0, creditColours: cc ? distinctColours(cc) : 0, viewerColours: vc ? distinctColours(vc) : 0, task: viewer.shadowRoot.querySelector('.task')?.textContent ?? '' };
          }); })()`) as Promise<{ steps: number; creditColours: number; viewerColours: number; task: string }[]>,
        (v) => v.length === 2 && v.every((x) => x.steps > 0 && x.creditColours > 4 && x.viewerColours > 4),
        60_000,
      );
      for (const v of views) expect(v.task).toMatch(/^Task: /);
      const legend = await page.locator('credit-view .legend').first().innerText();
      expect(legend).toMatch(/A_traj[\s\S]*A_seg[\s\S]*A[\s\S]*milestone/);

      // Export: CSV and JSON of both methods' records, a chart as PNG.
      const saved = async (button: string) => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
        return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
      };
      const csv = await saved('CSV');
      expect(csv.name).toBe('beacon-live-metrics.csv');
      const rows = csv.bytes.toString('utf8').trimEnd().split('\n');
      expect(rows[0]).toMatch(/^method,seed,iteration,success,partial,failure,/);
      expect(rows.filter((r) => r.startsWith('grpo,')).length).toBeGreaterThanOrEqual(3);
      expect(rows.filter((r) => r.startsWith('beacon,')).length).toBeGreaterThanOrEqual(3);
      const json = JSON.parse((await saved('JSON')).bytes.toString('utf8'));
      expect(json.configs.grpo.method).toBe('grpo');
      expect(json.configs.beacon.horizon).toBe('tiny');
      expect(json.records.beacon.length).toBeGreaterThanOrEqual(3);
      expect(json.backend).toMatch(/^webgpu .*advantages: webgpu-kernels$/);
      const png = await saved('Download Success rate: GRPO vs BEACON as PNG');
      expect(png.name).toBe('beacon-live-comparison.png');
      expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(png.bytes.length).toBeGreaterThan(5000);

      // Nothing went wrong on the way.
      expect(await page.locator('beacon-live-app >> .errors').count()).toBe(0);
      expect(await page.locator('method-panel .halted').count()).toBe(0);
      expect(errors).toEqual([]);
      expect(site.server.misses).toEqual([]);

      const violations = await axeViolations(page);
      expect(violations).toEqual([]);

      // A lost device: the worker recovers onto a new WebGPU device, says so, and continues where it
      // was (test/e2e/durable.test.ts checks the iteration and the history in detail).
      await page.evaluate(() => (document.querySelector('beacon-live-app') as unknown as { loseDevice(): void }).loseDevice());
      const recovery = await waitFor(
        'the recovery notice',
        () => page.locator('backend-badge .recovery').allInnerTexts(),
        (t) => t.length > 0,
        60_000,
      );
      expect(recovery[0]).toMatch(/GPU device lost .*recovered on a new WebGPU device, continued at iteration \d+ after the GPU was lost/);
      expect(await backendOf(page)).toBe('webgpu');
      await waitFor(
        'training after the recovery',
        () => iterations(page),
        (v) => v.grpo >= 4 && v.beacon >= 4,
        180_000,
      );
    } finally {
      await context.close();
    }
  }, 600_000);

  it('round-trips every setting through the URL: the Share link equals the URL it was opened with', async () => {
    // A valid non-default value for every setting the page takes.
    const other = (spec: FieldSpec | { key: string; kind: FieldSpec['kind'] }, def: unknown): unknown => {
      const k = spec.kind;
      if (k.type === 'enum') return k.values.find((v) => v !== def && v !== 'webgpu' && v !== 'auto') ?? k.values.find((v) => v !== def);
      if (k.type === 'bool') return !def;
      if (k.type === 'int') return def === k.min ? k.min + 1 : k.min;
      return def === k.max ? (k.min + k.max) / 2 : k.max;
    };
    const config = { ...PAGE_DEFAULT_CONFIG } as Record<string, unknown>;
    for (const spec of CONFIG_FIELDS) if (spec.key !== 'method') config[spec.key] = other(spec, PAGE_DEFAULT_CONFIG[spec.key]);
    // The loose and the fine detector are two different Φ: setting both is refused (src/setting-limits.ts),
    // so the fine one keeps its default here (its own URL round trip is in test/page/url-state.test.ts).
    config.fineMilestones = PAGE_DEFAULT_CONFIG.fineMilestones;
    const atDefault = new Set(['method', 'fineMilestones']);
    // Keep the page light: it is opened paused (autostart flips to false) on the cpu backend.
    // Presenter mode stays off here (it hides the Share button); its own test opens it from the URL.
    const state = {
      config: { ...(config as unknown as TrainConfig), backend: 'cpu' as const, horizon: 'tiny' as const },
      page: {
        autostart: false,
        speed: 'fast',
        smoothing: 0.5,
        target: 0.75,
        methods: ['beacon', 'grpo'],
        present: false,
        seeds: 2,
        raceX: 'envSteps',
      } as PageSettings,
    };
    const query = writePageState(state);
    for (const spec of CONFIG_FIELDS) if (!atDefault.has(spec.key)) expect(query).toContain(`${spec.key}=`);
    for (const key of Object.keys(DEFAULT_PAGE_SETTINGS)) if (key !== 'present') expect(query).toContain(`${key}=`);

    const { page, context, errors } = await open(site.browser, query);
    try {
      await waitFor(
        'a backend',
        () => backendOf(page),
        (b) => b !== null,
        60_000,
      );
      expect(await backendOf(page)).toBe('cpu');
      let dialogUrl = '';
      page.on('dialog', (d) => {
        dialogUrl = d.defaultValue();
        void d.dismiss();
      });
      await page.getByRole('button', { name: 'Share link' }).click();
      await waitFor(
        'the Share status',
        () => page.locator('share-export [role=status]').innerText(),
        (t) => t.includes('copied') || dialogUrl !== '',
        10_000,
      );
      const shared = dialogUrl || (await page.evaluate(() => navigator.clipboard.readText()));
      expect(shared).toBe(`${site.server.url}?${query}`);
      await waitFor(
        'the address bar',
        () => page.evaluate(() => location.href),
        (href) => href === `${site.server.url}?${query}`,
        10_000,
      );
      // Opened paused: no iteration ran.
      await waitFor(
        'the panels',
        () => iterations(page),
        (v) => Object.keys(v).length === 2,
        30_000,
      );
      expect(await iterations(page)).toEqual({ grpo: 0, beacon: 0 });
      expect(await page.locator('settings-alert [role=alert]').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('says which SFT prior every method starts from, and changes it from the note (0 = random init)', async () => {
    const { page, context, errors } = await open(site.browser, `${TINY}&autostart=0&backend=cpu`);
    try {
      const note = page.locator('prior-note');
      const text = () => note.locator('[data-prior-episodes]').innerText();
      await note.locator('[data-prior-episodes]').waitFor({ timeout: 30_000 });
      expect(await text()).toMatch(/SFT prior of 6 oracle episodes \(auto, calibrated for gridhouse\)/);
      const submit = async (value: string) => {
        await note.locator('input[name=sftEpisodes]').fill(value);
        await note.getByRole('button', { name: 'Restart with this prior' }).click();
      };
      await submit('many');
      expect(await note.locator('[role=alert]').innerText()).toMatch(/sftEpisodes must be .*got "many"/);
      await submit('0');
      await waitFor('the note for random init', text, (t) => /random weights/.test(t), 10_000);
      await waitFor(
        'the address bar',
        () => page.evaluate(() => location.search),
        (s) => s.includes('sftEpisodes=0'),
        10_000,
      );
      expect(await note.locator('[role=alert]').count()).toBe(0);
      await submit('3');
      await waitFor('the note for 3 episodes', text, (t) => /SFT prior of 3 oracle episodes:/.test(t), 10_000);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('holds episode replays and charts while they are off screen, and catches them up in view', async () => {
    // A budget that outlasts the test: the views must still be receiving new batches when they are checked.
    const { page, context, errors } = await open(site.browser, `${TINY}&backend=wasm&iters=100000`);
    // The first episode replay, and the last chart of the last method panel with a count of its redraws
    // (uPlot's setData), both far below the fold. A chart that has never been on screen has no plot yet.
    const probe = () =>
      page.evaluate(() => {
        type Chart = HTMLElement & { data: ArrayLike<unknown>[]; plot: ({ setData: (...a: unknown[]) => void } & { __redraws?: number }) | null };
        const app = document.querySelector('beacon-live-app')!.shadowRoot!;
        const viewer = app.querySelector('run-inspector')!.shadowRoot!.querySelector('episode-viewer') as unknown as HTMLElement & {
          playback: { step: number; playing: boolean; held: boolean };
        };
        const panels = app.querySelectorAll('method-panel');
        const charts = panels[panels.length - 1].shadowRoot!.querySelectorAll('metric-chart');
        const chart = charts[charts.length - 1] as unknown as Chart;
        const plot = chart.plot;
        if (plot && plot.__redraws === undefined) {
          plot.__redraws = 0;
          const setData = plot.setData.bind(plot);
          plot.setData = (...a: unknown[]) => {
            plot.__redraws!++;
            setData(...a);
          };
        }
        return {
          top: viewer.getBoundingClientRect().top,
          chartTop: chart.getBoundingClientRect().top,
          innerHeight,
          step: viewer.playback.step,
          playing: viewer.playback.playing,
          held: viewer.playback.held,
          built: plot !== null,
          redraws: plot?.__redraws ?? 0,
          points: chart.data[0].length,
        };
      });
    try {
      await waitFor(
        '2 iterations of each method',
        () => iterations(page),
        (v) => v.grpo >= 2 && v.beacon >= 2,
        120_000,
      );
      // At the top of the page: the replay plays, but its clock holds at the first step of each batch,
      // and the chart, never on screen, is not even built while its data moves on.
      const first = await probe();
      for (let i = 0; i < 8; i++) {
        const s = await probe();
        expect(s.top).toBeGreaterThan(s.innerHeight);
        expect(s.chartTop).toBeGreaterThan(s.innerHeight);
        expect(s).toMatchObject({ playing: true, held: true, step: 0, built: false, redraws: 0 });
        await page.waitForTimeout(250);
      }
      const moved = await waitFor('new data for the off-screen chart', probe, (p) => p.points >= first.points + 2, 60_000);
      expect(moved).toMatchObject({ built: false, redraws: 0 });

      await page.locator('run-inspector episode-viewer').first().scrollIntoViewIfNeeded();
      const playing = await waitFor('the replay to go on in view', probe, (p) => p.step > 1, 20_000);
      expect(playing.held).toBe(false);

      await page.locator('method-panel').last().locator('metric-chart').last().scrollIntoViewIfNeeded();
      // In view it is built with the data so far, then redraws as new data comes.
      const drawn = await waitFor('the chart to be built and redraw in view', probe, (p) => p.built && p.redraws > 0, 20_000);
      expect(drawn.chartTop).toBeLessThan(drawn.innerHeight);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('names bad URL parameters in an alert and uses the defaults instead', async () => {
    const { page, context, errors } = await open(site.browser, 'gamma=7&bogus=1&method=grpo&groupSize=1.5&autostart=0&backend=cpu&seeds=6');
    try {
      const alert = page.locator('settings-alert [role=alert]');
      await alert.waitFor({ timeout: 30_000 });
      const text = await alert.innerText();
      expect(text).toMatch(/5 URL parameters were not used/);
      expect(text).toMatch(/gamma: gamma must be a number in \[0, 1\]; got "7"; using 0\.95/);
      expect(text).toMatch(/bogus: unknown setting "bogus"/);
      expect(text).toMatch(/method: .*the page races its methods side by side/);
      expect(text).toMatch(/groupSize: groupSize must be an integer in \[2, 64\]; got "1\.5"; using 8/);
      expect(text).toMatch(
        /seeds: seeds 6 is over 5, the most seeds per method on cpu, where seeds train one after the other \(up to 16 with backend=webgpu\); using 1/,
      );
      expect(await page.locator('settings-form #f-gamma').inputValue()).toBe('0.95');
      // The address bar keeps only what is in effect.
      await waitFor(
        'the address bar',
        () => page.evaluate(() => location.search),
        (s) => s === '?backend=cpu&autostart=false',
        10_000,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('without a WebGPU adapter falls back to wasm, says why, and trains', async () => {
    const browser = await launchChromium({ webgpu: false });
    try {
      const { page, context, errors } = await open(browser, TINY);
      expect(
        await waitFor(
          'a backend',
          () => backendOf(page),
          (b) => b !== null,
          60_000,
        ),
      ).toBe('wasm');
      expect(await page.locator('backend-badge .badge').innerText()).toMatch(/^\s*WebAssembly\s+fallback\s*$/);
      expect(await page.locator('backend-badge .reason').innerText()).toMatch(/Fallback because webgpu: no WebGPU adapter/);
      await waitFor(
        'an iteration on wasm',
        () => iterations(page),
        (v) => v.grpo >= 1 && v.beacon >= 1,
        120_000,
      );
      expect(errors).toEqual([]);
      expect(site.server.misses).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  }, 300_000);
});
