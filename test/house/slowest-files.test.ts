/**
 * The slowest-files summary that `npm test` prints at its end (test/support/slowest-files-reporter.ts):
 * what a file's time counts, the ranking, and the lines.
 */
import type { TestModule } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import SlowestFilesReporter, { fileCost, type FileCost, slowest, slowestLines } from '../support/slowest-files-reporter.ts';

/** A test module as the reporter sees it: its path and vitest's diagnostic (ms). */
const fakeModule = (moduleId: string, parts: { env?: number; prepare?: number; setup?: number; collect?: number; tests: number }) =>
  ({
    moduleId,
    diagnostic: () => ({
      environmentSetupDuration: parts.env ?? 0,
      prepareDuration: parts.prepare ?? 0,
      setupDuration: parts.setup ?? 0,
      collectDuration: parts.collect ?? 0,
      duration: parts.tests,
      heap: undefined,
      importDurations: {},
    }),
  }) as unknown as TestModule;

describe('the slowest test files', () => {
  it("counts a file's setup, import and tests, relative to the root", () => {
    const cost = fileCost(fakeModule('/repo/test/e2e/page.test.ts', { env: 1, prepare: 20, setup: 300, collect: 4_000, tests: 50_000 }), '/repo');
    expect(cost).toEqual({ file: 'test/e2e/page.test.ts', totalMs: 54_321, testsMs: 50_000 });
  });

  it('ranks the costliest first, ten at most, ties by name', () => {
    const costs: FileCost[] = Array.from({ length: 14 }, (_, i) => ({ file: `f${String(i).padStart(2, '0')}`, totalMs: (i % 7) * 1000, testsMs: 0 }));
    const top = slowest(costs);
    expect(top).toHaveLength(10);
    expect(top.map((c) => c.file)).toEqual(['f06', 'f13', 'f05', 'f12', 'f04', 'f11', 'f03', 'f10', 'f02', 'f09']);
    expect(slowest(costs.slice(0, 3)).map((c) => c.file)).toEqual(['f02', 'f01', 'f00']);
  });

  it("prints the run's sum and each file's time and share", () => {
    const lines = slowestLines(
      [
        { file: 'test/a.test.ts', totalMs: 30_000, testsMs: 29_000 },
        { file: 'test/e2e/b.test.ts', totalMs: 90_000, testsMs: 80_500 },
        { file: 'test/c.test.ts', totalMs: 0, testsMs: 0 },
      ],
      2,
    );
    expect(lines).toEqual([
      "Slowest 2 of 3 test files (the files' times add up to 120.0 s):",
      '  test/e2e/b.test.ts    90.0 s   75.0%  (tests and hooks 80.5 s)',
      '  test/a.test.ts        30.0 s   25.0%  (tests and hooks 29.0 s)',
    ]);
  });

  it('prints at the end of a run of several files, not of one', () => {
    const reporter = new SlowestFilesReporter();
    reporter.onInit({ config: { root: '/repo' } });
    const printed: string[] = [];
    const log = console.log;
    console.log = (text: string) => printed.push(text);
    try {
      reporter.onTestRunEnd([fakeModule('/repo/test/one.test.ts', { tests: 5 })]);
      expect(printed).toEqual([]);
      reporter.onTestRunEnd([fakeModule('/repo/test/one.test.ts', { tests: 5 }), fakeModule('/repo/test/two.test.ts', { tests: 7 })]);
    } finally {
      console.log = log;
    }
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/Slowest 2 of 2 test files/);
    expect(printed[0]!.indexOf('test/two.test.ts')).toBeLessThan(printed[0]!.indexOf('test/one.test.ts'));
  });
});
