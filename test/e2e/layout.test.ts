/**
 * The page's layout at a phone's width and a desktop's, end to end in headless Chromium against the built
 * page served from a sub-path:
 * - at 390 × 844 the race chart comes right after the title, on the first screen, before the controls;
 * - at 1440 × 900 the controls come first (sticky above the race);
 * - axe-core finds no serious or critical violation at either width.
 * Tiny settings and wasm keep it fast.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, iterations, openPage, servedSite, waitFor } from './page-driver.ts';

const TINY = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0&backend=wasm';

const site = servedSite();

/** The top edge of the first element matching `selector`, in page coordinates (the page scrolled to its top). */
async function topOf(page: Page, selector: string): Promise<number> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not laid out`);
  return box.y;
}

describe('page layout', () => {
  for (const { width, height, raceFirst } of [
    { width: 390, height: 844, raceFirst: true },
    { width: 1440, height: 900, raceFirst: false },
  ]) {
    it(`at ${width} × ${height}: the race ${raceFirst ? 'right after the title, before the controls' : 'after the controls'}; no serious or critical axe violation`, async () => {
      const { page, context, errors } = await openPage(site.browser, site.server.url, TINY, { width, height });
      try {
        // Trained a little, so every view (charts, episodes, credit) has drawn what a visitor sees.
        await waitFor(
          '2 iterations of each method',
          () => iterations(page),
          (v) => v.grpo >= 2 && v.beacon >= 2,
          120_000,
        );
        await page.evaluate(() => window.scrollTo(0, 0));
        const title = await topOf(page, 'beacon-live-app h1');
        const race = await topOf(page, 'comparison-chart metric-chart');
        const controls = await topOf(page, 'training-controls');
        expect(title).toBeLessThan(race);
        if (raceFirst) {
          expect(race).toBeLessThan(controls);
          expect(race, 'the race chart starts on the first screen').toBeLessThan(height / 2);
        } else {
          expect(controls).toBeLessThan(race);
        }
        expect(await axeViolations(page)).toEqual([]);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, 240_000);
  }
});
