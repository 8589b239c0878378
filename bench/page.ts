/**
 * `npm run bench:page [-- --seconds 40 --backends wasm,webgpu --json --isolated --name value …]`: the live
 * page as a visitor gets it. Builds `dist/`, serves it from a sub-path, opens it in headless Chromium and
 * reports, per backend:
 * - per-method iterations per second, from each method's first iteration to its last within the window
 *   (the first iteration carries backend start-up and JIT warm-up, so it is the start line, not a lap);
 * - the same over a fixed span of iterations, 1 → `--span` (default 100): an iteration's cost changes as
 *   the policy learns (successful episodes are shorter), so builds and methods that get further in the
 *   window are compared fairly only over the same iterations;
 * - time to the first chart point (navigation start → the first method panel showing iteration 1);
 * - frame rate of the page's main thread while training (requestAnimationFrame callbacks per second).
 *
 * Training settings are the page's defaults unless given as flags (`--horizon tiny`); they travel in the
 * URL, so the page trains exactly what a visitor with that link would. `--isolated` serves the page with
 * the COOP/COEP headers, so wasm may use threads: run with and without to measure their gain. Each wasm
 * result states the threads each method's worker computes on (the page's own rule: wasm-threads.ts, with
 * the cores split between the workers), so the comparison names its baseline's threads.
 * webgpu is measured only where Chromium offers an adapter; a software adapter is reported as such.
 */
import type { Browser, Page } from 'playwright-core';
import { flagsHelp, parseFlags, runCommand, UsageError } from '../cli/flags.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../src/config.ts';
import { PAGE_DEFAULT_CONFIG } from '../src/page/page-defaults.ts';
import { writePageState } from '../src/page/url-state.ts';
import { DEFAULT_PAGE_SETTINGS } from '../src/page/page-settings.ts';
import { launchChromium } from '../scripts/browser.ts';
import { buildAndServe } from '../scripts/sub-path-server.ts';
import { planWasmThreads } from '../src/backend/wasm-threads.ts';

const FLAGS = {
  seconds: { kind: { type: 'int', min: 5, max: 3600 }, doc: 'measuring window per backend after the first chart point (default 40)' },
  span: {
    kind: { type: 'int', min: 2, max: 100000 },
    doc: 'also rate each method over iterations 1 → span, the same iterations for every build (default 100)',
  },
  backends: { kind: 'string', doc: 'comma-separated backends to measure: wasm, webgpu, cpu (default wasm,webgpu)', placeholder: 'list' },
  methods: { kind: 'string', doc: "the page's methods setting (default: the page default)", placeholder: 'list' },
  query: { kind: 'string', doc: 'extra page URL parameters, e.g. "seeds=2"', placeholder: 'query' },
  isolated: { kind: 'switch', doc: 'serve with COOP/COEP headers (cross-origin isolated: wasm threads)' },
  json: { kind: 'switch', doc: 'print one JSON object instead of a table' },
} as const;

/** The flags' defaults: the page's shared settings (the CLI's method fills the type; the page races its own). */
const PAGE_BASE: TrainConfig = { ...DEFAULT_CONFIG, ...PAGE_DEFAULT_CONFIG };

const USAGE = `usage: npm run bench:page [-- --flag value …]\n${flagsHelp(FLAGS, PAGE_BASE)}`;

interface BackendResult {
  backend: string;
  /** data-backend of the badge: what the page actually trained on. */
  used: string | null;
  adapter: string | null;
  crossOriginIsolated: boolean;
  /** Navigation start → first method panel at iteration ≥ 1, ms (null if none within the window). */
  firstPointMs: number | null;
  /** Per method: iterations per second after its first iteration, and iterations reached. */
  methods: Record<string, { itPerSec: number | null; iterations: number; spanItPerSec: number | null }>;
  /** requestAnimationFrame callbacks per second over the window. */
  fps: number;
  /** Number of dedicated workers the page started. */
  workers: number;
  /** wasm: the threads each method's worker computes on (1 unless cross-origin isolated); null for the other backends. */
  wasmThreads: number | null;
}

/**
 * Runs in the page before its own scripts: counts frames and notes when each panel's iteration changes.
 * Plain text, not a function: tsx would wrap a function's inner closures in a helper the page lacks.
 */
const PROBE_SCRIPT = `
window.__bench = { frames: [], changes: [] };
const last = new Map();
const frame = (t) => {
  window.__bench.frames.push(t);
  const panels = document.querySelector('beacon-live-app')?.shadowRoot?.querySelectorAll('method-panel') ?? [];
  for (const el of panels) {
    const method = el.dataset.method ?? '';
    const iteration = Number(el.dataset.iteration ?? 0);
    if (last.get(method) !== iteration) {
      last.set(method, iteration);
      window.__bench.changes.push({ t: performance.now(), method, iteration });
    }
  }
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);
`;

/** Iterations per second between two observed iterations (null unless both were seen). */
function rate(from: { t: number; iteration: number } | undefined, to: { t: number; iteration: number } | undefined): number | null {
  return from && to && to.iteration > from.iteration ? ((to.iteration - from.iteration) * 1000) / (to.t - from.t) : null;
}

