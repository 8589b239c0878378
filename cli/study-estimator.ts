/**
 * `npm run study -- --estimator FILE.js [--quick] [--seeds N] [--workers N] [--estimatorTimeout S]`:
 * your own estimator raced in the study's cells (every environment and horizon of the profile) on the
 * same seeds, budget and configs as the built-in methods, then set beside their stored results (the
 * profile's study.json). It writes only <outDir>/estimators/<hash of the code>.json (the code and its
 * runs), never the study's own outputs, so it needs no clean tree. An estimator failure in any run exits
 * with 2 and its message.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ESTIMATOR_TIMEOUT_S } from '../src/estimator/limits.ts';
import { EtaModel } from '../src/study/eta.ts';
import { buildMatrix, runKey, seedList, stepBudget, type RunSpec } from '../src/study/matrix.ts';
import type { StudyProfile } from '../src/study/profile.ts';
import type { RunResult } from '../src/study/summary.ts';
import { nodeEstimatorSandbox, readEstimatorSource } from './estimator-sandbox.ts';
import type { StudyOptions } from './study-flags.ts';
import { runAll } from './study-runner.ts';
import { loadRunsFromStudy } from './study-store.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The built-in methods the table sets the estimator beside. */
const COMPARED = ['grpo', 'beacon'] as const;

/** The custom method's runs: the profile's cells (its environments and horizons) and seeds. */
export function estimatorSpecs(profile: Pick<StudyProfile, 'envs' | 'horizons' | 'ablationHorizon' | 'firstSeed'>, seeds: number): RunSpec[] {
  return buildMatrix({ ...profile, variants: ['custom'], ablations: [], detector: [] }, seedList(profile, seeds));
}

const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** "87% · 60% at 12" for a cell's runs (mean final success, median iterations to 60% of those that got there). */
function describeCell(runs: RunResult[]): string {
  if (runs.length === 0) return 'not stored';
  const reached = runs.map((r) => r.itersTo60).filter((x): x is number => x !== null);
  return `${(100 * mean(runs.map((r) => r.finalSuccess))).toFixed(0)}% · 60% at ${reached.length ? median(reached) : '—'} (${reached.length}/${runs.length})`;
}

export async function raceEstimator(options: StudyOptions, estimator: { path: string; timeoutS?: number }): Promise<number> {
  const source = readEstimatorSource(estimator.path);
  const timeoutS = estimator.timeoutS ?? DEFAULT_ESTIMATOR_TIMEOUT_S;
  // A module that does not load, or has no default export, stops here, before any worker starts.
  const check = nodeEstimatorSandbox(source, timeoutS);
  try {
    await check.load();
  } finally {
    check.dispose();
  }
  const { profile, seeds } = options;
  const specs = estimatorSpecs(profile, seeds);
  const eta = new EtaModel((s) => stepBudget(s, profile.budget), profile.secondsPerKiloStep);
  log(
    `your estimator (${estimator.path}) in the ${profile.name} study's cells: ${specs.length} runs (${profile.envs.join(', ')} × ${profile.horizons.join(', ')} × seeds 1–${seeds}) · ${options.workers} workers`,
  );
  const results = new Map<string, RunResult>();
  const failures = await runAll(specs, { profile, workers: options.workers, estimator: { source, timeoutS } }, eta, (_spec, result) =>
    results.set(result.key, result),
  );

  const stored = loadRunsFromStudy(profile.outDir);
  const cellRuns = (variant: string, env: string, horizon: string) =>
    Array.from({ length: seeds }, (_, i) =>
      variant === 'custom'
        ? results.get(runKey({ env, horizon, variant, seed: i + 1 } as RunSpec))
        : stored.get(runKey({ env, horizon, variant, seed: i + 1 } as RunSpec))?.result,
    ).filter((r): r is RunResult => r !== undefined);
  log('');
  log(`| env | horizon | yours | ${COMPARED.join(' | ')} |`);
  log(`| --- | --- | --- | ${COMPARED.map(() => '---').join(' | ')} |`);
  for (const env of profile.envs) {
    for (const horizon of profile.horizons)
      log(
        `| ${env} | ${horizon} | ${describeCell(cellRuns('custom', env, horizon))} | ${COMPARED.map((m) => describeCell(cellRuns(m, env, horizon))).join(' | ')} |`,
      );
  }
  log(
    `(final success, mean over seeds · median iterations to 60% success, runs that got there; built-in methods from ${profile.outDir}/study.json, the same seeds and budget)`,
  );

  const hash = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const dir = join(profile.outDir, 'estimators');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${hash}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ estimator: estimator.path, source, profile: profile.name, seeds, budget: profile.budget, runs: specs.map((s) => results.get(runKey(s)) ?? null) }, null, 1)}\n`,
  );
  log(`wrote ${file}`);
  if (failures.length) {
    process.stderr.write(`${failures.length} runs of your estimator failed:\n${failures.join('\n')}\n`);
    return 2;
  }
  return 0;
}
