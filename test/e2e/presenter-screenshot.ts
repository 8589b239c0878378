/**
 * Takes docs/presenter.png: the built page in presenter mode at 1920 × 1080 on wasm, the tour's first
 * scenario loaded (page defaults), training for a while in headless Chromium.
 *
 *   npx tsx test/e2e/presenter-screenshot.ts [seconds=120]
 */
import { mkdirSync } from 'node:fs';
import { launchChromium } from '../../scripts/browser.ts';
import { buildAndServe } from '../../scripts/sub-path-server.ts';

const seconds = Number(process.argv[2] ?? 120);
const out = 'docs/presenter.png';

const server = await buildAndServe();
const browser = await launchChromium({ webgpu: false });
try {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 1, colorScheme: 'light' });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') console.error('console error:', m.text());
  });
  await page.goto(`${server.url}?present=1&backend=wasm`);
  await page.waitForTimeout(2000);
  await page.keyboard.press('1');
  const t0 = Date.now();
  while (Date.now() - t0 < seconds * 1000) {
    await page.waitForTimeout(15_000);
    const its = await page
      .locator('method-panel')
      .evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.method} ${(e as HTMLElement).dataset.iteration}`));
    console.log(`${Math.round((Date.now() - t0) / 1000)} s: ${its.join(', ')}`);
  }
  mkdirSync('docs', { recursive: true });
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}
