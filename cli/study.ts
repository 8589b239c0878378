/**
 * `npm run study [-- --seeds N --workers N --quick --fresh --report-only]`: the study that tests the
 * paper's claims in our environments, headless on wasm, in parallel worker threads, resumable.
 *
 * Each finished run is stored under <outDir>/runs/ and skipped on a rerun (unless its config changed,
 * or --fresh). When every run is done it writes <outDir>/study.json, the SVG charts and README.md.
 * --quick runs the small smoke profile into docs/results/quick/, never touching the real results.
 * --report-only rewrites the outputs from the stored runs without training (e.g. after editing
 * analysis.md). Bad flags exit with 2; a run that fails unexpectedly makes the study exit with 1 after
 * the others finish (the failed run is not stored, so a rerun retries it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { studyFigures } from '../src/study/charts.ts';
import { DEFAULT_CLAIM_OPTIONS, evaluateClaims } from '../src/study/claims.ts';
import { EtaModel, formatDuration } from '../src/study/eta.ts';
import { buildMatrix, planRuns, runConfig, runKey, type RunSpec } from '../src/study/matrix.ts';
import { DEFINITIONS, renderReadme, sharedHyperparameters, studyJson, type StudyDocument } from '../src/study/report.ts';
import type { RunResult } from '../src/study/summary.ts';
import { renderFigure } from '../src/study/svg.ts';
import { runCommand } from './flags.ts';
import { parseStudyFlags, STUDY_USAGE as USAGE, type StudyOptions } from './study-flags.ts';
import { clearStoredRuns, loadRunsFromStudy, loadStoredRuns, saveStoredRun } from './study-store.ts';
import type { FromWorker, ToWorker } from './study-worker.ts';

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * A study worker thread. tsx hooks the main thread only, so the worker registers it again (both hooks,
 * as the tsx command does: tfjs-core's dist files are ESM syntax in a CommonJS package) before loading
 * cli/study-worker.ts.
 */
function startWorker(): Worker {
  const workerUrl = new URL('./study-worker.ts', import.meta.url);
  const boot = `import { register as esm } from ${JSON.stringify(import.meta.resolve('tsx/esm/api'))};
    import { register as cjs } from ${JSON.stringify(import.meta.resolve('tsx/cjs/api'))};
    esm(); cjs(); await import(${JSON.stringify(workerUrl.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`));
}

/** Trains `todo` on `workers` threads; calls `finished` for each result as it arrives. */
async function runAll(todo: RunSpec[], options: StudyOptions, eta: EtaModel, finished: (spec: RunSpec, result: RunResult) => void): Promise<string[]> {
  const queue = [...todo];
  const total = todo.length;
  const running = new Map<string, { spec: RunSpec; iteration: number }>();
  const failures: string[] = [];
  let done = 0;
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const status = () => `elapsed ${formatDuration(elapsed())} · about ${formatDuration(eta.secondsLeft(queue, [...running.values()], Math.min(options.workers, queue.length + running.size) || 1))} left`;
  const heartbeat = setInterval(() => {
    const now = [...running.values()].map((r) => `${runKey(r.spec)} ${r.iteration}/${options.profile.budget.iters}`).join(', ');
    log(`  … ${done}/${total} runs done; running ${now}; ${status()}`);
  }, 60_000);
  const workerCount = Math.min(options.workers, total);

  await Promise.all(Array.from({ length: workerCount }, () => new Promise<void>((resolve, reject) => {
    const worker = startWorker();
    let current: RunSpec | null = null;
    const next = () => {
      current = queue.shift() ?? null;
      if (!current) {
        void worker.terminate().then(() => resolve());
        return;
      }
      running.set(runKey(current), { spec: current, iteration: 0 });
      worker.postMessage({ type: 'run', spec: current, config: runConfig(current, options.profile.budget) } satisfies ToWorker);
    };
    worker.on('message', (m: FromWorker) => {
      if (m.type === 'ready') return next();
      const r = running.get(m.key);
      if (m.type === 'progress') {
        if (r) r.iteration = m.iteration;
        return;
      }
      running.delete(m.key);
      done++;
      if (m.type === 'done' && current) {
        eta.observe({ spec: current, iterations: m.result.iterations, seconds: m.result.seconds });
        finished(current, m.result);
        log(`[${String(done).padStart(String(total).length)}/${total}] ${m.key}: final success ${(100 * m.result.finalSuccess).toFixed(0)}% in ${formatDuration(m.result.seconds)}${m.result.stopped ? ` (stopped: ${m.result.stopped})` : ''} · ${status()}`);
      } else if (m.type === 'failed') {
        failures.push(`${m.key}: ${m.error}`);
        log(`[${done}/${total}] ${m.key} FAILED: ${m.error.split('\n')[0]}`);
      }
      next();
    });
    worker.on('error', reject);
  })));
  clearInterval(heartbeat);
  return failures;
}

