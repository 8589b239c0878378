/**
 * The results page (results.html) end to end in headless Chromium, against the built site served from a
 * sub-path, with study.json replaced by the synthetic study v3 fixture (test/fixtures/study-v3.json):
 * - every environment's table, the verdict counts of the fixture's empirical claims, an untestable claim's
 *   reason, the identities apart from the claims, one chart per (env, horizon);
 * - the seeds at the floor and the ceiling per cell, and the note beside a verdict that rests on them;
 * - at a phone's width nothing overflows sideways and axe-core finds no serious or critical violation;
 * - a document of the full study's size renders from its cells alone, and passes axe dark and wide;
 * - a version 2 document shows the version alert, a failed fetch says what failed;
 * - `present=1` is the main page's presenter mode (large text, for a projector); a bad value is an alert;
 * - the main page's header links to it, and it links back;
 * - after one visit it reloads with no network: the service worker serves the page and study.json.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { StudyResults } from '../../src/results/study-document.ts';
import { axeViolations, openPage, servedSite, waitFor } from './page-driver.ts';

const FIXTURE = readFileSync(new URL('../fixtures/study-v3.json', import.meta.url), 'utf8');
const study = JSON.parse(FIXTURE) as StudyResults;

const site = servedSite();

/** Serves `body` (status `status`) wherever the page asks for study.json. */
async function serveStudy(page: Page, body: string, status = 200): Promise<void> {
  await page.route('**/study.json', (route) => route.fulfill({ status, contentType: 'application/json', body }));
}

/** Opens the results page with study.json answered by `body`; the page's own load is then awaited. */
async function openResults(body: string, options: { status?: number; width?: number; query?: string } = {}) {
  const opened = await openPage(site.browser, `${site.server.url}results.html`, options.query ?? '', { width: options.width, serviceWorkers: 'block' });
  await serveStudy(opened.page, body, options.status);
  await opened.page.reload();
  return opened;
}

