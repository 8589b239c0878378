/**
 * `npm run train -- --seeds K` as real processes: on wasm, where seeds run one after the other, each
 * seed's lines equal the single run of that seed (timings aside); on webgpu (the seeds' one batch once
 * SeedRuns batches them) the same outcomes and env steps, losses within 1e-5 relative; a seed bundle
 * checkpoint holds every seed and resumes exactly; more seeds than the backend allows exit 2 naming the flag and the limit.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSeedCheckpointFile } from '../../cli/checkpoint-file.ts';
import { runCli, type CliResult } from '../../scripts/cli.ts';

const train = (...args: string[]) => runCli('cli/train.ts', args);
const SMALL = [
  '--env',
  'gridhouse',
  '--horizon',
  'tiny',
  '--tasksPerIteration',
  '2',
  '--groupSize',
  '2',
  '--hiddenSize',
  '8',
  '--sftEpisodes',
  '0',
  '--backend',
  'wasm',
];
const records = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const { ms: _ms, envStepsPerSecond: _eps, ...rest } = JSON.parse(line);
      return rest as { seed: number; iteration: number };
    });
const ok = (r: CliResult) => expect(r.code, r.stderr).toBe(0);

describe('npm run train --seeds', () => {
  it('writes each seed’s lines, in seed order per iteration, equal to that seed trained alone', async () => {
    const [three, ...alone] = await Promise.all([
      train(...SMALL, '--iters', '2', '--seed', '7', '--seeds', '3'),
      ...[7, 8, 9].map((s) => train(...SMALL, '--iters', '2', '--seed', String(s))),
    ]);
    ok(three);
    alone.forEach(ok);
    const lines = records(three.stdout);
    expect(lines.map((l) => [l.iteration, l.seed])).toEqual([
      [1, 7],
      [1, 8],
      [1, 9],
      [2, 7],
      [2, 8],
      [2, 9],
    ]);
    for (const [i, seed] of [7, 8, 9].entries()) {
      const single = records(alone[i].stdout);
      expect(single.map((l) => l.seed)).toEqual([seed, seed]);
      expect(lines.filter((l) => l.seed === seed)).toEqual(single);
    }
    // Different seeds train differently: the comparison above could fail.
    expect(records(alone[0].stdout)).not.toEqual(records(alone[1].stdout).map((l) => ({ ...l, seed: 7 })));
  });

  it('on webgpu (Dawn; SwiftShader here) each seed’s lines match that seed alone: the same outcomes and steps, losses within 1e-5', async () => {
    const GPU = [...SMALL.slice(0, -1), 'webgpu', '--iters', '2'];
    const [two, ...alone] = await Promise.all([train(...GPU, '--seed', '3', '--seeds', '2'), ...[3, 4].map((s) => train(...GPU, '--seed', String(s)))]);
    for (const r of [two, ...alone]) {
      ok(r);
      expect(r.stderr).toMatch(/backend: webgpu/);
    }
    const lines = records(two.stdout) as unknown as Record<string, unknown>[];
    // Whatever the float32 summation order of a batch of seeds, these are counts: equal exactly.
    const EXACT = ['seed', 'iteration', 'method', 'success', 'partial', 'failure', 'envSteps', 'meanEpisodeLength', 'path'];
    const CLOSE = ['policyLoss', 'entropy', 'approxKl', 'clipFraction', 'gradNorm'];
    for (const [i, seed] of [3, 4].entries()) {
      const single = records(alone[i].stdout) as unknown as Record<string, unknown>[];
      const mine = lines.filter((l) => l.seed === seed);
      expect(mine).toHaveLength(single.length);
      mine.forEach((line, j) => {
        for (const k of EXACT) expect(line[k], `seed ${seed}, line ${j + 1}, ${k}`).toEqual(single[j][k]);
        for (const k of CLOSE) {
          const [a, b] = [line[k] as number, single[j][k] as number];
          expect(Math.abs(a - b), `seed ${seed}, line ${j + 1}, ${k}: ${a} against ${b}`).toBeLessThanOrEqual(1e-5 * Math.max(Math.abs(b), 1e-30));
        }
      });
    }
  }, 240_000);

  it('checkpoints every seed in one bundle; the resumed lines equal the uninterrupted run’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seeds-ckpt-'));
    const ckpt = join(dir, 'seeds.ckpt');
    const [full, first] = await Promise.all([
      train(...SMALL, '--seed', '3', '--seeds', '2', '--iters', '3'),
      train(...SMALL, '--seed', '3', '--seeds', '2', '--iters', '1', '--checkpoint', ckpt),
    ]);
    ok(full);
    ok(first);
    const states = await readSeedCheckpointFile(ckpt);
    expect(states.map((s) => [s.config.seed, s.iteration])).toEqual([
      [3, 1],
      [4, 1],
    ]);
    const [rest, wrongSeeds] = await Promise.all([
      train('--resume', ckpt, '--iters', '3', '--out', join(dir, 'rest.jsonl')),
      train('--resume', ckpt, '--iters', '3', '--seeds', '3'),
    ]);
    ok(rest);
    expect(rest.stderr).toMatch(/resumed .*seeds\.ckpt at iteration 1 of 3/);
    expect([...records(first.stdout), ...records(readFileSync(join(dir, 'rest.jsonl'), 'utf8'))]).toEqual(records(full.stdout));
    expect(wrongSeeds.code).toBe(2);
    expect(wrongSeeds.stderr).toMatch(/--seeds 3 conflicts with checkpoint .*seeds\.ckpt, which holds 2 seed\(s\) \(leave --seeds out\)/);
  });

  it.each([
    [['--backend', 'wasm', '--seeds', '6'], /--seeds 6 is over 5, the most seeds per method on wasm, where seeds train one after the other/],
    [['--backend', 'cpu', '--seeds', '6'], /--seeds 6 is over 5, the most seeds per method on cpu/],
    [['--seeds', '6'], /--seeds 6 is over 5, the most seeds per method under backend auto \(up to 16 with backend=webgpu/],
    [['--backend', 'webgpu', '--seeds', '17'], /--seeds must be an integer in \[1, 16\]; got "17"/],
    [['--seeds', '0'], /--seeds must be an integer in \[1, 16\]; got "0"/],
  ])('exits with 2 for %j, naming the flag and the limit', async (args, message) => {
    const r = await train(...args, '--iters', '1');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
