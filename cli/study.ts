/**
 * `npm run study [-- --seeds N --workers N --quick --detector none|primary|all --fresh --report-only --shard I/N]` and
 * `npm run study -- merge [--quick]`: the study that tests the paper's claims in our environments,
 * headless on wasm, in parallel worker threads, resumable, shardable.
 *
 * It refuses to start, and to write, from a working tree with uncommitted changes outside its output
 * folder: every run records the 40-hex commit it was trained at. Each finished run is stored under
 * <outDir>/runs/ and skipped on a rerun (unless its config or budget changed, or --fresh). When every run
 * is done it writes <outDir>/study.json, the SVG charts and README.md. With --shard I/N it trains only
 * shard I's runs (a cost-balanced partition of the matrix) and writes <outDir>/shards/shard-I-of-N.json;
 * `merge` checks that the shards cover the matrix exactly once and writes the same outputs.
 * --quick runs the small smoke profile into docs/results/quick/, never touching the real results.
 * --detector primary narrows the matrix to study v3 and the detector study's primary set (pre-registration
 * amendment 2); v3's runs come from the committed study.json, so only the new runs train.
 * --report-only rewrites the outputs from the stored runs without training (e.g. after editing
 * analysis.md). `--estimator FILE.js` races your own estimator in the profile's cells instead
 * (cli/study-estimator.ts). Bad flags and a dirty tree exit with 2; a run that fails unexpectedly makes the study
 * exit with 1 after the others finish (the failed run is not stored, so a rerun retries it).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { studyFigures } from '../src/study/charts.ts';
import { EtaModel, formatDuration } from '../src/study/eta.ts';
import { buildMatrix, planRuns, runConfig, runKey, seedList, shardOfStudy, stepBudget } from '../src/study/matrix.ts';
import type { StudyProfile } from '../src/study/profile.ts';
import { buildStudyDocument, studyJson, type DocumentMeta, type StudyDocument } from '../src/study/report.ts';
import { renderReadme } from '../src/study/readme.ts';
import type { RunResult } from '../src/study/summary.ts';
import { renderFigure } from '../src/study/svg.ts';
import { runCommand } from './flags.ts';
import { cleanCommit, DirtyTreeError, treeState } from './git-tree.ts';
import { parseStudyFlags, STUDY_USAGE as USAGE, type StudyOptions } from './study-flags.ts';
import {
  clearStoredRuns,
  loadRunsFromStudy,
  loadShards,
  loadStoredRuns,
  mergeShards,
  saveShard,
  saveStoredRun,
  ShardMergeError,
  shardFileName,
} from './study-store.ts';
import { runAll } from './study-runner.ts';
import { runCells } from './study-gpu-cells.ts';
import { initNodeBackend } from './node-backend.ts';
import { preregistrationRef } from './preregistration-ref.ts';
import type { PreregistrationRef } from '../src/study/confirmatory-types.ts';
import { raceEstimator } from './study-estimator.ts';
import { EstimatorError } from '../src/estimator/failure.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The relative-gain chart divides by max(GRPO, this), so a near-zero baseline does not blow the ratio up. */
const RELATIVE_GAIN_FLOOR = 0.05;

/** The command that reproduces a profile's study (the same for one invocation and a merge of shards). */
function canonicalCommand(options: StudyOptions): string {
  const args = [
    ...(options.profile.name === 'full' ? [] : [`--${options.profile.name}`]),
    ...(options.seeds !== options.profile.seeds ? ['--seeds', String(options.seeds)] : []),
    ...(options.detector !== 'all' ? ['--detector', options.detector] : []),
    ...(options.backend !== 'wasm' ? ['--backend', options.backend] : []),
  ];
  return `npm run study${args.length ? ` -- ${args.join(' ')}` : ''}`;
}

