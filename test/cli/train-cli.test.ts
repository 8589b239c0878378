/**
 * `npm run train` as a real process: same seed ⇒ identical JSON lines on wasm (timings aside), the
 * record fields the JSON lines promise (docs/cli.md), --out, and exit code 2 with a message naming a bad flag.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../scripts/cli.ts';

const FIELDS = [
  'iteration',
  'success',
  'partial',
  'failure',
  'sampleUtilization',
  'zeroAdvantageRatio',
  'contradictoryRatio',
  'signalRetention',
  'ccr',
  'policyLoss',
  'entropy',
  'approxKl',
  'clipFraction',
  'ms',
];

const train = (...args: string[]) => runCli('cli/train.ts', args);

describe('npm run train', () => {
  it('writes identical lines for the same seed on wasm, timings aside', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'train-cli-'));
    const args = [
      '--env',
      'texthouse',
      '--horizon',
      'short',
      '--iters',
      '3',
      '--seed',
      '4',
      '--backend',
      'wasm',
      '--tasksPerIteration',
      '2',
      '--groupSize',
      '4',
      '--hiddenSize',
      '16',
    ];
    const [a, b] = await Promise.all([train(...args, '--out', join(dir, 'a.jsonl')), train(...args)]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(a.stderr).toMatch(/backend: wasm/);
    const strip = (line: string) => {
      const { ms, envStepsPerSecond, ...rest } = JSON.parse(line);
      expect(Object.keys(ms)).toEqual(['rollout', 'advantage', 'update']);
      expect(envStepsPerSecond).toBeGreaterThan(0);
      return rest;
    };
    const fromFile = readFileSync(join(dir, 'a.jsonl'), 'utf8').trim().split('\n');
    const fromStdout = b.stdout.trim().split('\n');
    expect(fromFile).toHaveLength(3);
    for (const field of FIELDS) expect(JSON.parse(fromFile[0])).toHaveProperty(field);
    expect(fromFile.map(strip)).toEqual(fromStdout.map(strip));
  });

  it.each([
    [['--gamma', '2'], /--gamma must be a number in \[0, 1\]; got "2"/],
    [['--horizon', 'huge'], /horizon must be one of tiny, short, medium, long/],
    [['--iters'], /--iters needs a value/],
    [['--bogus', '1'], /unknown flag --bogus; known flags: --out, --checkpoint, --checkpointEvery, --resume, --seeds, --estimator, --estimatorTimeout, --env/],
  ])('exits with 2 for %j and names the flag', async (args, message) => {
    const r = await train(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
