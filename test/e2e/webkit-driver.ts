/**
 * What the WebKit end-to-end tests do with the page: start a virtual display (Xvfb) and Debian's
 * WebKitWebDriver, open WebKitGTK's MiniBrowser through W3C WebDriver (HTTP, spoken with Node's fetch:
 * no WebDriver client is among the dependencies, and puppeteer-core does not drive WebKitGTK), and read
 * the test contract (`[data-method][data-iteration]`, `[data-backend]`, `role="alert"`) through the
 * shadow roots. WebKitGTK is the engine of Safari that runs on Linux; what it shows here is in
 * docs/browsers.md.
 *
 * The driver runs with the process locale of a minimal Debian system or container (`LANG=C.UTF-8`):
 * WebKit then reports `navigator.language` as `C`, which `Intl` refuses.
 *
 * A missing driver, browser or display fails the test with the command that installs it; it never skips.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { ALERTS, BADGE, has, ITERATIONS } from './contract-source.ts';

/** The driver: $WEBKIT_DRIVER_PATH, else Debian's (package webkit2gtk-driver). */
const DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
/** The browser the driver opens: $WEBKIT_BROWSER_PATH, else the MiniBrowser of libwebkit2gtk-4.1-0. */
const BROWSER = process.env.WEBKIT_BROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = '/usr/bin/Xvfb';
const INSTALL_HINT = 'install them (Debian/Ubuntu: sudo apt-get install -y webkit2gtk-driver xvfb) or set WEBKIT_DRIVER_PATH and WEBKIT_BROWSER_PATH';

/** Throws the install hint when the driver, the browser or Xvfb is missing. */
export function webkitPaths(): { driver: string; browser: string } {
  const missing = [DRIVER, BROWSER, XVFB].filter((p) => !existsSync(p));
  if (missing.length) throw new Error(`WebKit's WebDriver, MiniBrowser or Xvfb not found (${missing.join(', ')}): ${INSTALL_HINT}`);
  return { driver: DRIVER, browser: BROWSER };
}

