/**
 * One fresh visit of the built page for bench/first-point.ts: what happened on the way to every panel's
 * first chart point, in ms since navigation. Read from the page (each message to and from each worker,
 * each panel's first point, the User Timing marks of src/timeline-marks.ts) and from each worker (its
 * marks, and when its own scripts and wasm binaries finished loading).
 */
import type { Browser } from 'playwright-core';
import { TIMELINE_MARKS } from '../src/timeline-marks.ts';

/** Logs the first message of each type in each direction per worker, with performance.now(). */
const MESSAGES = `(() => {
  window.__timeline = [];
  const seen = new Set();
  const note = (name, dir, type, detail) => {
    const key = name + dir + type;
    if (seen.has(key)) return;
    seen.add(key);
    window.__timeline.push({ at: Math.round(performance.now()), source: name.replace('beacon-live-', ''), event: dir + ' ' + type + (detail ? ' ' + detail : '') });
  };
  const ms = (d) => d && d.type === 'record' && d.record && d.record.ms ? '(rollout ' + Math.round(d.record.ms.rollout) + ' ms, advantages ' + Math.round(d.record.ms.advantage) + ' ms)' : '';
  const W = window.Worker;
  window.Worker = class extends W {
    constructor(url, options) {
      super(url, options);
      const name = (options && options.name) || '';
      this.__name = name;
      note(name, '', 'created');
      this.addEventListener('message', (e) => note(name, '←', e.data && e.data.type, ms(e.data)));
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

/** A realm's marks and loaded resources, on the clock of its own time origin. */
const REALM = `({
  name: self.name || 'page',
  origin: performance.timeOrigin,
  marks: performance.getEntriesByType('mark').filter((m) => m.name.startsWith('beacon:')).map((m) => ({ name: m.name, at: m.startTime })),
  resources: performance.getEntriesByType('resource').filter((r) => /\\.(js|wasm)$/.test(r.name)).map((r) => ({ name: r.name.split('/').pop(), at: r.responseEnd, bytes: r.decodedBodySize })),
})`;

interface Realm {
  name: string;
  origin: number;
  marks: { name: string; at: number }[];
  resources: { name: string; at: number; bytes: number }[];
}

export interface TimelineEvent {
  at: number;
  /** The page, or a worker by name (training-grpo, probe-wasm, …). */
  source: string;
  event: string;
}

export interface Visit {
  /** Per panel, ms since navigation of its first point. */
  points: Record<string, number>;
  /** The slowest panel's first point (ms since navigation). */
  last: number;
  events: TimelineEvent[];
}

const MARK_NAMES = new Map<string, string>(Object.entries(TIMELINE_MARKS).map(([k, v]) => [v, `mark ${k}`]));

/** Opens `url` in a fresh context of `browser` and reads the way to every panel's first point. */
export async function visit(browser: Browser, url: string): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: MESSAGES });
    await page.goto(url);
    const points = (await page.evaluate(FIRST_POINTS)) as Record<string, number>;
    const events = (await page.evaluate('window.__timeline')) as TimelineEvent[];
    const realms = [(await page.evaluate(REALM)) as Realm];
    for (const w of page.workers()) realms.push((await w.evaluate(REALM).catch(() => null)) as Realm);
    const origin = realms[0].origin;
    for (const realm of realms.filter((r): r is Realm => r !== null)) {
      const shift = realm.origin - origin;
      const source = realm.name.replace('beacon-live-', '');
      // A worker's time origin is when its global scope was made: its thread started.
      if (realm !== realms[0]) events.push({ at: Math.round(shift), source, event: 'thread started' });
      for (const m of realm.marks) events.push({ at: Math.round(shift + m.at), source, event: MARK_NAMES.get(m.name) ?? m.name });
      for (const r of realm.resources)
        events.push({
          at: Math.round(shift + r.at),
          source,
          event: `loaded ${r.name.replace(/-[\w-]{8}\./, '.')}${r.bytes ? ` (${Math.round(r.bytes / 1024)} KiB)` : ''}`,
        });
    }
    events.sort((a, b) => a.at - b.at);
    const last = Math.max(...Object.values(points));
    return { points, last, events };
  } finally {
    await context.close();
  }
}