async function measure(browser: Browser, url: string, backend: string, seconds: number, span: number): Promise<BackendResult> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page: Page = await context.newPage();
  let workers = 0;
  page.on('worker', () => workers++);
  try {
    await page.addInitScript({ content: PROBE_SCRIPT });
    await page.goto(url);
    const read = () => page.evaluate('window.__bench') as Promise<{ frames: number[]; changes: { t: number; method: string; iteration: number }[] }>;
    // Wait for the first point (start-up may be slow: webgpu on a software adapter compiles shaders).
    const t0 = Date.now();
    let firstAt: number | null = null;
    while (Date.now() - t0 < Math.max(seconds, 60) * 1000) {
      const b = await read();
      const first = b.changes.find((c) => c.iteration >= 1);
      if (first) {
        firstAt = first.t;
        break;
      }
      await page.waitForTimeout(200);
    }
    if (firstAt !== null) await page.waitForTimeout(seconds * 1000);
    const b = await read();
    const windowStart = firstAt ?? 0;
    const frames = b.frames.filter((t) => t >= windowStart);
    const fps = frames.length > 1 ? ((frames.length - 1) * 1000) / (frames.at(-1)! - frames[0]) : 0;
    const methods: BackendResult['methods'] = {};
    for (const m of new Set(b.changes.map((c) => c.method))) {
      const mine = b.changes.filter((c) => c.method === m && c.iteration >= 1);
      const start = mine[0];
      const end = mine.at(-1);
      methods[m] = {
        itPerSec: rate(start, end),
        // The panels are redrawn at most 10 times a second, so an iteration may be seen one late: the span
        // ends at the first iteration seen at or past it, and counts the iterations it actually covers.
        spanItPerSec: rate(
          start,
          mine.find((c) => c.iteration >= span),
        ),
        iterations: end?.iteration ?? 0,
      };
    }
    const badge = page.locator('backend-badge');
    const used = await badge.getAttribute('data-backend');
    const env = await page.evaluate(() => ({ isolated: crossOriginIsolated, userAgent: navigator.userAgent, cores: navigator.hardwareConcurrency || 1 }));
    // The page's rule (race-start.ts threadsPerWorker, then wasm-threads.ts): the cores shared by the method workers.
    const perWorker = Math.max(1, Math.floor(env.cores / Math.max(1, Object.keys(methods).length)));
    return {
      backend,
      used,
      adapter: await badge
        .locator('.detail')
        .first()
        .innerText()
        .catch(() => null),
      crossOriginIsolated: await page.evaluate(() => crossOriginIsolated),
      firstPointMs: firstAt === null ? null : Math.round(firstAt),
      methods,
      fps: Math.round(fps * 10) / 10,
      workers,
      wasmThreads: used === 'wasm' ? planWasmThreads(perWorker, env).threads : null,
    };
  } finally {
    await context.close();
  }
}

async function main(): Promise<number> {
  const { flags, config, help } = parseFlags(process.argv.slice(2), FLAGS, PAGE_BASE);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const backends = (flags.backends ?? 'wasm,webgpu').split(',');
  for (const b of backends)
    if (!['wasm', 'webgpu', 'cpu'].includes(b)) throw new UsageError(`--backends: unknown backend ${JSON.stringify(b)}; one of wasm, webgpu, cpu`);
  const seconds = flags.seconds ?? 40;
  const span = flags.span ?? 100;
  const server = await buildAndServe({ isolated: flags.isolated ?? false });
  const browser = await launchChromium({ webgpu: true });
  const results: BackendResult[] = [];
  try {
    for (const backend of backends) {
      if (backend === 'webgpu') {
        const page = await browser.newPage();
        await page.goto(server.url.replace(/\/$/, '/') + 'bench-missing');
        const hasAdapter = await page.evaluate(async () => !!(await navigator.gpu?.requestAdapter()));
        await page.close();
        if (!hasAdapter) {
          process.stderr.write('webgpu: no adapter in this Chromium; not measured\n');
          continue;
        }
      }
      const query = new URLSearchParams(writePageState({ config: { ...config, backend: backend as 'wasm' }, page: DEFAULT_PAGE_SETTINGS }));
      if (flags.methods) query.set('methods', flags.methods);
      for (const [k, v] of new URLSearchParams(flags.query ?? '')) query.set(k, v);
      const url = `${server.url}?${query}`;
      if (!flags.json) process.stderr.write(`measuring ${backend} for ${seconds} s: ${url}\n`);
      results.push(await measure(browser, url, backend, seconds, span));
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const out = {
    settings: { ...config, methods: flags.methods ?? null, query: flags.query ?? '' },
    isolated: flags.isolated ?? false,
    seconds,
    span,
    cores: (await import('node:os')).cpus().length,
    results,
  };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  for (const r of results) {
    const threads = r.wasmThreads === null ? '' : `; ${r.wasmThreads} wasm thread${r.wasmThreads === 1 ? '' : 's'} per method worker`;
    process.stdout.write(
      `${r.backend} (used ${r.used}${r.adapter ? `, ${r.adapter}` : ''}; isolated ${r.crossOriginIsolated}; ${r.workers} worker(s)${threads})\n`,
    );
    process.stdout.write(`  first chart point ${r.firstPointMs ?? '—'} ms, ${r.fps} fps while training\n`);
    for (const [m, v] of Object.entries(r.methods)) {
      process.stdout.write(
        `  ${m.padEnd(8)} ${v.itPerSec === null ? '—' : v.itPerSec.toFixed(3)} it/s (${v.iterations} iterations); over 1 → ${span}: ${v.spanItPerSec === null ? 'not reached' : `${v.spanItPerSec.toFixed(3)} it/s`}\n`,
      );
    }
  }
  return 0;
}

runCommand(main, USAGE);