describe('results page', () => {
  it('renders the fixture: every env table, the verdict counts, an untestable reason, identities apart, the charts', async () => {
    const { page, context, errors } = await openResults(FIXTURE);
    try {
      await page.locator('results-app [data-summary]').waitFor({ timeout: 30_000 });
      const envs = [...new Set(study.cells.map((c) => c.env))];
      expect(envs.length).toBe(3);
      for (const env of envs) {
        const rows = await page.locator(`results-cell-table table[data-env="${env}"] tbody tr[data-variant]`).count();
        expect(rows, `${env}'s table rows`).toBe(study.cells.filter((c) => c.env === env).length);
        await expect(page.locator(`results-cell-table table[data-env="${env}"] caption`).textContent()).resolves.toContain(env);
      }

      const empirical = study.claims.filter((c) => c.kind === 'empirical');
      const expected = {
        held: empirical.filter((c) => c.held === true).length,
        notHeld: empirical.filter((c) => c.held === false).length,
        untestable: empirical.filter((c) => c.held === null).length,
      };
      const summary = page.locator('results-app [data-summary]');
      expect({
        held: Number(await summary.getAttribute('data-held')),
        notHeld: Number(await summary.getAttribute('data-not-held')),
        untestable: Number(await summary.getAttribute('data-untestable')),
      }).toEqual(expected);
      expect(await summary.textContent()).toMatch(new RegExp(`${expected.held}\\s+held`));
      // Verdict badges in the claim sections (identities excluded) agree with the counts.
      const badges = await page
        .locator('results-app section[data-family] results-claim article')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-verdict')));
      expect(badges.length).toBe(empirical.length);
      expect(badges.filter((v) => v === 'held').length).toBe(expected.held);
      expect(badges.filter((v) => v === 'not held').length).toBe(expected.notHeld);
      expect(badges.filter((v) => v === 'untestable').length).toBe(expected.untestable);

      const untestable = empirical.find((c) => c.held === null && c.untestable)!;
      const reasons = await page.locator('results-claim [data-untestable]').allTextContents();
      expect(reasons.some((r) => r.includes(untestable.untestable!))).toBe(true);

      const identityIds = study.claims.filter((c) => c.kind === 'identity').map((c) => c.id);
      expect(identityIds.length).toBeGreaterThan(0);
      const inIdentities = await page
        .locator('results-app section[data-identities] results-claim article')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-claim')));
      expect(inIdentities).toEqual(identityIds);
      const inFamilies = await page
        .locator('results-app section[data-family] results-claim article')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-claim')));
      for (const id of identityIds) expect(inFamilies).not.toContain(id);

      // One chart per (env, horizon), each with a curve per main method and a text alternative.
      const cellsCharted = new Set(study.cells.map((c) => `${c.env}/${c.horizon}`)).size;
      const envCharts = page.locator('[data-env-section] results-curve-chart');
      expect(await envCharts.locator('svg[role="img"]').count()).toBe(cellsCharted);
      expect(await envCharts.locator('svg path[data-variant="beacon"]').count()).toBe(cellsCharted);
      expect(await envCharts.locator('svg').first().getAttribute('aria-label')).toMatch(/BEACON \d+\.\d%/);
      // The two readings: every AUC claim under both, and one chart at equal updates per long cell.
      const readings = study.aucReadings!;
      expect(await page.locator('[data-auc-readings] tbody tr').count()).toBe(readings.claims.length);
      expect(Number(await page.locator('[data-auc-readings] [data-differing]').getAttribute('data-differing'))).toBe(
        readings.claims.filter((c) => c.differs).length,
      );
      expect(await page.locator('[data-equal-updates] results-curve-chart svg[role="img"]').count()).toBe(study.equalUpdates!.length);
      // Claim intervals are drawn against zero and a reference.
      expect(await page.locator('results-claim svg[data-interval]').count()).toBeGreaterThan(0);

      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('shows each cell’s seeds at the floor and at the ceiling, and beside a verdict that rests on them, which arms', async () => {
    const first = study.claims.find((c) => c.kind === 'empirical')!;
    const note = 'rests on runs at the floor (under 5% success over the budget): GRPO 2 of 15 seeds';
    const bounds = {
      rule: 'a seed sits at the floor when …',
      cells: study.cells.map((c, i) => ({ env: c.env, horizon: c.horizon, variant: c.variant, seeds: 15, floor: i === 0 ? 2 : 0, ceiling: i === 1 ? 3 : 0 })),
      claims: [{ id: first.id, env: first.env, horizon: first.horizon, arms: [], restsOn: 'floor', note }],
    };
    const { page, context, errors } = await openResults(JSON.stringify({ ...study, bounds }));
    try {
      await page.locator('results-app [data-summary]').waitFor({ timeout: 30_000 });
      expect(await page.locator('results-cell-table td[data-bound="floor"]').count()).toBe(study.cells.length);
      expect(await page.locator('results-cell-table td[data-bound="floor"][data-count="2"]').textContent()).toBe('2 / 15');
      expect(await page.locator('results-cell-table td[data-bound="ceiling"][data-count="3"]').textContent()).toBe('3 / 15');
      const flagged = page.locator(`results-claim article[data-claim="${first.id}"] [data-rests-on="floor"]`).first();
      expect(await flagged.textContent()).toBe(`Verdict ${note}.`);
      expect(await page.locator('results-claim [data-rests-on]').count()).toBe(1);
      expect(await page.locator('results-app [data-bound-rule]').textContent()).toContain('a seed sits at the floor');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('at 390 px wide: nothing overflows sideways, no serious or critical axe violation', async () => {
    const { page, context, errors } = await openResults(FIXTURE, { width: 390 });
    try {
      await page.locator('results-app [data-summary]').waitFor({ timeout: 30_000 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'the page scrolls sideways by this many pixels').toBeLessThanOrEqual(0);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a full-size document (1,200 runs with curves) renders from its cells alone; dark, 1920 wide: no serious or critical axe violation', async () => {
    const curve = Array.from({ length: 20 }, (_, i) => i / 20);
    const runs = Array.from({ length: 1200 }, (_, i) => ({
      key: `run-${i}`,
      seed: 101 + (i % 15),
      curves: { success: curve, envSteps: curve.map((x) => x * 9e4) },
    }));
    const big = JSON.stringify({ ...study, runs });
    const { page, context, errors } = await openResults(big, { width: 1920 });
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.locator('results-app [data-summary]').waitFor({ timeout: 30_000 });
      expect(await page.locator('results-cell-table tbody tr[data-variant]').count()).toBe(study.cells.length);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a version 2 document shows a version alert instead of the page', async () => {
    const v2 = JSON.stringify({ version: 2, purpose: 'study v2', runs: [], claims: [] });
    const { page, context } = await openResults(v2);
    try {
      const alert = page.locator('results-app [role="alert"]');
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.textContent()).toMatch(/version 2; this page renders version 3/);
      expect(await page.locator('results-cell-table').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('present=1 is the main page’s presenter mode; a bad value is named in an alert and not applied', async () => {
    const present = await openResults(FIXTURE, { query: 'present=1' });
    try {
      await present.page.locator('results-app [data-summary]').waitFor({ timeout: 30_000 });
      expect(
        await present.page.evaluate(() => [document.documentElement.classList.contains('present'), getComputedStyle(document.documentElement).fontSize]),
      ).toEqual([true, '25px']);
      expect(await present.page.locator('results-app a[data-back]').getAttribute('href')).toBe('./?present=1');
    } finally {
      await present.context.close();
    }
    const bad = await openResults(FIXTURE, { query: 'present=yes' });
    try {
      const alert = bad.page.locator('results-app [role="alert"][data-url-issues]');
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.textContent()).toMatch(/present must be true or false; got "yes"/);
      expect(await bad.page.evaluate(() => document.documentElement.classList.contains('present'))).toBe(false);
    } finally {
      await bad.context.close();
    }
  }, 90_000);

  it('a document written outside git (no pre-registration recorded) says so and still shows its figures', async () => {
    const { page, context } = await openResults(JSON.stringify({ ...study, preregistration: null }));
    try {
      await page.locator('results-app [data-summary]').waitFor({ timeout: 30_000 });
      expect(await page.locator('results-app section[aria-labelledby="about"]').textContent()).toMatch(/No pre-registration is recorded/);
      expect(await page.locator('results-cell-table').count()).toBe(3);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a failed fetch says what failed', async () => {
    const { page, context } = await openResults('not found', { status: 404 });
    try {
      const alert = page.locator('results-app [role="alert"]');
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.textContent()).toMatch(/Could not load the study's document \(.*study\.json\): the server answered 404/);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('after one visit, reloads with no network: the page and its study.json come from the service worker', async () => {
    const { page, context, errors } = await openPage(site.browser, `${site.server.url}results.html`, '', { serviceWorkers: 'allow' });
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
      await context.setOffline(true);
      const served = site.server.requests.length;
      await page.reload({ timeout: 60_000 });
      // The built study.json is whatever docs/results/study.json holds (version 2 until study v3 runs): the
      // page shows its figures or the version alert, never a failed fetch, and never the main page.
      await page.locator('results-app [data-summary], results-app [role="alert"]').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('beacon-live-app').count()).toBe(0);
      const alert = await page.locator('results-app [role="alert"]').allTextContents();
      expect(alert.join(' ')).not.toMatch(/Could not load/);
      expect(site.server.requests.slice(served).filter((path) => !path.endsWith('/sw.js'))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('the main page links to it, and it links back', async () => {
    const { page, context } = await openPage(site.browser, site.server.url, 'backend=cpu', { serviceWorkers: 'block' });
    try {
      await serveStudy(page, FIXTURE);
      const link = page.locator('beacon-live-app a[href="./results.html"]');
      await link.waitFor({ timeout: 30_000 });
      expect((await link.textContent())?.trim()).toBe('Results');
      await link.click();
      await waitFor(
        'the results page',
        async () => new URL(page.url()).pathname,
        (p) => p.endsWith('/results.html'),
        30_000,
      );
      await page.locator('results-app [data-summary]').waitFor({ timeout: 30_000 });
      await page.locator('results-app a[data-back]').click();
      await page.locator('beacon-live-app').waitFor({ timeout: 30_000 });
      expect(new URL(page.url()).pathname).toBe(new URL(site.server.url).pathname);
    } finally {
      await context.close();
    }
  }, 120_000);
});
