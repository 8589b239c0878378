/**
 * Your own estimator end to end, in headless Chromium against the built page:
 * - the editor (CodeMirror, loaded only with the custom panel) and Apply, which restarts only the
 *   custom panel while the other keeps training;
 * - each failure kind (no default export, a throw with its line, a wrong shape, a non-finite value, a
 *   call over the 10 s limit) stops only the custom panel, with a role="alert" saying what went wrong;
 * - the Share link carries the code; opening it shows a role="dialog" and runs nothing before
 *   "Run this code"; after "Don't run" the code waits in the editor;
 * - a saved run file carries the code, and opening it (offline, from the service worker's cache) asks
 *   before running it;
 * - axe-core finds no serious or critical violations with the editor and with the dialog;
 * - the default page (no custom panel) loads none of it.
 * The race is GRPO against Your estimator on wasm at tiny settings, so iterations take well under a second.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { iterations, openPage, servedSite, waitFor } from './page-driver.ts';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const TINY = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0&backend=wasm';
const RACE = `${TINY}&methods=grpo,custom&iters=100000`;

const site = servedSite();
const open = (query: string) =>
  openPage(site.browser, site.server.url, query, { acceptDownloads: true, serviceWorkers: 'block', permissions: ['clipboard-read', 'clipboard-write'] });

async function axeViolations(page: Page) {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)) }));
  });
}

/** A panel's records as the page holds them, without timings and the method's name (which differ between equal runs). */
const records = (page: Page, method: string) =>
  page.locator(`method-panel[data-method="${method}"]`).evaluate((e) =>
    (e as unknown as { history: { records: Record<string, unknown>[] } }).history.records.map((r) => {
      const { ms, envStepsPerSecond, method: _m, ...rest } = r;
      return JSON.parse(JSON.stringify(rest));
    }),
  );

const customAlert = (page: Page) => page.locator('method-panel[data-method="custom"] [role=alert]').allInnerTexts();

/** Puts `source` in the editor (as its draft) and presses Apply. */
async function apply(page: Page, source: string): Promise<void> {
  await page.locator('estimator-editor').evaluate((el, s) => {
    (el as unknown as { draft: string }).draft = s;
  }, source);
  await page.locator('estimator-editor button.apply').click();
}

/** Applies `source`, waits for the custom panel's alert, and checks that GRPO kept training meanwhile. */
async function expectFailure(page: Page, source: string, message: RegExp, timeoutMs = 60_000): Promise<string> {
  const before = (await iterations(page)).grpo;
  await apply(page, source);
  const [alert] = await waitFor(
    `the custom panel's alert matching ${message}`,
    () => customAlert(page),
    (t) => t.length === 1 && message.test(t[0]),
    timeoutMs,
  );
  await waitFor(
    'GRPO to keep training',
    () => iterations(page),
    (v) => v.grpo >= before + 2,
    60_000,
  );
  expect(await page.locator('method-panel[data-method="grpo"] [role=alert]').count()).toBe(0);
  return alert;
}

