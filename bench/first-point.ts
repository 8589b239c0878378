/**
 * `npm run bench:first-point [-- --visits 3 --query Q --compare DIR --quiet]`: how soon a visitor sees every
 * panel's first chart point, and where the time goes. Builds the page, serves it from a sub-path, and opens
 * it `visits` times in fresh contexts of headless Chromium with a (software, where there is no GPU) WebGPU
 * adapter, so the default `auto` backend looks up its verdict. Per visit it prints, in ms since navigation,
 * each message the page sent to or got from each worker (the first of each kind per worker), the marks of
 * src/timeline-marks.ts in the page and each worker, when each worker's scripts and wasm finished loading,
 * and each panel's first point (the panel's success chart holding a point); then a summary: per visit the
 * slowest panel's first point, their median, and each phase per visit. The machine's load average is
 * printed with it: seconds on a loaded machine say little.
 *
 * `--compare DIR` builds a second checkout (e.g. a worktree of main) too and alternates the visits between
 * the two, in one browser, so both builds meet the same load; the summary has a column per build.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { launchChromium } from '../scripts/browser.ts';
import { buildAndServe, type SubPathServer } from '../scripts/sub-path-server.ts';
import { visit, type TimelineEvent, type Visit } from './first-point-visit.ts';

const FLAGS = {
  visits: { kind: { type: 'int', min: 1, max: 20 }, doc: 'fresh visits to measure (per build); default 3' },
  query: { kind: 'string', placeholder: 'Q', doc: "the page's URL query, without '?'; default: the page defaults" },
  compare: { kind: 'string', placeholder: 'DIR', doc: 'another checkout to build and measure, visits alternating with this one' },
  quiet: { kind: 'switch', doc: 'print the summary only, not each visit’s timeline' },
} as const;
const USAGE = `usage: npm run bench:first-point [-- --visits N] [-- --query Q] [-- --compare DIR] [-- --quiet]\n${flagsHelp(FLAGS)}`;

/** The phases of the summary: each the latest of the training workers' (or the page's) events that match. */
const PHASES: [string, (e: TimelineEvent) => boolean][] = [
  ['page script run', (e) => e.source === 'page' && e.event === 'mark pageScript'],
  ['workers created', (e) => training(e) && e.event === ' created'],
  ['page built', (e) => e.source === 'page' && e.event === 'mark pageBuilt'],
  ['worker threads started', (e) => training(e) && e.event === 'thread started'],
  ['worker scripts run', (e) => training(e) && e.event === 'mark workerScript'],
  ['warm sent', (e) => training(e) && e.event === '→ warm'],
  ['init sent', (e) => training(e) && e.event === '→ init'],
  ['init answered', (e) => training(e) && e.event === '← state'],
  ['backends ready', (e) => training(e) && e.event === 'mark backendReady'],
  ['trainers built', (e) => training(e) && e.event === 'mark trainerBuilt'],
  ['iteration 0 evaluated', (e) => training(e) && e.event === 'mark firstRecord'],
  ['records received', (e) => training(e) && e.event.startsWith('← record')],
];

function training(e: TimelineEvent): boolean {
  return e.source.startsWith('training-');
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : Math.round((s[s.length / 2 - 1] + s[s.length / 2]) / 2);
}

/** A phase's time in one visit: the latest matching event (the slowest worker), or null if none. */
function phaseAt(v: Visit, match: (e: TimelineEvent) => boolean): number | null {
  const ats = v.events.filter(match).map((e) => e.at);
  return ats.length ? Math.max(...ats) : null;
}

interface Build {
  label: string;
  server: SubPathServer;
  visits: (Visit & { load: string })[];
}

function summary(builds: readonly Build[]): string {
  const cell = (n: number | null) => (n === null ? '–' : String(n)).padStart(6);
  const lines = ['', `summary (ms since navigation; per visit, then the median; load average ${loads(builds)}):`];
  for (const b of builds) {
    const lasts = b.visits.map((v) => v.last);
    lines.push(`  ${b.label}: every panel's first point by ${lasts.join(', ')} ms; median ${median(lasts)} ms`);
  }
  lines.push('', `  ${'phase (slowest worker)'.padEnd(26)}${builds.map((b) => `${b.label.padEnd(7 * (b.visits.length + 1))}`).join('  ')}`);
  for (const [name, match] of [...PHASES, ["every panel's point", () => false] as const]) {
    const row = builds.map((b) => {
      const ats = b.visits.map((v) => (name === "every panel's point" ? v.last : phaseAt(v, match)));
      const known = ats.filter((a): a is number => a !== null);
      return [...ats, known.length ? median(known) : null].map(cell).join(' ');
    });
    lines.push(`  ${name.padEnd(26)}${row.join('  ')}`);
  }
  return lines.join('\n');
}

function loads(builds: readonly Build[]): string {
  const all = builds.flatMap((b) => b.visits.map((v) => Number(v.load)));
  return `${Math.min(...all).toFixed(1)}–${Math.max(...all).toFixed(1)}`;
}

async function main(): Promise<number> {
  const { flags, help } = parseFlags(process.argv.slice(2), FLAGS);
  if (help) {
    console.log(USAGE);
    return 0;
  }
  const visits = flags.visits ?? 3;
  const query = flags.query ? `?${flags.query}` : '';
  const builds: Build[] = [{ label: 'this', server: await buildAndServe(), visits: [] }];
  if (flags.compare) builds.push({ label: 'compare', server: await buildAndServe({ root: resolve(flags.compare) }), visits: [] });
  const browser = await launchChromium({ webgpu: true });
  try {
    for (let n = 1; n <= visits; n++) {
      for (const b of builds) {
        const load = loadavg()[0].toFixed(1);
        const v = await visit(browser, `${b.server.url}${query}`);
        b.visits.push({ ...v, load });
        console.log(`${b.label} visit ${n} (load average ${load}): first points ${JSON.stringify(v.points)}; every panel by ${v.last} ms`);
        if (!flags.quiet)
          for (const e of v.events.filter((e) => e.at <= v.last + 50)) console.log(`  ${String(e.at).padStart(6)} ms  ${e.source.padEnd(16)} ${e.event}`);
      }
    }
    console.log(summary(builds));
  } finally {
    await browser.close();
    for (const b of builds) await b.server.close();
  }
  return 0;
}

runCommand(main, USAGE);
