/**
 * Thousands of runs on stage, end to end in headless Chromium against the built page: on wasm, the
 * "Thousands of runs" preset first says what an iteration will cost here (an estimate from this race's
 * measured iterations) and loads only when the visitor chooses to run it. The 4,096-run race on WebGPU
 * is thousands-webgpu.slow.ts (`npm run test:slow`).
 */
import { describe, expect, it } from 'vitest';
import { iterations, openPage, servedSite, waitFor } from './page-driver.ts';

const SMALL_WASM = 'backend=wasm&horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0';

const site = servedSite();

describe('thousands of runs', () => {
  it('on wasm the preset says what it will cost here before it runs, and runs only when asked', async () => {
    const { page, context, errors } = await openPage(site.browser, site.server.url, SMALL_WASM, { width: 1440, height: 900 });
    try {
      await waitFor(
        '3 iterations of each method',
        () => iterations(page),
        (v) => v.grpo >= 3 && v.beacon >= 3,
        120_000,
      );
      // Clicked in the page: the settings' buttons sit far below, and a loaded machine makes Playwright's
      // scrolling and stability checks slow to settle.
      const press = (selector: string) => page.locator(selector).evaluate((b) => (b as HTMLButtonElement).click());
      await press('method-picker button[data-preset="thousands"]');
      const estimate = page.locator('cost-check [data-cost-estimate]');
      await estimate.waitFor({ timeout: 5_000 });
      const text = await estimate.innerText();
      console.log(`cost check: ${text}`);
      expect(text).toMatch(/4,096 runs per iteration on wasm/);
      expect(text).toMatch(/Estimate: about [\d.]+ (s|min) per iteration/);
      expect(Number(await estimate.getAttribute('data-cost-estimate'))).toBeGreaterThan(0);
      await press('cost-check button:not([data-cost-run])');
      expect(await page.locator('cost-check').count()).toBe(0);
      expect(await page.evaluate(() => location.search)).not.toContain('tasksPerIteration=64');

      await press('method-picker button[data-preset="thousands"]');
      await page.locator('cost-check button[data-cost-run]').waitFor({ timeout: 5_000 });
      await press('cost-check button[data-cost-run]');
      await waitFor(
        'the wide settings in the address',
        () => page.evaluate(() => location.search),
        (q) => q.includes('tasksPerIteration=64') && q.includes('groupSize=64'),
        5_000,
      );
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