/** Writes study.json, the charts and README.md (refusing from a dirty tree). */
function writeOutputs(profile: StudyProfile, doc: StudyDocument): void {
  const out = profile.outDir;
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'study.json'), studyJson(doc));
  const figures = studyFigures(doc.runs, { gainFloor: RELATIVE_GAIN_FLOOR, ablationHorizon: profile.ablationHorizon });
  for (const f of figures) writeFileSync(join(out, `${f.name}.svg`), renderFigure(f.figure, f.figure.panels.length > 3 ? 2 : 3));
  const analysisFile = join(out, 'analysis.md');
  const analysis = existsSync(analysisFile) ? readFileSync(analysisFile, 'utf8') : null;
  writeFileSync(join(out, 'README.md'), renderReadme({ study: doc, figures, analysis, budgetNotes: profile.notes, dir: out }));
  log(`wrote ${out}/study.json, README.md and ${figures.length} charts (${doc.runs.length} runs)`);
  for (const c of doc.claims)
    log(
      `  ${c.kind === 'identity' ? 'identity' : 'claim'} ${c.id.padEnd(3)} ${(c.env ?? 'all').padEnd(9)} ${c.horizon ?? ''}: ${c.held === null ? `untestable (${c.untestable})` : c.held ? 'held' : 'NOT HELD'} · ${c.ours}`,
    );
  if (doc.preregistration && !doc.preregistration.runsAfter)
    log(`warning: not every run's commit comes after the pre-registration (${doc.preregistration.path} at ${doc.preregistration.commit.slice(0, 12)})`);
}

/** The pre-registration's place in the history, checked against the commits the runs were trained at. */
function preregistrationOf(results: Iterable<RunResult>): PreregistrationRef | null {
  const commits = [...results].map((r) => r.commit).filter((c): c is string => typeof c === 'string');
  return preregistrationRef(process.cwd(), commits);
}

/** The commit of the clean tree, or DirtyTreeError. */
function commitOrRefuse(profile: StudyProfile, what: string): string {
  return cleanCommit(treeState(process.cwd(), profile.outDir), what, profile.outDir);
}

