/**
 * The environment command line (`npm run -s envs -- stats …`, cli/envs.ts), run as a real process:
 * JSON and table output, same seed ⇒ same figures (speed aside), bad flags ⇒ exit code 2 with a message
 * naming the flag and what it allows (every rejection is also checked in-process, which is faster).
 */
import { describe, expect, it } from 'vitest';
import { parseEnvsArgs } from '../../cli/envs-args.ts';
import { ENV_NAMES } from '../../envs/index.ts';
import { runStats } from '../../envs/stats.ts';
import { runCli } from '../../scripts/cli.ts';

const cli = (...args: string[]) => runCli('cli/envs.ts', args);

function withoutSpeed(json: string): Record<string, unknown> {
  const { stepsPerSecond, ...rest } = JSON.parse(json) as Record<string, unknown>;
  expect(typeof stepsPerSecond).toBe('number');
  return rest;
}

describe('envs CLI', () => {
  it('prints one JSON object with the figures; same seed ⇒ same figures; a table without --json', async () => {
    const args = ['stats', '--env', 'gridhouse', '--horizon', 'tiny', '--policy', 'random', '--episodes', '96', '--seed', '5', '--batch', '32'];
    // Few processes, run together: each start compiles TypeScript, which is most of the time.
    const [a, b, table] = await Promise.all([cli(...args, '--json'), cli(...args, '--json'), cli(...args)]);
    for (const r of [a, b, table]) expect(r.code, r.stderr).toBe(0);
    const first = withoutSpeed(a.stdout);
    expect(first).toMatchObject({ env: 'gridhouse', horizon: 'tiny', policy: 'random', episodes: 96, seed: 5 });
    for (const key of ['success', 'partial', 'failure', 'meanSteps', 'meanMilestones']) expect(typeof first[key]).toBe('number');
    expect((first.success as number) + (first.partial as number) + (first.failure as number)).toBeCloseTo(1, 12);
    expect((first.successCount as number) + (first.partialCount as number) + (first.failureCount as number)).toBe(96);
    expect(first.meanSteps as number).toBeGreaterThan(0);
    expect(first.meanSteps as number).toBeLessThanOrEqual(first.maxSteps as number);
    expect(withoutSpeed(b.stdout)).toEqual(first);
    // The in-process run gives the same figures as the command line.
    const { stepsPerSecond, ...inProcess } = runStats('gridhouse', { horizon: 'tiny', policy: 'random', episodes: 96, seed: 5, batchSize: 32 });
    expect(stepsPerSecond).toBeGreaterThan(0);
    expect(inProcess).toEqual(first);
    expect(table.stdout).toContain('gridhouse · tiny · random policy · 96 episodes · seed 5');
    expect(table.stdout).toContain(`full success      ${(100 * (first.success as number)).toFixed(1).padStart(6)}%`);
    expect(table.stdout).toMatch(/partial success\s+\d+\.\d%/);
    expect(table.stdout).toMatch(/complete failure\s+\d+\.\d%/);
    expect(table.stdout).toContain('env-steps/s');
  });

  it('gives other figures for another seed, 100% for the oracle, and works for every environment', () => {
    const base = { horizon: 'tiny', policy: 'random', episodes: 96, batchSize: 32 } as const;
    const { stepsPerSecond: _a, ...five } = runStats('gridhouse', { ...base, seed: 5 });
    const { stepsPerSecond: _b, ...six } = runStats('gridhouse', { ...base, seed: 6 });
    expect(six).not.toEqual(five);
    const oracle = runStats('gridhouse', { horizon: 'short', policy: 'oracle', episodes: 64, seed: 1 });
    expect(oracle.success).toBe(1);
    expect(oracle.meanMilestones).toBe(3);
    for (const env of ENV_NAMES) {
      const s = runStats(env, { ...base, seed: 1 });
      expect(s.env).toBe(env);
      expect(s.success + s.partial + s.failure).toBeCloseTo(1, 12);
    }
  });

  it.each([
    [['--env', 'gridhouse', '--horizon', 'huge'], /--horizon must be one of tiny, short, medium, long/],
    [['--env', 'mansion', '--horizon', 'tiny'], /--env must be one of gridhouse, texthouse/],
    [['--env', 'gridhouse', '--horizon', 'tiny', '--episodes', '0'], /--episodes must be an integer in \[1, 1000000\]/],
    [['--env', 'gridhouse', '--horizon', 'tiny', '--episodes=2.5'], /--episodes must be an integer in \[1, 1000000\]/],
    [['--env', 'gridhouse', '--horizon', 'tiny', '--seed', '-3'], /--seed must be an integer in \[0, 4294967295\]/],
    [['--env', 'gridhouse', '--horizon', 'tiny', '--batch', '5000'], /--batch must be an integer in \[1, 4096\]/],
    [['--env', 'gridhouse', '--horizon', 'tiny', '--policy', 'greedy'], /--policy must be one of random, oracle/],
    [['--env', 'gridhouse', '--horizon', 'tiny', '--dropout', '2'], /--dropout must be a number in \[0, 1\]/],
    [['--env', 'gridhouse', '--horizon', 'tiny', '--speed', 'fast'], /unknown flag --speed/],
    [['--env', 'gridhouse', '--horizon', 'tiny', '--seed'], /--seed needs a value/],
    [['--horizon', 'tiny'], /--env is required/],
    [['--env', 'gridhouse'], /--horizon is required/],
  ])('rejects %j naming the flag', (flags, message) => {
    expect(() => parseEnvsArgs(['stats', ...flags])).toThrow(message);
  });

  it('rejects a missing or unknown command', () => {
    expect(() => parseEnvsArgs([])).toThrow(/missing command/);
    expect(() => parseEnvsArgs(['train'])).toThrow(/unknown command "train"/);
  });

  it('exits with code 2 and the message on a bad flag', async () => {
    const r = await cli('stats', '--env', 'gridhouse', '--horizon', 'tiny', '--episodes', '0');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--episodes must be an integer in \[1, 1000000\]; got "0"/);
    expect(r.stderr).toContain('usage:');
    expect(r.stdout).toBe('');
  });
});
