/**
 * The study's run store: one JSON file per finished run under <outDir>/runs/, written atomically
 * (temporary file, then rename), so an interrupted study loses at most the runs in flight and a rerun
 * skips every stored run whose config still matches (src/study/matrix.ts `planRuns`).
 *
 * A committed study.json is a store too: its runs count as finished where runs/ lacks them (e.g. in a
 * fresh clone, where runs/ was not committed), with the config its budget gives them.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runConfig, type StoredRun } from '../src/study/matrix.ts';
import type { StudyDocument } from '../src/study/report.ts';
import type { RunResult } from '../src/study/summary.ts';

export const runsDir = (outDir: string) => join(outDir, 'runs');

export function saveStoredRun(outDir: string, run: StoredRun<RunResult>): void {
  const dir = runsDir(outDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${run.key}.json`);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(run, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))}\n`);
  renameSync(tmp, file);
}

/** Every readable stored run by key; unreadable files are reported through `warn` and ignored. */
export function loadStoredRuns(outDir: string, warn: (message: string) => void = () => {}): Map<string, StoredRun<RunResult>> {
  const dir = runsDir(outDir);
  const runs = new Map<string, StoredRun<RunResult>>();
  if (!existsSync(dir)) return runs;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const run = JSON.parse(readFileSync(join(dir, name), 'utf8')) as StoredRun<RunResult>;
      if (typeof run.key !== 'string' || !run.config || !run.result) throw new Error('missing key, config or result');
      runs.set(run.key, run);
    } catch (e) {
      warn(`ignoring ${join(dir, name)}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return runs;
}

/** --fresh: forget every stored run of this output folder. */
export function clearStoredRuns(outDir: string): void {
  rmSync(runsDir(outDir), { recursive: true, force: true });
}

/** The runs of <outDir>/study.json as stored runs; an absent or unreadable file gives none. */
export function loadRunsFromStudy(outDir: string, warn: (message: string) => void = () => {}): Map<string, StoredRun<RunResult>> {
  const file = join(outDir, 'study.json');
  const runs = new Map<string, StoredRun<RunResult>>();
  if (!existsSync(file)) return runs;
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as StudyDocument;
    const commit = doc.runCommits?.length === 1 ? doc.runCommits[0] : `${doc.commit}${doc.dirty ? '+dirty' : ''}`;
    for (const result of doc.runs) runs.set(result.key, { key: result.key, config: runConfig(result, doc.budget), result, commit });
  } catch (e) {
    warn(`ignoring ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return runs;
}
