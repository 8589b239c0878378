/**
 * One build of the page for a whole test run. A `vite build` costs seconds to tens of seconds on two
 * busy cores, and a dozen end-to-end files each built the same page; now the first file that needs the
 * page builds it into a folder that the run's global setup made, and every later file serves that build.
 *
 * The global setup only makes (and at the end removes) the folder, so a run without end-to-end files
 * builds nothing. The build happens in a test worker, as every file's own build did before (same
 * environment, same output). A lock folder keeps two workers from building at once.
 *
 * Nothing may write into the shared build: each file gets its own server over it (with its own
 * isolation headers and reachability switches), never its own copy.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { buildPage } from '../../scripts/sub-path-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's folder for the shared build (empty until the first file needs the page). */
    builtPageFolder: string;
  }
}

/** How long a worker waits for another worker's build before it gives up. */
const BUILD_WAIT_MS = 300_000;

/** Vitest global setup: the run's folder for the build, removed when the run ends. */
export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'beacon-live-run-'));
  project.provide('builtPageFolder', folder);
  return () => rmSync(folder, { recursive: true, force: true });
}

/**
 * The folder of the page built for this run: built now if no file has built it yet. Outside a run with
 * the global setup (vitest.config.ts) there is no shared folder: the page is built into a temporary
 * folder of its own, and `owned` says the caller removes it.
 */
export async function sharedBuild(): Promise<{ site: string; owned: boolean }> {
  const folder = inject('builtPageFolder');
  if (!folder) return { site: await buildPage(), owned: true };
  const site = join(folder, 'site');
  const done = join(folder, 'built');
  const lock = join(folder, 'building');
  const t0 = Date.now();
  while (!existsSync(done)) {
    if (takeLock(lock)) {
      try {
        await buildPage(undefined, site);
        writeFileSync(done, new Date().toISOString());
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      break;
    }
    if (Date.now() - t0 > BUILD_WAIT_MS) throw new Error(`waited ${BUILD_WAIT_MS / 1000} s for another test worker to build the page into ${site}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { site, owned: false };
}

/** Creating a folder is atomic: whoever creates the lock builds. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}
