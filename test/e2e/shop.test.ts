/**
 * `?env=shop` end to end in headless Chromium: GRPO and BEACON race on the shop, and each method's
 * episode view draws the page the agent sees (src/ui/shop-view.ts: instruction, search box or results
 * list or item page with options) on a canvas, with its milestones listed, and the page logs no error.
 * Tiny settings on wasm keep it quick.
 */
import { describe, expect, it } from 'vitest';
import { iterations, openPage, servedSite, waitFor } from './page-driver.ts';

const site = servedSite();

/** Distinct colours on a canvas (a blank or single-colour canvas has 1). */
function distinctColours(canvas: HTMLCanvasElement): number {
  const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
  const seen = new Set<number>();
  for (let i = 0; i < data.length && seen.size < 50; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return seen.size;
}

describe('shop on the page', () => {
  it('races GRPO and BEACON on ?env=shop and draws each episode as the shop page', async () => {
    const { page, context, errors } = await openPage(
      site.browser,
      site.server.url,
      'env=shop&horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&backend=wasm',
    );
    try {
      await waitFor(
        '2 iterations of each method',
        () => iterations(page),
        (v) => v.grpo >= 2 && v.beacon >= 2,
        180_000,
      );
      const views = await waitFor(
        'the shop views',
        () =>
          page.evaluate(`(() => { ${distinctColours.toString()}; return [...document.querySelector('beacon-live-app').shadowRoot.querySelectorAll('run-inspector')].map((ri) => {
            const viewer = ri.shadowRoot.querySelector('episode-viewer');
            const shop = viewer.shadowRoot.querySelector('shop-view');
            const canvas = shop ? shop.shadowRoot.querySelector('canvas') : null;
            return {
              colours: canvas ? distinctColours(canvas) : 0,
              label: canvas ? canvas.getAttribute('aria-label') : '',
              task: viewer.shadowRoot.querySelector('.task')?.textContent ?? '',
              milestones: [...viewer.shadowRoot.querySelectorAll('.milestones li')].map((li) => li.textContent.trim()),
            };
          }); })()`) as Promise<{ colours: number; label: string; task: string; milestones: string[] }[]>,
        (v) => v.length === 2 && v.every((x) => x.colours > 8),
        60_000,
      );
      for (const v of views) {
        expect(v.label).toMatch(/^Shop, (search page|results page \d+ of \d+ for ".+"|item page of .+); \d+ of 4 milestones reached\.$/);
        expect(v.task).toMatch(/i need .+ price lower than \d+\.00 dollars/);
        expect(v.milestones).toHaveLength(4);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 400_000);
});
