/**
 * Takes docs/screenshot.png: the built page, served from a sub-path, training with its default settings
 * in headless Chromium for a while.
 *
 *   npx tsx test/e2e/screenshot.ts [seconds=240] [light|dark] [extra query]
 */
import { mkdirSync } from 'node:fs';
import { launchChromium } from '../../scripts/browser.ts';
import { buildAndServe } from '../../scripts/sub-path-server.ts';

const seconds = Number(process.argv[2] ?? 240);
const scheme = (process.argv[3] ?? 'light') as 'light' | 'dark';
const query = process.argv[4] ?? '';
const out = scheme === 'light' ? 'docs/screenshot.png' : `docs/screenshot-${scheme}.png`;

const server = await buildAndServe();
const browser = await launchChromium({ webgpu: true });
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, colorScheme: scheme });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') console.error('console error:', m.text());
  });
  await page.goto(`${server.url}${query ? `?${query}` : ''}`);
  const t0 = Date.now();
  while (Date.now() - t0 < seconds * 1000) {
    await page.waitForTimeout(15_000);
    const its = await page
      .locator('method-panel')
      .evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.method} ${(e as HTMLElement).dataset.iteration}`));
    console.log(`${Math.round((Date.now() - t0) / 1000)} s: ${its.join(', ')} (${await page.locator('backend-badge').getAttribute('data-backend')})`);
  }
  // Capture the top of the page, still training.
  mkdirSync('docs', { recursive: true });
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1440, height: 1900 }, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}