/** A TCP port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts Xvfb on the first free display (it writes the display's number to fd 3); resolves to it. */
function startXvfb(): Promise<{ process: ChildProcess; display: string }> {
  const xvfb = spawn(XVFB, ['-displayfd', '3', '-screen', '0', '1920x1080x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    xvfb.stderr?.on('data', (d) => (stderr += String(d)));
    xvfb.stdio[3]?.on('data', (d) => resolve({ process: xvfb, display: `:${String(d).trim()}` }));
    xvfb.on('error', reject);
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it chose a display: ${stderr.slice(-500)}`)));
  });
}

/**
 * The environment with the locale of a minimal container (`LANG=C.UTF-8`, no LC_* or LANGUAGE): WebKit
 * then reports navigator.language `C`. (With LANG unset or `C` it reports `en-US`.)
 */
function containerLocale(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept = Object.entries(env).filter(([k]) => k !== 'LANG' && k !== 'LANGUAGE' && !k.startsWith('LC_'));
  return { ...Object.fromEntries(kept), LANG: 'C.UTF-8' };
}

export interface WebKitSession {
  /** Navigates the browser's window; resolves once the page has loaded, to the time it was asked. */
  visit(url: string): Promise<number>;
  /** Runs `expression` (JavaScript source) in the page and resolves to its JSON value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Reloads the page. */
  reload(): Promise<void>;
  /** Sets the window's size (CSS pixels). */
  resize(width: number, height: number): Promise<void>;
  /** Ends the session: the browser and its storage go. */
  close(): Promise<void>;
}

export interface WebKit {
  /**
   * A new browser with storage of its own (an automation session's data is ephemeral): a first visit
   * whatever the earlier sessions did. In WebKitGTK 2.50 a window navigated from the running page to
   * the page again did not always start its training workers (the old page may live on in the
   * back/forward cache, workers included): a check that needs a first visit takes a new session.
   */
  newSession(): Promise<WebKitSession>;
  /** Stops the driver and the display (and any session left open). */
  close(): Promise<void>;
}

/** WebKitWebDriver on a free port and its Xvfb display, for a whole test file; close it in `afterAll`. */
export async function launchWebKit(): Promise<WebKit> {
  const { driver, browser } = webkitPaths();
  const { process: xvfb, display } = await startXvfb();
  const port = await freePort();
  const wd = spawn(driver, [`--port=${port}`], { env: { ...containerLocale(process.env), DISPLAY: display }, stdio: ['ignore', 'ignore', 'pipe'] });
  let driverLog = '';
  wd.stderr?.on('data', (d) => (driverLog = (driverLog + String(d)).slice(-2000)));
  const stop = () => {
    wd.kill();
    xvfb.kill();
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForDriver(base, () => driverLog);
  } catch (e) {
    stop();
    throw e;
  }
  const open = new Set<string>();
  return {
    newSession: async () => {
      const created = await command<{ sessionId: string }>(base, 'POST', '/session', {
        capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: browser, args: ['--automation'] } } },
      });
      const session = `/session/${created.sessionId}`;
      open.add(session);
      const run = <T>(method: string, path: string, body?: unknown) => command<T>(base, method, `${session}${path}`, body);
      return {
        visit: async (url) => {
          const t0 = Date.now();
          await run('POST', '/url', { url });
          return t0;
        },
        evaluate: (expression) => run('POST', '/execute/sync', { script: `return (${expression});`, args: [] }),
        reload: async () => {
          await run('POST', '/refresh', {});
        },
        resize: async (width, height) => {
          await run('POST', '/window/rect', { width, height });
        },
        close: async () => {
          open.delete(session);
          await command(base, 'DELETE', session).catch(() => undefined);
        },
      };
    },
    close: async () => {
      await Promise.all([...open].map((session) => command(base, 'DELETE', session).catch(() => undefined)));
      stop();
    },
  };
}

/** How long a WebDriver command may take before it counts as hung. */
const COMMAND_TIMEOUT_MS = 45_000;

/** A WebDriver command that got no answer in time (the driver hung, not the page's check). */
export class WebDriverTimeout extends Error {}

/** One W3C WebDriver command; a WebDriver error becomes an Error with its message. */
async function command<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    // WebKitWebDriver at times never answers a command (seen once in a navigation of a fresh session):
    // a command that hangs fails with its name instead of holding the test until its own timeout.
    signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
  }).catch((e: unknown) => {
    if (e instanceof Error && e.name === 'TimeoutError')
      throw new WebDriverTimeout(`WebDriver ${method} ${path}: no answer within ${COMMAND_TIMEOUT_MS / 1000} s`);
    throw e;
  });
  const json = (await res.json()) as { value: T & { error?: string; message?: string } };
  if (!res.ok || (json.value && typeof json.value === 'object' && 'error' in json.value && json.value.error)) {
    throw new Error(`WebDriver ${method} ${path}: ${json.value?.error}: ${json.value?.message}`);
  }
  return json.value;
}

/** Resolves once the driver answers /status; fails with its log after 20 s. */
async function waitForDriver(base: string, log: () => string): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    try {
      const res = await fetch(`${base}/status`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() - t0 > 20_000) throw new Error(`WebKitWebDriver did not answer within 20 s: ${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each method panel's completed iterations, by its `data-method` (through shadow roots). */
export const iterationsIn = (s: WebKitSession) => s.evaluate<Record<string, number>>(ITERATIONS);

/** The backend the badge reports, and its text (the reason for a fallback is in it). */
export const badgeIn = (s: WebKitSession) => s.evaluate<{ backend: string | null; text: string }>(BADGE);

/** The text of every `role="alert"` element (through shadow roots). */
export const alertsIn = (s: WebKitSession) => s.evaluate<string[]>(ALERTS);

/** Whether an element matching `selector` exists anywhere (through shadow roots). */
export const hasIn = (s: WebKitSession, selector: string) => s.evaluate<boolean>(has(selector));
