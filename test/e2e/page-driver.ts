/**
 * What every end-to-end test does with the page: serve it, open it in a fresh browser context with its errors
 * collected, poll it until a condition holds, and read the test contract (`[data-method][data-iteration]`
 * on each method panel, `[data-backend]` on the badge).
 */
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from '../../scripts/browser.ts';
import { serveBuild, type SubPathServer } from '../../scripts/sub-path-server.ts';
import { sharedBuild } from '../support/built-page.ts';

export interface Site {
  /** The built page, served from a sub-path. */
  server: SubPathServer;
  /** Headless Chromium with WebGPU (SwiftShader where the machine has no GPU). */
  browser: Browser;
}

/**
 * The build served and a browser for a whole test file: both start before its first test and close
 * after its last. Read the fields inside tests (they are set by then).
 */
export function servedSite(): Site {
  const site = {} as Site;
  beforeAll(async () => {
    [site.server, site.browser] = await Promise.all([servedBuild(), launchChromium({ webgpu: true })]);
  }, 300_000);
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}

/**
 * A server of its own over the run's one build of the page (test/support/built-page.ts): its isolation
 * headers and reachability are this file's to switch.
 */
export async function servedBuild(options: { isolated?: boolean } = {}): Promise<SubPathServer> {
  const { site, owned } = await sharedBuild();
  const server = await serveBuild(site, options);
  if (!owned) return server;
  return {
    ...server,
    close: async () => {
      await server.close();
      rmSync(site, { recursive: true, force: true });
    },
  };
}

export interface Opened {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions, page and worker. */
  errors: string[];
}

export interface OpenOptions {
  width?: number;
  height?: number;
  /** A script run before the page's own (test hooks). */
  init?: string;
  serviceWorkers?: 'allow' | 'block';
  acceptDownloads?: boolean;
  permissions?: string[];
}

/** The page at `url` with the query `query`, in a new context of `browser`. */
export async function openPage(browser: Browser, url: string, query: string, options: OpenOptions = {}): Promise<Opened> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    ...(options.serviceWorkers ? { serviceWorkers: options.serviceWorkers } : {}),
    ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
    ...(options.permissions ? { permissions: options.permissions } : {}),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  if (options.init) await page.addInitScript({ content: options.init });
  await page.goto(`${url}${query ? `?${query}` : ''}`);
  return { page, context, errors };
}

/** Polls `read` until `ok` holds; on timeout, an error naming what it waited for and the last value. */
export async function waitFor<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const t0 = Date.now();
  let last: T = await read();
  while (!ok(last)) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 150));
    last = await read();
  }
  return last;
}

/** Each method panel's completed iterations, by its `data-method`. */
export const iterations = (page: Page) =>
  page
    .locator('method-panel')
    .evaluateAll((els) => Object.fromEntries(els.map((e) => [(e as HTMLElement).dataset.method, Number((e as HTMLElement).dataset.iteration)]))) as Promise<
    Record<string, number>
  >;

/** The backend the badge reports. */
export const backendOf = (page: Page) => page.locator('backend-badge').getAttribute('data-backend');

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's serious and critical violations on the page (shadow roots included), with up to 5 targets each. */
export async function axeViolations(page: Page) {
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
