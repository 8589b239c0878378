/**
 * The study command's guards: the clean-tree rule (a study is written only from a committed tree, its
 * output folder aside) and the study command's flags.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanCommit, DirtyTreeError, treeState } from '../../cli/git-tree.ts';
import { parseStudyFlags } from '../../cli/study-flags.ts';
import { UsageError } from '../../cli/flags.ts';
import { FULL_PROFILE, QUICK_PROFILE, SHOP_PILOT_PROFILE } from '../../src/study/profile.ts';

describe('clean-tree rule', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gives the 40-hex commit of a clean tree and refuses a dirty one, naming the files', () => {
    dir = mkdtempSync(join(tmpdir(), 'study-git-'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    writeFileSync(join(dir, 'a.txt'), 'a');
    git('add', 'a.txt');
    git('commit', '-qm', 'a');
    const commit = cleanCommit(treeState(dir, 'out'), 'run the study', 'out');
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    // The output folder may change (the study writes there).
    execFileSync('mkdir', ['-p', join(dir, 'out')]);
    writeFileSync(join(dir, 'out', 'study.json'), '{}');
    expect(cleanCommit(treeState(dir, 'out'), 'run the study', 'out')).toBe(commit);
    writeFileSync(join(dir, 'a.txt'), 'changed');
    writeFileSync(join(dir, 'new.ts'), 'x');
    expect(() => cleanCommit(treeState(dir, 'out'), 'write study.json', 'out')).toThrow(DirtyTreeError);
    expect(() => cleanCommit(treeState(dir, 'out'), 'write study.json', 'out')).toThrow(
      /refusing to write study\.json: the working tree has uncommitted changes outside out\/:[\s\S]*a\.txt[\s\S]*new\.ts[\s\S]*commit or stash/,
    );
    expect(() => cleanCommit(treeState(tmpdir()), 'run the study')).toThrow(/no git commit/);
  });
});

// ---------- CLI flags ----------

describe('study flags', () => {
  const usage = (argv: string[]) => {
    try {
      parseStudyFlags(argv);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as Error).message;
    }
    throw new Error(`no usage error for ${argv.join(' ')}`);
  };

  it('names the flag and its allowed values', () => {
    expect(usage(['--seeds', '2'])).toMatch(/^--seeds must be an integer in \[3, 20\]/);
    expect(usage(['--seeds', 'x'])).toContain('--seeds');
    expect(usage(['--workers', '0'])).toMatch(/^--workers must be an integer in \[1, 64\]/);
    expect(usage(['--sedes', '3'])).toMatch(/^unknown flag --sedes/);
    expect(usage(['--quick=1'])).toContain('--quick takes no value');
    expect(usage(['seeds'])).toContain('unexpected argument');
    expect(usage(['--fresh', '--report-only'])).toContain('--report-only');
    expect(usage(['--shard', '5/4'])).toMatch(/^--shard must be I\/N/);
    expect(usage(['--shard', '1/2', '--report-only'])).toContain('--shard and --report-only');
    expect(usage(['merge', '--shard', '1/2'])).toContain('merge takes only');
  });

  it('accepts the defaults, --quick with fewer seeds, shards, merge and --help', () => {
    expect(parseStudyFlags([])).toMatchObject({ merge: false, profile: FULL_PROFILE, seeds: 15, fresh: false, reportOnly: false, shard: null });
    expect(parseStudyFlags(['--shop-pilot'])).toMatchObject({ profile: SHOP_PILOT_PROFILE, seeds: 5 });
    expect(() => parseStudyFlags(['--shop-pilot', '--quick'])).toThrow(/--quick and --shop-pilot cannot go together/);
    expect(parseStudyFlags(['--quick', '--seeds=1', '--workers', '3'])).toMatchObject({ profile: QUICK_PROFILE, seeds: 1, workers: 3 });
    expect(parseStudyFlags(['--shard', '2/8', '--workers', '1'])).toMatchObject({ shard: { index: 2, count: 8 } });
    expect(parseStudyFlags(['merge', '--quick'])).toMatchObject({ merge: true, profile: QUICK_PROFILE });
    expect(parseStudyFlags(['--help'])).toBeNull();
  });

  it('the command exits with 2 and names the flag', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/study.ts', '--seeds', '1'], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--seeds must be an integer in [3, 20]');
    expect(r.stderr).toContain('usage: npm run study');
  }, 60_000);
});
