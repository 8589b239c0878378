/**
 * `npm run reliability:page [-- --iters N]`: the page soak. The built page (dist/, served from a
 * sub-path) trains GRPO and BEACON at tiny settings on wasm in headless Chromium for N iterations
 * (default 200), one Web Worker per method, views drawing every iteration; every tenth iteration it
 * samples, after a forced garbage collection, the JS heap of the page and of each training worker (over
 * the DevTools protocol) and each worker's tfjs tensor count between two iterations. Writes the table
 * to docs/reliability.md (between the page-soak markers) and the chart to docs/page-soak.svg. Exits 1
 * when the tensor count moves after the first sample or a page error occurs.
 *
 * `pageSoak` is also run by `npm run reliability` (bench/reliability.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { flagsHelp, parseFlags, runCommand } from '../cli/flags.ts';
import { renderFigure } from '../src/study/svg.ts';
import { launchChromium } from '../scripts/browser.ts';
import { buildAndServe } from '../scripts/sub-path-server.ts';

const QUERY = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0&backend=wasm';
const START = '<!-- page-soak:start -->';
const END = '<!-- page-soak:end -->';

export interface PageSoakSample {
  /** The slower method's completed iterations when sampled. */
  iteration: number;
  seconds: number;
  pageHeapMB: number;
  /** Per training worker, in the page's method order. */
  workerHeapMB: number[];
  tensors: number[];
}

export interface PageSoakResult {
  iterations: number;
  seconds: number;
  methods: string[];
  samples: PageSoakSample[];
  /** Largest change of any worker's tensor count after the first sample. */
  tensorSpread: number;
  errors: string[];
}

/** DevTools-protocol calls into one target (a worker) through the browser session. */
async function targetCaller(browser: CDPSession, targetId: string) {
  const { sessionId } = (await browser.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string };
  let next = 1;
  const waiting = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  browser.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message) as { id?: number; result?: unknown; error?: unknown };
    if (m.id !== undefined) waiting.get(m.id)?.(m);
  });
  return <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, (m) => (m.error ? reject(new Error(JSON.stringify(m.error))) : resolve(m.result as T)));
      void browser.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    });
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

