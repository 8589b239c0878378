/**
 * `npm run bench:first-point [-- --visits 3 --query Q]`: how soon a visitor sees every panel's first chart
 * point, and where the time goes. Builds the page, serves it from a sub-path, and opens it `visits` times
 * in fresh contexts of headless Chromium with a (software, where there is no GPU) WebGPU adapter, so the
 * default `auto` backend probes it. Per visit it prints, in ms since navigation: each message the page
 * sent to or got from each worker (its type, the first of each kind per worker), and each panel's first
 * point (the panel's success chart holding a point). The machine's load average is printed with it:
 * seconds on a loaded machine say little.
 */
import { loadavg } from 'node:os';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { launchChromium } from '../scripts/browser.ts';
import { buildAndServe } from '../scripts/sub-path-server.ts';

const FLAGS = {
  visits: { kind: { type: 'int', min: 1, max: 20 }, doc: 'fresh visits to measure; default 3' },
  query: { kind: 'string', placeholder: 'Q', doc: "the page's URL query, without '?'; default: the page defaults" },
} as const;
const USAGE = `usage: npm run bench:first-point [-- --visits N] [-- --query Q]\n${flagsHelp(FLAGS)}`;

/** Logs the first message of each type in each direction per worker, with performance.now(). */
const TIMELINE = `(() => {
  window.__timeline = [];
  const seen = new Set();
  const note = (name, dir, type) => {
    const key = name + dir + type;
    if (seen.has(key)) return;
    seen.add(key);
    window.__timeline.push({ at: Math.round(performance.now()), worker: name.replace('beacon-live-', ''), event: dir + ' ' + type });
  };
  const W = window.Worker;
  window.Worker = class extends W {
    constructor(url, options) {
      super(url, options);
      const name = (options && options.name) || '';
      note(name, '', 'created');
      this.addEventListener('message', (e) => note(name, '←', e.data && e.data.type));
    }
    postMessage(m, t) {
      note(this.__name || '', '→', m && m.type);
      return super.postMessage(m, t);
    }
  };
})();`;

/** Per panel, ms since navigation at which its success chart first held a point. */
const FIRST_POINTS = `new Promise((resolve) => {
  const seen = {};
  const panels = () => {
    const out = [];
    const walk = (root) => { for (const el of root.querySelectorAll('*')) { if (el.tagName === 'METHOD-PANEL') out.push(el); if (el.shadowRoot) walk(el.shadowRoot); } };
    walk(document);
    return out;
  };
  const tick = () => {
    const ps = panels();
    for (const p of ps) {
      const chart = p.shadowRoot && p.shadowRoot.querySelector('metric-chart');
      const n = (chart && chart.data && chart.data[0] && chart.data[0].length) || 0;
      if (n > 0 && !(p.dataset.method in seen)) seen[p.dataset.method] = Math.round(performance.now());
    }
    if (ps.length && ps.every((p) => p.dataset.method in seen)) resolve(seen);
    else if (performance.now() > 120000) resolve(seen);
    else setTimeout(tick, 25);
  };
  tick();
})`;

async function main(): Promise<number> {
  const { flags, help } = parseFlags(process.argv.slice(2), FLAGS);
  if (help) {
    console.log(USAGE);
    return 0;
  }
  const visits = flags.visits ?? 3;
  const query = flags.query ?? '';
  const server = await buildAndServe();
  const browser = await launchChromium({ webgpu: true });
  try {
    for (let v = 1; v <= visits; v++) {
      const load = loadavg()[0].toFixed(1);
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript({ content: TIMELINE });
      // Name each worker for the outgoing messages too.
      await page.addInitScript({
        content: `(() => { const W = window.Worker; window.Worker = class extends W { constructor(u, o) { super(u, o); this.__name = (o && o.name) || ''; } }; })();`,
      });
      await page.goto(`${server.url}${query ? `?${query}` : ''}`);
      const points = (await page.evaluate(FIRST_POINTS)) as Record<string, number>;
      const timeline = (await page.evaluate('window.__timeline')) as { at: number; worker: string; event: string }[];
      const last = Math.max(...Object.values(points));
      console.log(`visit ${v} (load average ${load}): first points ${JSON.stringify(points)}; every panel by ${last} ms`);
      for (const t of timeline.filter((t) => t.at <= last + 50)) console.log(`  ${String(t.at).padStart(6)} ms  ${t.worker.padEnd(16)} ${t.event}`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return 0;
}

runCommand(main, USAGE);