describe('your own estimator on the page', () => {
  it('is not loaded by the default page: no editor, no CodeMirror, no dialog', async () => {
    const { page, context, errors } = await open(`${TINY}&autostart=false`);
    try {
      await waitFor(
        'the default race',
        () => iterations(page),
        (v) => Object.keys(v).join() === 'grpo,beacon',
        60_000,
      );
      const scripts = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => n.endsWith('.js')),
      );
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((n) => /code-editor|estimator-editor|consent-dialog|templates/.test(n))).toEqual([]);
      // And by content, whatever the chunks are called: CodeMirror's lint marks, the editor's and the dialog's text.
      const texts = await page.evaluate((urls) => Promise.all(urls.map((u) => fetch(u).then((r) => r.text()))), scripts);
      expect(texts.filter((t) => /cm-lintRange-error|Starter templates|consent-title/.test(t))).toEqual([]);
      expect(await page.locator('estimator-editor').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('edits, applies, fails alone with a message for each failure kind, shares its code, and passes axe', async () => {
    const { page, context, errors } = await open(RACE);
    try {
      // The editor is CodeMirror, and the custom panel trains the GRPO starter.
      await waitFor(
        'the code editor',
        () => page.locator('estimator-editor .cm-editor').count(),
        (n) => n === 1,
        60_000,
      );
      expect(await page.locator('estimator-editor .cm-content').innerText()).toMatch(/GRPO: one group-normalised score per run/);
      expect(await page.locator('estimator-editor .cm-lineNumbers').count()).toBe(1);
      await waitFor(
        'both panels to train',
        () => iterations(page),
        (v) => v.grpo >= 2 && v.custom >= 2,
        120_000,
      );
      expect(await axeViolations(page)).toEqual([]);

      // An edit typed into the editor, applied: only the custom panel starts again.
      await page.locator('estimator-editor .cm-content').click();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText('export default (batch) => batch.groups.map((runs) => runs.map((run) => run.reward - 0.5));\n');
      const before = await iterations(page);
      await page.locator('estimator-editor button.apply').click();
      await waitFor(
        'the custom panel to start again while GRPO goes on',
        () => iterations(page),
        (v) => v.custom < before.custom && v.grpo >= before.grpo,
        30_000,
      );
      await waitFor(
        'the edited estimator to train',
        () => iterations(page),
        (v) => v.custom >= 2,
        60_000,
      );
      expect(await customAlert(page)).toEqual([]);

      // Each failure stops only the custom panel, with its message.
      // (The first call is iteration 0's, which measures the starting policy: the panel cannot start.)
      const thrown = await expectFailure(
        page,
        'export default function estimate(batch) {\n  throw new RangeError("not yet");\n}\n',
        /estimate\(\) threw at line 2: RangeError: not yet/,
      );
      expect(thrown).toBe('could not start training: estimate() threw at line 2: RangeError: not yet');
      // The editor marks the line.
      await waitFor(
        'the error mark at line 2',
        () => page.locator('estimator-editor .cm-lintRange-error').count(),
        (n) => n >= 1,
        10_000,
      );
      await expectFailure(page, 'export const estimate = () => [];\n', /no default export function/);
      await expectFailure(
        page,
        'export default (batch) => batch.groups.map((runs) => runs.slice(1).map(() => 0));\n',
        /estimate\(\) returned the wrong shape: group 0: expected 2 runs, got 1/,
      );
      await expectFailure(
        page,
        'export default (batch) => batch.groups.map((runs) => runs.map((run) => Array.from({ length: run.length }, (_, t) => (t === 0 ? NaN : 0))));\n',
        /non-finite advantage at group 0, run 0, step 0: NaN/,
      );
      await expectFailure(
        page,
        'export default () => { for (;;) {} };\n',
        /estimate\(\) ran for 1\d\.\d s without returning, over the time limit of 10 s; it was stopped/,
        90_000,
      );

      // A good rule again: the alert goes and the panel trains.
      await apply(page, 'export default (batch) => batch.groups.map((runs) => runs.map((run) => (run.success ? 1 : -1)));\n');
      await waitFor(
        'the custom panel to train again',
        () => iterations(page),
        (v) => v.custom >= 2,
        60_000,
      );
      expect(await customAlert(page)).toEqual([]);

      // The GRPO starter applied again: the panel restarts from the race's prior and seed, so its first
      // iterations are GRPO's own (wasm is deterministic).
      await page.getByRole('button', { name: 'GRPO', exact: true }).click();
      await page.locator('estimator-editor button.apply').click();
      await waitFor(
        'the GRPO starter to train 3 iterations',
        () => iterations(page),
        (v) => v.custom >= 3,
        60_000,
      );
      expect((await records(page, 'custom')).slice(0, 3)).toEqual((await records(page, 'grpo')).slice(0, 3));
      await apply(page, 'export default (batch) => batch.groups.map((runs) => runs.map((run) => (run.success ? 1 : -1)));\n');
      await waitFor(
        'the custom panel to train again',
        () => iterations(page),
        (v) => v.custom >= 2,
        60_000,
      );

      // The Share link carries the applied code as base64url UTF-8; the address bar does not.
      const link = await page.locator('share-export').evaluate((el) => (el as unknown as { url: string }).url);
      const code = new URL(link).searchParams.get('estimator');
      expect(Buffer.from(code!, 'base64url').toString('utf8')).toBe(
        'export default (batch) => batch.groups.map((runs) => runs.map((run) => (run.success ? 1 : -1)));\n',
      );
      expect(await page.evaluate(() => location.search)).not.toMatch(/estimator=/);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);

  it('asks before running code from a link: nothing runs before "Run this code"; after "Don\'t run" the code waits in the editor', async () => {
    const source = 'export default (batch) => batch.groups.map((runs) => runs.map(() => 0.25)); // shared\n';
    const query = `${RACE}&estimator=${Buffer.from(source, 'utf8').toString('base64url')}`;
    const { page, context, errors } = await open(query);
    try {
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ timeout: 60_000 });
      expect((await dialog.locator('pre').innerText()).trimEnd()).toBe(source.trimEnd());
      expect(await axeViolations(page)).toEqual([]);
      // GRPO trains; the custom panel runs nothing and says why.
      await waitFor(
        'GRPO to train',
        () => iterations(page),
        (v) => v.grpo >= 2,
        120_000,
      );
      expect((await iterations(page)).custom).toBe(0);
      await page.getByRole('button', { name: "Don't run" }).click();
      await waitFor(
        'the dialog to close',
        () => page.getByRole('dialog').count(),
        (n) => n === 0,
        10_000,
      );
      expect(await page.locator('estimator-editor .cm-content').innerText()).toMatch(/runs\.map\(\(\) => 0\.25\)\); \/\/ shared/);
      expect((await iterations(page)).custom).toBe(0);
      expect(await customAlert(page)).toEqual([expect.stringMatching(/no code to run yet/)]);

      // The address bar dropped the code (a reload does not ask again); the same link again, and this time "Run this code".
      expect(await page.evaluate(() => location.search)).not.toMatch(/estimator=/);
      await page.goto(`${site.server.url}?${query}`);
      await page.getByRole('dialog').waitFor({ timeout: 60_000 });
      await page.getByRole('button', { name: 'Run this code' }).click();
      await waitFor(
        'the shared estimator to train',
        () => iterations(page),
        (v) => v.custom >= 2,
        120_000,
      );
      expect(await customAlert(page)).toEqual([]);
      expect(errors.filter((e) => !/no code to run yet/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);

  it('saves a run file with the code, and opening it asks before running it, then continues the panel', async () => {
    const source = 'export default (batch) => batch.groups.map((runs) => runs.map((run) => run.reward - 0.5)); // saved\n';
    const first = await open(`${TINY}&methods=grpo,custom&iters=3`);
    let bytes: Buffer;
    try {
      await waitFor(
        'the starter to train',
        () => iterations(first.page),
        (v) => v.custom >= 1,
        120_000,
      );
      await apply(first.page, source);
      await waitFor(
        'the run to finish',
        () => iterations(first.page),
        (v) => v.grpo === 3 && v.custom === 3,
        120_000,
      );
      const [download] = await Promise.all([first.page.waitForEvent('download'), first.page.getByRole('button', { name: 'Save run' }).click()]);
      bytes = readFileSync((await download.path())!);
      expect(bytes.includes(Buffer.from('// saved'))).toBe(true);
    } finally {
      await first.context.close();
    }
    // Offline, with the service worker: the sandbox's worker script comes from its cache.
    const { page, context, errors } = await openPage(site.browser, site.server.url, `${TINY}&methods=grpo,custom&autostart=false`, { serviceWorkers: 'allow' });
    try {
      await waitFor(
        'the page',
        () => iterations(page),
        (v) => Object.keys(v).length === 2,
        60_000,
      );
      await waitFor(
        'the service worker in control',
        () => page.evaluate(() => navigator.serviceWorker.controller !== null),
        (v) => v,
        60_000,
      );
      await context.setOffline(true);
      await page.locator('durable-bar input[type=file]').setInputFiles({ name: 'mine.beaconrun', mimeType: 'application/octet-stream', buffer: bytes! });
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ timeout: 30_000 });
      expect(await dialog.innerText()).toMatch(/Run code from this run file\?/);
      expect((await dialog.locator('pre').innerText()).trimEnd()).toBe(source.trimEnd());
      await page.getByRole('button', { name: 'Run this code' }).click();
      await waitFor(
        'both panels at the saved iteration',
        () => iterations(page),
        (v) => v.grpo === 3 && v.custom === 3,
        60_000,
      );
      expect(await customAlert(page)).toEqual([]);
      expect(errors.filter((e) => !/no code to run yet/.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 600_000);
});
