/**
 * Where study v3's pre-registration lives in the history: the commit that added it, the commits that
 * amended it (dated sections, docs/results/preregistration.md), and whether every run was trained after
 * it (a run's commit is it or descends from it; a run before the pre-registration is not admissible).
 */
import { execFileSync } from 'node:child_process';
import type { PreregistrationRef } from '../src/study/confirmatory-types.ts';

export const PREREGISTRATION_PATH = 'docs/results/preregistration.md';

/** Null outside a git repository or when the file was never committed. */
export function preregistrationRef(cwd: string, runCommits: readonly string[], path = PREREGISTRATION_PATH): PreregistrationRef | null {
  // runCommits: one entry per run (repeats allowed), so that an amendment can say how many runs came after it.
  const git = (args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  let history: { commit: string; title: string }[];
  try {
    // Oldest first: the first commit is the pre-registration, the later ones its amendments.
    history = git(['log', '--reverse', '--format=%H %s', '--', path])
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => ({ commit: l.slice(0, 40), title: l.slice(41) }));
  } catch {
    return null;
  }
  if (history.length === 0) return null;
  const [first, ...amendments] = history;
  // A run at the commit that added a section came after it (committed, then run), as does any later one.
  const descends = (ancestor: string, commit: string) => {
    if (ancestor === commit) return true;
    try {
      execFileSync('git', ['merge-base', '--is-ancestor', ancestor, commit], { cwd, stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  const distinct = [...new Set(runCommits)];
  const after = (ancestor: string) => {
    const ok = new Set(distinct.filter((c) => descends(ancestor, c)));
    return runCommits.filter((c) => ok.has(c)).length;
  };
  return {
    path,
    commit: first.commit,
    amendments: amendments.map((a) => ({ ...a, runsAfterIt: after(a.commit) })),
    runsAfter: runCommits.length > 0 && after(first.commit) === runCommits.length,
  };
}