function merge(options: StudyOptions): number {
  const { profile, seeds } = options;
  const commit = commitOrRefuse(profile, 'write the merged study');
  const specs = buildMatrix(profile, seedList(profile, seeds));
  const shards = loadShards(profile.outDir);
  const results = mergeShards(shards, { profile: profile.name, seeds, budget: profile.budget, keys: specs.map(runKey) });
  log(`merging ${shards.length} shards (${results.size} runs) from ${profile.outDir}/shards/`);
  const doc = buildStudyDocument(specs, results, {
    profile,
    seeds,
    command: canonicalCommand(options),
    commit,
    startedAt: shards.map((s) => s.startedAt).sort()[0],
    finishedAt: shards
      .map((s) => s.finishedAt)
      .sort()
      .at(-1)!,
    wallSeconds: Math.max(...shards.map((s) => s.wallSeconds)),
    workers: shards.reduce((a, s) => a + s.workers, 0),
    shards: shards.length,
    preregistration: preregistrationOf(results.values()),
  });
  writeOutputs(profile, doc);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const options = parseStudyFlags(argv);
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.merge) return merge(options);
  if (options.estimator) return raceEstimator(options, options.estimator);
  const startedAt = new Date();
  const { profile, shard } = options;
  const commit = commitOrRefuse(profile, options.reportOnly ? 'write the study' : 'run the study');
  if (options.fresh) clearStoredRuns(profile.outDir);
  const specs = buildMatrix(profile, seedList(profile, options.seeds));
  const eta = new EtaModel((s) => stepBudget(s, profile.budget), profile.secondsPerKiloStep);
  const part = options.envs ? specs.filter((s) => options.envs?.includes(s.env)) : specs;
  const warn = (m: string) => log(`warning: ${m}`);
  // Runs in runs/ first; the committed study.json fills in what runs/ lacks.
  const committed = options.fresh ? new Map<string, never>() : loadRunsFromStudy(profile.outDir, warn);
  const stored = new Map([...committed, ...loadStoredRuns(profile.outDir, warn)]);
  // Shards balance the runs the committed study.json lacks, never what runs/ holds: one shard's runs
  // land in runs/, and a later shard in the same folder must still compute the same partition
  // (`shardOfStudy`); `merge` checks that the shards cover the matrix.
  const committedKeys = new Set(planRuns(part, committed, profile.budget).done.map((r) => r.key));
  const mine = shard ? shardOfStudy(part, shard, committedKeys, (s) => eta.runSeconds(s)) : part;
  const { todo, done } = planRuns(mine, stored, profile.budget, options.backend);
  const results = new Map<string, RunResult>(done.map((s) => [s.key, { ...s.result, commit: s.commit }]));
  log(
    `study (${profile.name}${shard ? `, shard ${shard.index}/${shard.count}` : ''}): ${mine.length} runs${shard ? ` of ${specs.length}` : ''}, ${done.length} stored, ${todo.length} to train · ${options.workers} workers · commit ${commit.slice(0, 12)} · budget ${JSON.stringify(profile.budget)} → ${profile.outDir}/`,
  );

  let failures: string[] = [];
  if (!options.reportOnly && todo.length > 0) {
    for (const s of done) eta.observe({ spec: s.result, envSteps: s.result.envSteps, seconds: s.result.seconds });
    log(
      `estimated ${formatDuration(eta.secondsLeft(todo, [], Math.min(options.workers, todo.length)))} (env-step budgets × ${done.length ? 'stored runs’ and ' : ''}pilot-measured seconds per step, over ${Math.min(options.workers, todo.length)} workers)`,
    );
    const store = (spec: (typeof todo)[number], result: RunResult) => {
      const withCommit = { ...result, commit };
      results.set(result.key, withCommit);
      saveStoredRun(profile.outDir, {
        key: result.key,
        config: runConfig(spec, profile.budget, options.backend),
        envStepBudget: result.envStepBudget,
        result: withCommit,
        commit,
      });
    };
    if (options.backend === 'webgpu') {
      const backend = await initNodeBackend('webgpu');
      log(`GPU study on ${backend.describe}: each cell's seeds train as one batch, cell after cell`);
      try {
        failures = await runCells(todo, profile.budget, backend, eta, store);
      } finally {
        backend.close();
      }
    } else {
      failures = await runAll(todo, { profile: options.profile, workers: options.workers }, eta, store);
    }
  } else if (todo.length > 0) {
    log(`--report-only: ${todo.length} runs of the matrix are not stored; the report covers the ${done.length} that are`);
  }

  const finishedAt = new Date();
  const wallSeconds = (finishedAt.getTime() - startedAt.getTime()) / 1000;
  if (options.envs) {
    log(`trained the runs of ${options.envs.join(', ')} (stored in ${profile.outDir}/runs/); run without --envs to write study.json`);
  } else if (shard) {
    const runs = mine.map((s) => results.get(runKey(s))).filter((r): r is RunResult => r !== undefined);
    const file = saveShard(profile.outDir, {
      profile: profile.name,
      seeds: options.seeds,
      shard,
      budget: profile.budget,
      keys: mine.map(runKey),
      runs,
      command: `npm run study -- ${argv.join(' ')}`,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      wallSeconds,
      workers: options.workers,
    });
    log(
      `wrote ${file} (${runs.length}/${mine.length} runs); when every ${shardFileName({ index: 1, count: shard.count }).replace('1-of', 'I-of')} is in ${profile.outDir}/shards/, run: npm run study -- merge${profile.name === 'quick' ? ' --quick' : ''}${options.detector !== 'all' ? ` --detector ${options.detector}` : ''}`,
    );
  } else {
    const meta: DocumentMeta = {
      profile,
      seeds: options.seeds,
      command: canonicalCommand(options),
      commit: commitOrRefuse(profile, 'write study.json'),
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      wallSeconds,
      workers: options.workers,
      shards: 1,
      preregistration: preregistrationOf(results.values()),
      backend: options.backend,
    };
    const previous = options.reportOnly ? readPrevious(profile) : null;
    writeOutputs(
      profile,
      buildStudyDocument(
        specs,
        results,
        previous
          ? {
              ...meta,
              startedAt: previous.startedAt,
              finishedAt: previous.finishedAt,
              wallSeconds: previous.wallSeconds,
              workers: previous.workers,
              shards: previous.shards,
            }
          : meta,
      ),
    );
  }
  if (failures.length) {
    process.stderr.write(`${failures.length} runs failed (not stored; rerun to retry):\n${failures.join('\n')}\n`);
    return 1;
  }
  return 0;
}

/** --report-only keeps the times of the invocation that trained the runs. */
function readPrevious(profile: StudyProfile): StudyDocument | null {
  const file = join(profile.outDir, 'study.json');
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as StudyDocument;
    return doc.version === 3 ? doc : null;
  } catch {
    return null;
  }
}

runCommand(() => main(process.argv.slice(2)), USAGE, [DirtyTreeError, ShardMergeError, EstimatorError]);
