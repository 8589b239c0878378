/**
 * Settings too big together are refused before anything trains, naming the settings and the limit:
 * parseConfig (CLI flags, page URL), the page's URL reader, the trainer's own guard and the train
 * command's exit code 2.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, parseConfig } from '../src/config.ts';
import { readPageState, writePageState } from '../src/page/url-state.ts';
import { PAGE_DEFAULT_CONFIG } from '../src/page/page-defaults.ts';
import { DEFAULT_PAGE_SETTINGS } from '../src/page/page-settings.ts';
import { combinedLimitIssues, MAX_RUNS_PER_ITERATION, MAX_SEEDS, seedsLimitIssue } from '../src/setting-limits.ts';
import { Trainer } from '../src/trainer/trainer.ts';
import { runCli } from '../scripts/cli.ts';

const OVER = /tasksPerIteration × groupSize = 256 × 64 = 16384 is over 4096/;

describe('runs per iteration (tasksPerIteration × groupSize)', () => {
  it('allows exactly the limit and refuses one task group more', () => {
    expect(MAX_RUNS_PER_ITERATION).toBe(4096);
    expect(combinedLimitIssues({ tasksPerIteration: 64, groupSize: 64 })).toEqual([]);
    const [issue] = combinedLimitIssues({ tasksPerIteration: 65, groupSize: 64 });
    expect(issue.message).toMatch(/65 × 64 = 4160 is over 4096/);
    expect(issue.fields).toEqual(['tasksPerIteration', 'groupSize']);
  });

  it('parseConfig reports it on the setting given and keeps that setting at its base value', () => {
    const both = parseConfig([
      ['tasksPerIteration', '256'],
      ['groupSize', '64'],
    ]);
    expect(both.issues).toHaveLength(1);
    expect(both.issues[0].field).toBe('tasksPerIteration');
    expect(both.issues[0].message).toMatch(OVER);
    expect(both.config.tasksPerIteration).toBe(DEFAULT_CONFIG.tasksPerIteration);
    expect(both.config.groupSize).toBe(64);
    const onlyGroup = parseConfig([['groupSize', '64']], { ...DEFAULT_CONFIG, tasksPerIteration: 128 });
    expect(onlyGroup.issues.map((i) => i.field)).toEqual(['groupSize']);
    expect(onlyGroup.issues[0].message).toMatch(/128 × 64 = 8192 is over 4096/);
    expect(onlyGroup.config.groupSize).toBe(DEFAULT_CONFIG.groupSize);
    expect(
      parseConfig([
        ['tasksPerIteration', '64'],
        ['groupSize', '64'],
      ]).issues,
    ).toEqual([]);
  });

  it('the page reads it from the URL as an issue (shown in the role="alert" box) and falls back', () => {
    const state = readPageState('tasksPerIteration=256&groupSize=64');
    expect(state.issues).toHaveLength(1);
    expect(state.issues[0].message).toMatch(OVER);
    expect(state.config.tasksPerIteration * state.config.groupSize).toBeLessThanOrEqual(4096);
  });

  it('a trainer built with such settings throws the same message, before any environment exists', () => {
    expect(() => new Trainer({ ...DEFAULT_CONFIG, tasksPerIteration: 256, groupSize: 64, backend: 'cpu' })).toThrow(OVER);
  });

  it('npm run train exits with 2 and names both settings', async () => {
    const r = await runCli('cli/train.ts', ['--tasksPerIteration', '256', '--groupSize', '64', '--backend', 'cpu', '--iters', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(OVER);
    expect(r.stdout).toBe('');
  });
});

describe('seeds per method, by backend', () => {
  it('allows 16 on webgpu and 5 on wasm, cpu and auto, and names the limit one over', () => {
    expect(MAX_SEEDS).toEqual({ webgpu: 16, wasm: 5, cpu: 5, auto: 5 });
    expect(seedsLimitIssue(16, 'webgpu')).toBeNull();
    expect(seedsLimitIssue(17, 'webgpu')).toBe('seeds 17 is over 16, the most seeds per method on webgpu');
    for (const backend of ['wasm', 'cpu'] as const) {
      expect(seedsLimitIssue(5, backend)).toBeNull();
      expect(seedsLimitIssue(6, backend)).toMatch(
        new RegExp(`^seeds 6 is over 5, the most seeds per method on ${backend}, where seeds train one after the other`),
      );
    }
    expect(seedsLimitIssue(6, 'auto')).toMatch(/^seeds 6 is over 5, the most seeds per method under backend auto \(up to 16 with backend=webgpu/);
  });

  it("the page URL refuses seeds over its backend's limit, naming it, and keeps one seed", () => {
    expect(readPageState('backend=webgpu&seeds=16')).toMatchObject({ issues: [], page: { seeds: 16 } });
    const over = readPageState('backend=webgpu&seeds=17');
    expect(over.page.seeds).toBe(1);
    expect(over.issues).toEqual([{ field: 'seeds', message: expect.stringMatching(/seeds must be an integer in \[1, 16\]; got "17"/) }]);
    const wasm = readPageState('backend=wasm&seeds=6');
    expect(wasm.page.seeds).toBe(1);
    expect(wasm.config.backend).toBe('wasm');
    expect(wasm.issues).toEqual([{ field: 'seeds', message: expect.stringMatching(/^seeds 6 is over 5, the most seeds per method on wasm.*; using 1$/) }]);
    expect(readPageState('backend=cpu&seeds=5').issues).toEqual([]);
    // The Share link of a 16-seed race names its backend, and reads back whole.
    const link = writePageState({ config: { ...PAGE_DEFAULT_CONFIG, backend: 'webgpu' }, page: { ...DEFAULT_PAGE_SETTINGS, seeds: 16 } });
    expect(link).toBe('backend=webgpu&seeds=16');
    expect(readPageState(link)).toMatchObject({ issues: [], config: { backend: 'webgpu' }, page: { seeds: 16 } });
  });
});
