/**
 * A vitest reporter that prints the ten slowest test files when a run of several files ends, so the
 * suite's cost stays visible: on two cores vitest runs one file at a time, and the files' times add up to
 * the run's. Registered beside the default reporter in vitest.config.ts.
 *
 * A file's time is what its worker spent on it: setting up the environment and the harness, importing the
 * file (collection) and running its tests and hooks, from vitest's diagnostic of each test module.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** What one test file cost. */
export interface FileCost {
  /** The file, relative to the project root. */
  file: string;
  /** Everything its worker spent on it, in ms. */
  totalMs: number;
  /** Its tests and hooks alone, in ms. */
  testsMs: number;
}

/** How many files the summary names. */
export const SLOWEST_SHOWN = 10;

/** A test module's cost, from vitest's diagnostic. */
export function fileCost(module: TestModule, root: string): FileCost {
  const d = module.diagnostic();
  return {
    file: relative(root, module.moduleId),
    totalMs: d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration,
    testsMs: d.duration,
  };
}

/** The `count` costliest files, costliest first (ties by name, so the order is stable). */
export function slowest(costs: readonly FileCost[], count = SLOWEST_SHOWN): FileCost[] {
  return [...costs].sort((a, b) => b.totalMs - a.totalMs || a.file.localeCompare(b.file)).slice(0, count);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The summary's lines: a heading with the run's sum, then one line per file with its share of the sum. */
export function slowestLines(costs: readonly FileCost[], count = SLOWEST_SHOWN): string[] {
  const sum = costs.reduce((s, c) => s + c.totalMs, 0);
  const top = slowest(costs, count);
  const width = Math.max(...top.map((c) => c.file.length));
  return [
    `Slowest ${top.length} of ${costs.length} test files (the files' times add up to ${seconds(sum)}):`,
    ...top.map(
      (c) =>
        `  ${c.file.padEnd(width)}  ${seconds(c.totalMs).padStart(8)}  ${`${((100 * c.totalMs) / Math.max(sum, 1)).toFixed(1)}%`.padStart(6)}  (tests and hooks ${seconds(c.testsMs)})`,
    ),
  ];
}

export default class SlowestFilesReporter implements Reporter {
  private root = process.cwd();

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    // One file's run (the loop while working on it) needs no ranking.
    if (testModules.length < 2) return;
    console.log(`\n${slowestLines(testModules.map((m) => fileCost(m, this.root))).join('\n')}\n`);
  }
}
