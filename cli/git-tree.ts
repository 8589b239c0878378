/**
 * The commit a study's runs are trained at, and the refusal to train or write from a dirty tree:
 * study.json names the 40-hex commit of every run, which only means something if the tree that ran was
 * that commit exactly. Changes inside the study's own output folder (the results it writes, the
 * hand-written analysis.md) do not count; everything else does, untracked files included.
 */
import { execFileSync } from 'node:child_process';

export class DirtyTreeError extends Error {}

export interface TreeState {
  /** `git rev-parse HEAD`, or null outside a git repository. */
  commit: string | null;
  /** Paths with uncommitted changes outside the excluded folder (porcelain lines). */
  changes: string[];
}

/** The working tree at `cwd`, ignoring changes under `exclude` (a folder relative to the repository root). */
export function treeState(cwd: string, exclude?: string): TreeState {
  const git = (args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const commit = git(['rev-parse', 'HEAD']).trim();
    const status = git(['status', '--porcelain', '--untracked-files=all', '--', '.', ...(exclude ? [`:(exclude)${exclude}`] : [])]);
    return { commit, changes: status.split('\n').filter((l) => l.trim() !== '') };
  } catch {
    return { commit: null, changes: [] };
  }
}

/** The commit of a clean tree; throws DirtyTreeError, saying what to do, otherwise. */
export function cleanCommit(state: TreeState, what: string, exclude?: string): string {
  if (!state.commit || !/^[0-9a-f]{40}$/.test(state.commit)) {
    throw new DirtyTreeError(`refusing to ${what}: no git commit found (study.json records the 40-hex commit of every run; run it inside the repository)`);
  }
  if (state.changes.length > 0) {
    const shown = state.changes
      .slice(0, 10)
      .map((l) => `  ${l}`)
      .join('\n');
    const more = state.changes.length > 10 ? `\n  … and ${state.changes.length - 10} more` : '';
    throw new DirtyTreeError(
      `refusing to ${what}: the working tree has uncommitted changes${exclude ? ` outside ${exclude}/` : ''}:\n${shown}${more}\nstudy.json records the commit every run was trained at, so commit or stash these first.`,
    );
  }
  return state.commit;
}