function writeOutputs(options: StudyOptions, specs: RunSpec[], results: Map<string, RunResult>, meta: { startedAt: Date; argv: readonly string[]; commit: { commit: string; dirty: boolean }; runCommits: Map<string, string> }): StudyDocument {
  const { profile } = options;
  const runs = specs.map((s) => results.get(runKey(s))).filter((r): r is RunResult => r !== undefined);
  const claimOptions = { ...DEFAULT_CLAIM_OPTIONS, horizon: profile.ablationHorizon };
  const out = profile.outDir;
  // --report-only rewrites the report of the runs a previous invocation trained: keep its command and times.
  const trainArgs = meta.argv.filter((a) => a !== '--report-only');
  const studyFile = join(out, 'study.json');
  const previous = options.reportOnly && existsSync(studyFile) ? (JSON.parse(readFileSync(studyFile, 'utf8')) as Partial<StudyDocument>) : null;
  const doc: StudyDocument = {
    profile: profile.name,
    purpose: profile.purpose,
    command: previous?.command ?? `npm run study${trainArgs.length ? ` -- ${trainArgs.join(' ')}` : ''}`,
    commit: meta.commit.commit,
    dirty: meta.commit.dirty,
    runCommits: [...new Set(specs.map((s) => meta.runCommits.get(runKey(s))).filter((c): c is string => c !== undefined))].sort(),
    startedAt: previous?.startedAt ?? meta.startedAt.toISOString(),
    finishedAt: previous?.finishedAt ?? new Date().toISOString(),
    wallSeconds: previous?.wallSeconds ?? (Date.now() - meta.startedAt.getTime()) / 1000,
    runSeconds: runs.reduce((a, r) => a + r.seconds, 0),
    workers: previous?.workers ?? options.workers,
    seeds: options.seeds,
    budget: profile.budget,
    hyperparameters: sharedHyperparameters(profile.budget),
    definitions: DEFINITIONS,
    runs,
    claims: evaluateClaims(runs, claimOptions),
  };
  mkdirSync(out, { recursive: true });
  writeFileSync(studyFile, studyJson(doc));
  const figures = studyFigures(runs, { gainFloor: claimOptions.gainFloor, ablationHorizon: profile.ablationHorizon });
  for (const f of figures) writeFileSync(join(out, `${f.name}.svg`), renderFigure(f.figure, f.figure.panels.length > 3 ? 2 : 3));
  const analysisFile = join(out, 'analysis.md');
  const analysis = existsSync(analysisFile) ? readFileSync(analysisFile, 'utf8') : null;
  writeFileSync(join(out, 'README.md'), renderReadme({ study: doc, figures, analysis, budgetNotes: profile.notes }));
  return doc;
}

async function main(argv: string[]): Promise<number> {
  const options = parseStudyFlags(argv);
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const startedAt = new Date();
  const { profile } = options;
  if (options.fresh) clearStoredRuns(profile.outDir);
  const specs = buildMatrix(profile, options.seeds);
  const warn = (m: string) => log(`warning: ${m}`);
  // Runs in runs/ first; the committed study.json fills in what runs/ lacks.
  const stored = new Map([...(options.fresh ? [] : loadRunsFromStudy(profile.outDir, warn)), ...loadStoredRuns(profile.outDir, warn)]);
  const { todo, done } = planRuns(specs, stored, profile.budget);
  const results = new Map<string, RunResult>(done.map((s) => [s.key, s.result]));
  const commit = { commit: git(['rev-parse', 'HEAD']) || 'unknown', dirty: git(['status', '--porcelain']) !== '' };
  const commitLabel = `${commit.commit}${commit.dirty ? '+dirty' : ''}`;
  const runCommits = new Map<string, string>(done.map((s) => [s.key, s.commit ?? 'unknown']));
  log(`study (${profile.name}): ${specs.length} runs, ${done.length} stored, ${todo.length} to train · ${options.workers} workers · budget ${JSON.stringify(profile.budget)} → ${profile.outDir}/`);

  let failures: string[] = [];
  if (!options.reportOnly && todo.length > 0) {
    const eta = new EtaModel(profile.budget.iters, profile.secondsPerIteration);
    for (const s of done) eta.observe({ spec: s.result, iterations: s.result.iterations, seconds: s.result.seconds });
    log(`estimated ${formatDuration(eta.secondsLeft(todo, [], Math.min(options.workers, todo.length)))} (from ${done.length ? 'stored runs and ' : ''}measured iteration times)`);
    failures = await runAll(todo, options, eta, (spec, result) => {
      results.set(result.key, result);
      runCommits.set(result.key, commitLabel);
      saveStoredRun(profile.outDir, { key: result.key, config: runConfig(spec, profile.budget), result, commit: commitLabel });
    });
  } else if (todo.length > 0) {
    log(`--report-only: ${todo.length} runs of the matrix are not stored; the report covers the ${done.length} that are`);
  }

  const doc = writeOutputs(options, specs, results, { startedAt, argv, commit, runCommits });
  log(`wrote ${profile.outDir}/study.json, README.md and charts (${doc.runs.length} runs, ${formatDuration(doc.wallSeconds)})`);
  for (const c of doc.claims) log(`  claim ${c.id}: ${c.held === null ? 'not measured' : c.held ? 'held  ' : 'FAILED'} · ${c.ours}`);
  if (failures.length) {
    process.stderr.write(`${failures.length} runs failed (not stored; rerun to retry):\n${failures.join('\n')}\n`);
    return 1;
  }
  return 0;
}

runCommand(() => main(process.argv.slice(2)), USAGE);