export async function pageSoak(iters: number, log: (s: string) => void = () => {}): Promise<PageSoakResult> {
  const server = await buildAndServe();
  let browser: Browser | null = null;
  try {
    browser = await launchChromium({ webgpu: false });
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page: Page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    const t0 = Date.now();
    await page.goto(`${server.url}?${QUERY}&iters=${iters}`);
    const iterations = () =>
      page
        .locator('method-panel')
        .evaluateAll((els) => els.map((e) => [(e as HTMLElement).dataset.method!, Number((e as HTMLElement).dataset.iteration)] as [string, number]));
    const pageSession = await context.newCDPSession(page);
    const browserSession = await browser.newBrowserCDPSession();
    let workers: { method: string; call: Awaited<ReturnType<typeof targetCaller>> }[] | null = null;
    const samples: PageSoakSample[] = [];
    for (let at = 10; at <= iters; at += 10) {
      let its: [string, number][];
      for (;;) {
        its = await iterations();
        if (its.length > 0 && Math.min(...its.map(([, n]) => n)) >= at) break;
        if (Date.now() - t0 > 30 * 60_000) throw new Error(`the page soak stalled before iteration ${at}: ${JSON.stringify(its)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      workers ??= await (async () => {
        const { targetInfos } = (await browserSession.send('Target.getTargets')) as {
          targetInfos: { targetId: string; type: string; url: string; title: string }[];
        };
        const training = targetInfos.filter((t) => t.type === 'worker' && /training-worker/.test(t.url));
        if (training.length !== its.length) throw new Error(`expected ${its.length} training workers, found ${training.length}`);
        // Worker targets are titled with their worker's name (beacon-live-training-<method>).
        return Promise.all(
          training.map(async (t) => ({ method: /training-(\w+)$/.exec(t.title)?.[1] ?? t.title, call: await targetCaller(browserSession, t.targetId) })),
        );
      })();
      await pageSession.send('HeapProfiler.collectGarbage');
      const pageHeap = (await pageSession.send('Runtime.getHeapUsage')).usedSize;
      const byMethod = new Map<string, { heap: number; tensors: number }>();
      for (const w of workers) {
        await w.call('HeapProfiler.collectGarbage');
        const heap = (await w.call<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize;
        const memory = await w.call<{ result: { value?: { numTensors: number } } }>('Runtime.evaluate', {
          expression: 'self.__beaconMemory',
          returnByValue: true,
        });
        byMethod.set(w.method, { heap, tensors: memory.result.value?.numTensors ?? Number.NaN });
      }
      const methods = its.map(([m]) => m);
      const sample = {
        iteration: at,
        seconds: Math.round((Date.now() - t0) / 100) / 10,
        pageHeapMB: mb(pageHeap),
        workerHeapMB: methods.map((m) => mb(byMethod.get(m)?.heap ?? Number.NaN)),
        tensors: methods.map((m) => byMethod.get(m)?.tensors ?? Number.NaN),
      };
      samples.push(sample);
      log(`iteration ${at}: page ${sample.pageHeapMB} MB, workers ${sample.workerHeapMB.join(' / ')} MB, tensors ${sample.tensors.join(' / ')}`);
    }
    const methods = (await iterations()).map(([m]) => m);
    const spread = Math.max(...methods.map((_, i) => Math.max(...samples.map((s) => s.tensors[i])) - Math.min(...samples.map((s) => s.tensors[i]))));
    await context.close();
    return { iterations: iters, seconds: (Date.now() - t0) / 1000, methods, samples, tensorSpread: Number.isFinite(spread) ? spread : Number.NaN, errors };
  } finally {
    await browser?.close();
    await server.close();
  }
}

const COLORS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9'];

/** The soak's chart: JS heaps and tensor counts against iterations. */
export function pageSoakSvg(r: PageSoakResult): string {
  const x = r.samples.map((s) => s.iteration);
  const heapMax = Math.max(...r.samples.flatMap((s) => [s.pageHeapMB, ...s.workerHeapMB]));
  const tensorMax = Math.max(...r.samples.flatMap((s) => s.tensors));
  return renderFigure(
    {
      title: `Page soak: ${r.iterations} iterations in headless Chromium (wasm, tiny settings)`,
      subtitle: 'sampled every 10 iterations after a forced GC; tensors counted between two iterations',
      panels: [
        {
          kind: 'line',
          title: 'JS heap',
          xLabel: 'iteration',
          yLabel: 'MB',
          yDomain: [0, Math.ceil(heapMax * 1.2)],
          series: [
            { label: 'page', color: '#000000', x, mean: r.samples.map((s) => s.pageHeapMB) },
            ...r.methods.map((m, i) => ({ label: `${m} worker`, color: COLORS[i % COLORS.length], x, mean: r.samples.map((s) => s.workerHeapMB[i]) })),
          ],
        },
        {
          kind: 'line',
          title: 'tfjs tensors per worker',
          xLabel: 'iteration',
          yLabel: 'tensors',
          yDomain: [0, Math.ceil(tensorMax * 1.5) || 1],
          series: r.methods.map((m, i) => ({ label: m, color: COLORS[i % COLORS.length], x, mean: r.samples.map((s) => s.tensors[i]) })),
        },
      ],
    },
    2,
  );
}

/** The soak's section of docs/reliability.md, between its markers. */
export function pageSoakSection(r: PageSoakResult, command: string): string {
  const first = r.samples[0];
  const last = r.samples.at(-1)!;
  const slope = (a: number, b: number) => (last.iteration > first.iteration ? (((b - a) * 1024) / (last.iteration - first.iteration)).toFixed(1) : 'n/a');
  const rows = r.samples.map((s) => `| ${s.iteration} | ${s.seconds} | ${s.pageHeapMB} | ${s.workerHeapMB.join(' / ')} | ${s.tensors.join(' / ')} |`);
  return `${START}
## Page soak

\`${command}\` (bench/page-soak.ts): the built page in headless Chromium, GRPO and BEACON at tiny settings on wasm
(one worker each, charts and episode views drawing every iteration, autosave on), ${r.iterations} iterations in
${r.seconds.toFixed(0)} s. Every 10 iterations, after a forced garbage collection: the JS heap of the page and of each
training worker (DevTools protocol), and each worker's tfjs tensor count between two iterations.
Tensor count spread after the first sample: **${r.tensorSpread}**; page errors: **${r.errors.length}**.
Heap growth from iteration ${first.iteration} to ${last.iteration}: page ${slope(first.pageHeapMB, last.pageHeapMB)} KB per iteration,
workers ${r.methods.map((m, i) => `${m} ${slope(first.workerHeapMB[i], last.workerHeapMB[i])}`).join(', ')} KB per iteration
(each keeps its run's record history, which the charts and checkpoints hold on purpose).

![page soak](page-soak.svg)

| iteration | seconds | page heap (MB) | worker heaps (MB: ${r.methods.join(' / ')}) | tfjs tensors (${r.methods.join(' / ')}) |
| --: | --: | --: | --: | --: |
${rows.join('\n')}
${END}`;
}

/** `doc` with its page-soak section replaced by `section` (or `section` appended when it has none). */
export function withPageSoakSection(doc: string, section: string): string {
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a >= 0 && b > a) return doc.slice(0, a) + section + doc.slice(b + END.length);
  return `${doc.trimEnd()}\n\n${section}\n`;
}

const FLAGS = {
  iters: { kind: { type: 'int', min: 10, max: 100000 }, doc: 'iterations of the page soak (default 200)' },
  out: { kind: 'string', doc: 'the report to update (default docs/reliability.md); the chart goes next to it as page-soak.svg' },
} as const;
const USAGE = `usage: npm run reliability:page -- [--iters N] [--out FILE]\n${flagsHelp(FLAGS)}`;

async function main(argv: string[]): Promise<number> {
  const { flags, help } = parseFlags(argv, FLAGS);
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const iters = flags.iters ?? 200;
  const out = flags.out ?? 'docs/reliability.md';
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const r = await pageSoak(iters, log);
  writeFileSync(out.replace(/[^/]*$/, 'page-soak.svg'), pageSoakSvg(r));
  writeFileSync(
    out,
    withPageSoakSection(readFileSync(out, 'utf8'), pageSoakSection(r, `npm run reliability:page${iters !== 200 ? ` -- --iters ${iters}` : ''}`)),
  );
  const ok = r.tensorSpread === 0 && r.errors.length === 0;
  log(ok ? `page soak passed; report in ${out}` : `page soak FAILED: tensor spread ${r.tensorSpread}, errors ${JSON.stringify(r.errors)}`);
  return ok ? 0 : 1;
}

if (process.argv[1] && /page-soak\.ts$/.test(process.argv[1])) runCommand(() => main(process.argv.slice(2)), USAGE);
