/**
 * The WGSL environments against their TypeScript twins in headless Chromium (system Chromium through
 * playwright-core, SwiftShader WebGPU adapter): test/browser/gpu-env-parity.ts runs the lockstep check
 * of test/support/gpu-env-lockstep.ts on the browser's adapter, served by the Vite dev server (the
 * shaders inlined by Vite, as the page gets them). Every environment, a long horizon with milestone
 * dropout and a shorter one without; the shop's graded outcome bit for bit, and two deliberate faults
 * that must be caught. A missing Chromium or adapter fails with what to install.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/browser.ts';
import { startPageServer, type PageServer } from '../support/server.ts';

describe('WGSL environments in Chromium', () => {
  let server: PageServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startPageServer('dev');
    browser = await launchChromium({ webgpu: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('equal to the TypeScript environments at every step', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(new URL('test/browser/gpu-env-parity.html', server.url).href);
    await page.waitForFunction(() => (window as unknown as { gpuEnvParity?: unknown }).gpuEnvParity !== undefined, undefined, { timeout: 240_000 });
    const outcome = await page.evaluate(() => (window as unknown as { gpuEnvParity: unknown }).gpuEnvParity);
    expect(errors).toEqual([]);
    if ('error' in (outcome as object)) expect.fail(`in Chromium: ${(outcome as { error: string }).error}`);
    const { results } = outcome as {
      results: {
        case: { env: string; milestoneDropout: number; sabotage?: string };
        mismatch: string | null;
        milestones: number;
        successes: number;
        dropped: number;
        partialOutcomes: number;
      }[];
    };
    expect(results).toHaveLength(8);
    expect(results.map((r) => r.case.env)).toEqual(['gridhouse', 'gridhouse', 'texthouse', 'texthouse', 'shop', 'shop', 'shop', 'shop']);
    for (const r of results.filter((x) => x.case.sabotage)) expect(r.mismatch, `${r.case.sabotage} fault caught`).toMatch(/episode 0: /);
    for (const r of results.filter((x) => !x.case.sabotage)) {
      if (r.mismatch) expect.fail(`in Chromium: ${r.mismatch}`);
      expect(r.milestones, `${r.case.env}: milestones reported`).toBeGreaterThan(0);
      expect(r.successes, `${r.case.env}: successes`).toBeGreaterThan(0);
      if (r.case.milestoneDropout > 0) expect(r.dropped, `${r.case.env}: milestones dropped`).toBeGreaterThan(0);
      if (r.case.env === 'shop') expect(r.partialOutcomes, 'shop: purchases graded below 1').toBeGreaterThan(0);
    }
    await page.close();
  }, 300_000);
});
