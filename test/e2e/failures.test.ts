/**
 * No failure ends a race, end to end in headless Chromium against the built page:
 * - a visitor's estimator opened from a shared link that throws at its first call, touches `document`,
 *   never returns, or throws only at its fifth call stops its own panel with its message while GRPO
 *   trains on, and no role="alert" on the page is empty;
 * - a fault of WebGPU injected in GRPO's worker (a kernel error, a replay that does not match, a lost
 *   device with no new one: the test-only `fault` message, docs/page-failures.md) moves that panel to
 *   wasm at its last completed iteration; it trains on, the panel and the badge say why, and the stored
 *   verdict becomes wasm with the reason.
 * Tiny settings: SwiftShader runs WebGPU on this machine's CPU.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { backendOf, iterations, openPage, servedSite, waitFor } from './page-driver.ts';

const site = servedSite();
const SMALL = 'env=gridhouse&horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=16&iters=100000';

/** Every role="alert" on the page (shadow roots included) with its text: none may be empty. */
const alerts = (page: Page) => page.locator('[role=alert]').evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
const panelAlert = (page: Page, method: string) =>
  page.locator(`method-panel[data-method="${method}"] [role=alert]`).evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));

const FAILING_ESTIMATORS: { name: string; source: string; message: RegExp }[] = [
  {
    name: 'throws at its first call',
    source: 'export default function estimate(batch) {\n  throw new RangeError("not yet");\n}\n',
    message: /estimate\(\) threw at line 2: RangeError: not yet/,
  },
  {
    name: 'touches document',
    source: 'export default function estimate(batch) {\n  return document.title;\n}\n',
    message: /estimate\(\) threw at line 2: ReferenceError: document is not defined/,
  },
  {
    name: 'never returns',
    source: 'export default () => { for (;;) {} };\n',
    message: /estimate\(\) ran for 1\d\.\d s without returning, over the time limit of 10 s; it was stopped/,
  },
  {
    name: 'throws at its fifth call',
    source:
      'let calls = 0;\nexport default (batch) => {\n  if (++calls === 5) throw new Error("fifth");\n  return batch.groups.map((runs) => runs.map(() => 0));\n};\n',
    message: /estimate\(\) threw at line 3: Error: fifth/,
  },
];

describe('no failure ends a race', () => {
  for (const { name, source, message } of FAILING_ESTIMATORS)
    it(`an estimator from a shared link that ${name} fails its own panel with its message; GRPO trains on; no empty alert`, async () => {
      const query = `methods=grpo,custom&${SMALL}&backend=wasm&estimator=${Buffer.from(source, 'utf8').toString('base64url')}`;
      const { page, context } = await openPage(site.browser, site.server.url, query, { serviceWorkers: 'block' });
      try {
        await page.getByRole('dialog').waitFor({ timeout: 60_000 });
        // At once, as a visitor would: the consent lands while the race's first worker computes the prior.
        await page.getByRole('button', { name: 'Run this code' }).click();
        await waitFor(
          `the custom panel's alert matching ${message}`,
          () => panelAlert(page, 'custom'),
          (t) => t.length === 1 && message.test(t[0]),
          90_000,
        );
        await waitFor(
          'GRPO to train past iteration 2',
          () => iterations(page),
          (v) => v.grpo > 2,
          90_000,
        );
        expect(await panelAlert(page, 'grpo')).toEqual([]);
        const all = await alerts(page);
        expect(all.length).toBeGreaterThan(0);
        expect(all.filter((t) => t === '')).toEqual([]);
      } finally {
        await context.close();
      }
    }, 240_000);

  const FAULTS: { fault: string; reason: RegExp }[] = [
    { fault: 'kernel', reason: /WebGPU failed: WGSL kernel .*(Validation|usage)/i },
    { fault: 'replay', reason: /WebGPU failed: WGSL kernel gpu rollout: the GPU environment left the TypeScript one/ },
    { fault: 'logProb', reason: /WebGPU failed: WGSL kernel gpu rollout: run \d+, step 0: the GPU recorded log-probability .* the policy gives/ },
    { fault: 'deviceLostNoNewDevice', reason: /WebGPU failed: the GPU device was lost .* and no new one was offered/ },
  ];
  for (const { fault, reason } of FAULTS)
    it(`an injected ${fault} fault moves the panel to wasm at its last completed iteration; it trains on and says why; the verdict becomes wasm`, async () => {
      const { page, context, errors } = await openPage(site.browser, site.server.url, `methods=grpo&${SMALL}&sftEpisodes=0&backend=webgpu`, {
        serviceWorkers: 'block',
      });
      try {
        await waitFor(
          'GRPO on webgpu',
          () => backendOf(page),
          (b) => b === 'webgpu',
          120_000,
        );
        const before = await waitFor(
          'GRPO to train 2 iterations on webgpu',
          () => iterations(page),
          (v) => v.grpo >= 2,
          180_000,
        );
        await page.locator('beacon-live-app').evaluate((el, f) => (el as unknown as { injectFault(m: string, f: string): void }).injectFault('grpo', f), fault);
        const note = await waitFor(
          'the panel to say why it left WebGPU',
          () => page.locator('method-panel[data-method="grpo"] [data-fallback]').allTextContents(),
          (t) => t.length === 1 && reason.test(t[0]),
          120_000,
        );
        expect(await backendOf(page)).toBe('wasm');
        // It went on from its last completed iteration, not from 0: the last one seen before the fault, or
        // the one before it when the fault came while that iteration's state was being kept (a panel shows
        // an iteration's record before its state is kept).
        const at = Number(/continued at iteration (\d+)/.exec(note[0])?.[1]);
        expect(at).toBeGreaterThanOrEqual(before.grpo - 1);
        await waitFor(
          'GRPO to train on on wasm',
          () => iterations(page),
          (v) => v.grpo >= at + 2,
          120_000,
        );
        expect(await panelAlert(page, 'grpo')).toEqual([]);
        const badge = await page.locator('backend-badge').evaluate((el) => el.shadowRoot?.textContent ?? '');
        expect(badge).toMatch(reason);
        // The page stores it once it has asked for the adapter the verdict is keyed to (asynchronously).
        const verdicts = await waitFor(
          'the stored verdict',
          () =>
            page.evaluate(() =>
              Object.keys(localStorage)
                .filter((k) => k.startsWith('beacon-live:backend-verdict:'))
                .map((k) => JSON.parse(localStorage.getItem(k)!) as { chosen: string; reason: string }),
            ),
          (v) => v.length > 0,
          30_000,
        );
        expect(verdicts).toEqual([expect.objectContaining({ chosen: 'wasm', reason: expect.stringMatching(/^wasm: WebGPU failed while training/) })]);
        expect(errors.filter((e) => !/GPU|device|WebGPU/i.test(e))).toEqual([]);
      } finally {
        await context.close();
      }
    }, 400_000);
});
