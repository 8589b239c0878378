/**
 * What the Firefox end-to-end tests do with the page: launch Debian's Firefox ESR through WebDriver BiDi
 * (puppeteer-core; Playwright's own Firefox build cannot be downloaded here), open the page in a fresh
 * user context with its errors and its workers' console collected, and read the test contract
 * (`[data-method][data-iteration]`, `[data-backend]`, `role="alert"`) through the shadow roots.
 *
 * A missing Firefox fails the test with the command that installs it; it never skips.
 */
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { ALERTS, BADGE, has, ITERATIONS } from './contract-source.ts';

/** The Firefox binary: $FIREFOX_PATH, else /usr/bin/firefox-esr. Throws an install hint if missing. */
export function firefoxPath(): string {
  const path = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
  if (!existsSync(path)) {
    throw new Error(`Firefox not found at ${path}: install it (Debian/Ubuntu: sudo apt-get install -y firefox-esr) or set FIREFOX_PATH to a Firefox binary`);
  }
  return path;
}

/** Keep headless Firefox off the network: no updates, experiments, telemetry or safe-browsing lists. */
const QUIET_PREFS = {
  'app.update.enabled': false,
  'app.normandy.enabled': false,
  'messaging-system.rsexperimentloader.enabled': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.enabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'network.captive-portal-service.enabled': false,
};

/** Starts headless Firefox ESR; close the returned browser in `afterAll`. */
export function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath(), headless: true, extraPrefsFirefox: QUIET_PREFS });
}

export interface FirefoxOpened {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions, page and workers. */
  errors: string[];
  /** Every console line, page and workers, in order (printed when a test fails, to show where it stopped). */
  console: string[];
}

/**
 * A page in a new user context of `browser` (its own storage and service workers), not yet navigated:
 * call `visit` for each visit.
 */
export async function newFirefoxPage(browser: Browser, width = 1280, height = 900): Promise<FirefoxOpened> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await setViewport(page, width, height);
  const errors: string[] = [];
  const lines: string[] = [];
  page.on('console', (m) => {
    lines.push(`${m.type()}: ${m.text()}`);
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
  return { page, context, errors, console: lines };
}

/**
 * Sets the page's viewport through WebDriver BiDi's `browsingContext.setViewport` alone. puppeteer-core
 * 24's `page.setViewport` also sends `emulation.setScreenOrientationOverride`, which Firefox ESR 140
 * refuses as an unknown command (and the viewport then does not reliably apply).
 */
async function setViewport(page: Page, width: number, height: number): Promise<void> {
  const frame = page.mainFrame() as unknown as { browsingContext: { setViewport(options: { viewport: { width: number; height: number } }): Promise<void> } };
  await frame.browsingContext.setViewport({ viewport: { width, height } });
}

/** Navigates to the page at `url` with `query`; resolves at navigation (the time a visit is measured from). */
export async function visit(page: Page, url: string, query = ''): Promise<number> {
  const t0 = Date.now();
  await page.goto(`${url}${query ? `?${query}` : ''}`, { timeout: 60_000 });
  return t0;
}

/** Each method panel's completed iterations, by its `data-method` (through shadow roots). */
export const iterationsIn = (page: Page) => page.evaluate(ITERATIONS) as Promise<Record<string, number>>;

/** The backend the badge reports, and its text (the reason for a fallback is in it). */
export const badgeIn = (page: Page) => page.evaluate(BADGE) as Promise<{ backend: string | null; text: string }>;

/** The text of every `role="alert"` element (through shadow roots). */
export const alertsIn = (page: Page) => page.evaluate(ALERTS) as Promise<string[]>;

/** Whether an element matching `selector` exists anywhere (through shadow roots). */
export const hasIn = (page: Page, selector: string) => page.evaluate(has(selector)) as Promise<boolean>;
