/** Where the pre-registration sits in the history, against the runs' commits (cli/preregistration-ref.ts). */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { preregistrationRef } from '../../cli/preregistration-ref.ts';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function repo() {
  dir = mkdtempSync(join(tmpdir(), 'prereg-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q');
  git('config', 'user.email', 't@t');
  git('config', 'user.name', 't');
  const commit = (file: string, text: string, message: string) => {
    mkdirSync(join(dir, 'docs/results'), { recursive: true });
    writeFileSync(join(dir, file), text);
    git('add', '-A');
    git('commit', '-qm', message);
    return git('rev-parse', 'HEAD');
  };
  return { commit };
}

describe('preregistration ref', () => {
  it('names the adding commit and each amendment, and counts the runs trained after each', () => {
    const { commit } = repo();
    const before = commit('code.ts', '1', 'code before');
    const prereg = commit('docs/results/preregistration.md', 'plan', 'pre-registration');
    const runA = commit('code.ts', '2', 'study code');
    const amendment = commit('docs/results/preregistration.md', 'plan + amendment', 'Amendment 1');
    const runB = commit('code.ts', '3', 'more');
    const ref = preregistrationRef(dir, [runA, runA, amendment, runB]);
    expect(ref).toMatchObject({ path: 'docs/results/preregistration.md', commit: prereg, runsAfter: true });
    // Runs at the amendment's own commit came after it (it was committed, then they ran).
    expect(ref?.amendments).toEqual([{ commit: amendment, title: 'Amendment 1', runsAfterIt: 2 }]);
    // One run before the pre-registration makes the study's runs not all after it.
    expect(preregistrationRef(dir, [runA, before])?.runsAfter).toBe(false);
    expect(preregistrationRef(dir, [])?.runsAfter).toBe(false);
    expect(preregistrationRef(dir, [runA], 'docs/results/none.md')).toBeNull();
  });

  it('counts the runs after a second amendment apart from the first (the detector study, committed before its runs)', () => {
    const { commit } = repo();
    commit('docs/results/preregistration.md', 'plan', 'pre-registration');
    const v3Run = commit('code.ts', '1', 'study code');
    const first = commit('docs/results/preregistration.md', 'plan + 1', 'Amendment 1');
    const shopRun = commit('code.ts', '2', 'shop runs');
    const second = commit('docs/results/preregistration.md', 'plan + 1 + 2', 'Amendment 2 (2026-12-02): the detector study');
    const detectorRun = commit('code.ts', '3', 'detector runs');
    const ref = preregistrationRef(dir, [v3Run, shopRun, shopRun, detectorRun, detectorRun, detectorRun]);
    expect(ref?.amendments).toEqual([
      { commit: first, title: 'Amendment 1', runsAfterIt: 5 },
      { commit: second, title: 'Amendment 2 (2026-12-02): the detector study', runsAfterIt: 3 },
    ]);
    expect(ref?.runsAfter).toBe(true);
  });
});
