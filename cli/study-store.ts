/**
 * The study's run store: one JSON file per finished run under <outDir>/runs/, written atomically
 * (temporary file, then rename), so an interrupted study loses at most the runs in flight and a rerun
 * skips every stored run whose config and budget still match (src/study/matrix.ts `planRuns`).
 *
 * A committed study.json is a store too: its runs count as finished where runs/ lacks them (e.g. in a
 * fresh clone, where runs/ was not committed), with the config and budget its profile gives them.
 *
 * Shards (`--shard i/n`) write <outDir>/shards/shard-i-of-n.json: the shard's runs and provenance, which
 * `study merge` reads back.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runConfig, stepBudget, type Shard, type StoredRun } from '../src/study/matrix.ts';
import type { StudyBudget, StudyProfile } from '../src/study/profile.ts';
import type { StudyDocument } from '../src/study/report.ts';
import type { RunResult } from '../src/study/summary.ts';

export const runsDir = (outDir: string) => join(outDir, 'runs');
export const shardsDir = (outDir: string) => join(outDir, 'shards');

const jsonText = (value: unknown, indent?: number) =>
  `${JSON.stringify(value, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), indent)}\n`;

function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

export function saveStoredRun(outDir: string, run: StoredRun<RunResult>): void {
  const dir = runsDir(outDir);
  mkdirSync(dir, { recursive: true });
  writeAtomic(join(dir, `${run.key}.json`), jsonText(run));
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
      if (typeof run.key !== 'string' || !run.config || !run.result || typeof run.envStepBudget !== 'number')
        throw new Error('missing key, config, envStepBudget or result (a study v1 file?)');
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

/** The runs of <outDir>/study.json as stored runs; an absent or unreadable file, or one of an earlier study version, gives none. */
export function loadRunsFromStudy(outDir: string, warn: (message: string) => void = () => {}): Map<string, StoredRun<RunResult>> {
  const file = join(outDir, 'study.json');
  const runs = new Map<string, StoredRun<RunResult>>();
  if (!existsSync(file)) return runs;
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as StudyDocument;
    if (doc.version !== 3) return runs; // studies v1 and v2: other budgets, seeds and matrices, nothing to reuse
    for (const result of doc.runs) {
      if (!result.commit) continue;
      runs.set(result.key, { key: result.key, config: runConfig(result, doc.budget), envStepBudget: result.envStepBudget, result, commit: result.commit });
    }
  } catch (e) {
    warn(`ignoring ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return runs;
}

/** One shard's output. */
export interface ShardFile {
  profile: StudyProfile['name'];
  seeds: number;
  shard: Shard;
  budget: StudyBudget;
  /** Keys of every run of this shard (the partition's), trained here or resumed. */
  keys: string[];
  runs: RunResult[];
  command: string;
  startedAt: string;
  finishedAt: string;
  wallSeconds: number;
  workers: number;
}

export const shardFileName = (shard: Shard) => `shard-${shard.index}-of-${shard.count}.json`;

export function saveShard(outDir: string, shard: ShardFile): string {
  const dir = shardsDir(outDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, shardFileName(shard.shard));
  writeAtomic(file, jsonText(shard, 1));
  return file;
}

export function loadShards(outDir: string): ShardFile[] {
  const dir = shardsDir(outDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => /^shard-\d+-of-\d+\.json$/.test(n))
    .sort()
    .map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as ShardFile);
}

/** The stored run of a result, with the config and budget its profile gives it. */
export function storedRunOf(result: RunResult, budget: StudyBudget): StoredRun<RunResult> {
  return { key: result.key, config: runConfig(result, budget), envStepBudget: stepBudget(result, budget), result, commit: result.commit ?? 'unknown' };
}

export class ShardMergeError extends Error {}

/**
 * The runs of complete shards of one study, keyed: every shard 1…n present once, all of the same
 * profile, seeds and budget, and their runs covering `keys` (the matrix) exactly once. Throws
 * ShardMergeError naming what is missing, duplicated or inconsistent.
 */
export function mergeShards(
  shards: readonly ShardFile[],
  expected: { profile: string; seeds: number; budget: StudyBudget; keys: readonly string[] },
): Map<string, RunResult> {
  if (shards.length === 0) throw new ShardMergeError('no shard files to merge (expected shards/shard-I-of-N.json from `npm run study -- --shard I/N`)');
  const count = shards[0].shard.count;
  const problems: string[] = [];
  for (const s of shards) {
    if (s.profile !== expected.profile || s.seeds !== expected.seeds)
      problems.push(`${shardFileName(s.shard)}: profile ${s.profile} with ${s.seeds} seeds, expected ${expected.profile} with ${expected.seeds}`);
    if (JSON.stringify(s.budget) !== JSON.stringify(expected.budget)) problems.push(`${shardFileName(s.shard)}: another budget (${JSON.stringify(s.budget)})`);
    if (s.shard.count !== count) problems.push(`${shardFileName(s.shard)}: shards of ${s.shard.count} and of ${count} mixed`);
  }
  const indices = shards.map((s) => s.shard.index);
  for (let i = 1; i <= count; i++) {
    const n = indices.filter((x) => x === i).length;
    if (n !== 1) problems.push(`shard ${i}/${count}: ${n === 0 ? 'missing' : `${n} files`}`);
  }
  const results = new Map<string, RunResult>();
  const seen = new Map<string, number>();
  for (const s of shards)
    for (const r of s.runs) {
      seen.set(r.key, (seen.get(r.key) ?? 0) + 1);
      results.set(r.key, r);
    }
  const missing = expected.keys.filter((k) => !seen.has(k));
  const duplicated = [...seen].filter(([, n]) => n > 1).map(([k]) => k);
  const extra = [...seen.keys()].filter((k) => !expected.keys.includes(k));
  if (missing.length) problems.push(`${missing.length} runs of the matrix in no shard: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`);
  if (duplicated.length) problems.push(`${duplicated.length} runs in more than one shard: ${duplicated.slice(0, 5).join(', ')}`);
  if (extra.length) problems.push(`${extra.length} runs not in the matrix: ${extra.slice(0, 5).join(', ')}`);
  if (problems.length) throw new ShardMergeError(`cannot merge the shards:\n  ${problems.join('\n  ')}`);
  return results;
}
