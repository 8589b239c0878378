/**
 * `npm run train` with checkpoints, as real processes on wasm: a run stopped (by its budget or by
 * SIGTERM) and resumed writes the lines of the uninterrupted run; a resumed run refuses contradicting
 * settings; a damaged, foreign or unreadable checkpoint exits with 2 naming the fault and is left
 * byte for byte as it was; a process killed inside a checkpoint write leaves the previous one whole.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpointFile } from '../../cli/checkpoint-file.ts';
import { ROOT, runCli, type CliResult } from '../../scripts/cli.ts';

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
  '--seed',
  '5',
  '--method',
  'gigpo',
];
const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const { ms: _ms, envStepsPerSecond: _eps, ...rest } = JSON.parse(line);
      return rest;
    });
const ok = (r: CliResult) => expect(r.code, r.stderr).toBe(0);

describe('npm run train --checkpoint / --resume', () => {
  it('resumes a run stopped at its budget: the lines equal the uninterrupted run’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-cli-'));
    const ckpt = join(dir, 'run.ckpt');
    const [full, first] = await Promise.all([train(...SMALL, '--iters', '4'), train(...SMALL, '--iters', '2', '--checkpoint', ckpt, '--checkpointEvery', '1')]);
    ok(full);
    ok(first);
    const second = await train('--resume', ckpt, '--iters', '4', '--out', join(dir, 'rest.jsonl'));
    ok(second);
    expect(second.stderr).toMatch(/resumed .*run\.ckpt at iteration 2 of 4/);
    expect(lines(readFileSync(join(dir, 'rest.jsonl'), 'utf8'))).toEqual(lines(full.stdout).slice(2));
    expect([...lines(first.stdout), ...lines(readFileSync(join(dir, 'rest.jsonl'), 'utf8'))]).toEqual(lines(full.stdout));
    expect((await readCheckpointFile(ckpt)).iteration).toBe(4); // later checkpoints go back to the file
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('on SIGTERM finishes the iteration, writes the checkpoint and exits 143; the resumed lines are exact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-sig-'));
    const ckpt = join(dir, 'run.ckpt');
    const stopped = await new Promise<CliResult>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'cli/train.ts', ...SMALL, '--iters', '1000', '--checkpoint', ckpt, '--checkpointEvery', '1000'],
        { cwd: ROOT },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d;
        if (stdout.includes('\n') && !child.killed) child.kill('SIGTERM');
      });
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    expect(stopped.code, stopped.stderr).toBe(143);
    const n = lines(stopped.stdout).length;
    expect(stopped.stderr).toMatch(new RegExp(`stopped by SIGTERM after iteration ${n}; checkpoint .*run\\.ckpt \\(continue with --resume`));
    expect((await readCheckpointFile(ckpt)).iteration).toBe(n);
    const [full, rest] = await Promise.all([train(...SMALL, '--iters', String(n + 2)), train('--resume', ckpt, '--iters', String(n + 2))]);
    ok(full);
    ok(rest);
    expect([...lines(stopped.stdout), ...lines(rest.stdout)]).toEqual(lines(full.stdout));
  });

  it('refuses settings that contradict the checkpoint, and a resume without --iters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-flags-'));
    const ckpt = join(dir, 'run.ckpt');
    ok(await train(...SMALL, '--iters', '1', '--checkpoint', ckpt));
    const before = hash(ckpt);
    const cases: [string[], RegExp][] = [
      [
        ['--gamma', '0.5', '--iters', '3'],
        /--gamma 0.5 conflicts with checkpoint .*run\.ckpt, whose gamma is 0.95: a resumed run takes every setting from its checkpoint/,
      ],
      [['--method', 'grpo', '--iters', '3'], /--method grpo conflicts with checkpoint .*, whose method is gigpo/],
      [[], /--resume needs --iters M, the iteration to continue to \(checkpoint .* is at iteration 1\)/],
      [['--iters', '3', '--seed', '5', '--checkpointEvery', '0'], /--checkpointEvery must be an integer in \[1, 100000\]; got "0"/],
    ];
    const results = await Promise.all(cases.map(([args]) => train('--resume', ckpt, ...args)));
    for (const [i, [args, message]] of cases.entries()) {
      expect(results[i].code, args.join(' ')).toBe(2);
      expect(results[i].stderr).toMatch(message);
    }
    expect((await train(...SMALL, '--iters', '1', '--checkpointEvery', '2')).stderr).toMatch(/--checkpointEvery needs --checkpoint FILE/);
    expect(hash(ckpt)).toBe(before);
  });

  it('exits 2 for a truncated, corrupted, wrong-schema or unreadable checkpoint, touching neither it nor --out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-bad-'));
    const good = join(dir, 'good.ckpt');
    ok(await train(...SMALL, '--iters', '1', '--checkpoint', good));
    const bytes = readFileSync(good);
    const variant = (name: string, edit: (b: Buffer) => Buffer) => {
      const path = join(dir, name);
      writeFileSync(path, edit(Buffer.from(bytes)));
      return path;
    };
    mkdirSync(join(dir, 'a-directory.ckpt'));
    const cases: [string, RegExp][] = [
      [variant('truncated.ckpt', (b) => b.subarray(0, b.length - 100)), /is unusable: truncated: \d+ bytes, where its preamble announces \d+/],
      [variant('corrupted.ckpt', (b) => ((b[b.length - 7] ^= 1), b)), /is unusable: checksum mismatch: the file is corrupted/],
      [variant('schema.ckpt', (b) => (b.writeUInt32LE(99, 8), b)), /is unusable: schema version 99; this build reads checkpoints of schema version 1 only/],
      [
        variant('foreign.ckpt', () => Buffer.from('{"weights": [1, 2, 3], "and": "some more text to pass the preamble"}')),
        /is unusable: not a Beacon Live checkpoint/,
      ],
      [join(dir, 'missing.ckpt'), /cannot read checkpoint .*missing\.ckpt: ENOENT/],
      [join(dir, 'a-directory.ckpt'), /cannot read checkpoint .*a-directory\.ckpt: EISDIR/],
    ];
    const before = cases.map(([path]) => (existsSync(path) && !path.endsWith('directory.ckpt') ? hash(path) : null));
    const out = join(dir, 'out.jsonl');
    const results = await Promise.all(cases.map(([path]) => train('--resume', path, '--iters', '3', '--out', out)));
    for (const [i, [path, message]] of cases.entries()) {
      const r = results[i];
      expect(r.code, path).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
      if (before[i]) expect(hash(path)).toBe(before[i]);
    }
    expect(existsSync(out)).toBe(false);
  });

  it('leaves the previous checkpoint whole when a process is killed inside a checkpoint write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ckpt-kill-'));
    const [older, newer] = [join(dir, 'run.ckpt'), join(dir, 'newer.ckpt')];
    await Promise.all([train(...SMALL, '--iters', '1', '--checkpoint', older), train(...SMALL, '--iters', '2', '--checkpoint', newer)]);
    const before = hash(older);
    const killed = await runCli('test/support/kill-mid-write.ts', [older, newer]);
    expect(killed.code).toBe(-1); // killed by a signal, not exited
    expect(hash(older)).toBe(before);
    expect((await readCheckpointFile(older)).iteration).toBe(1);
    // The next write replaces the stray temporary file's role: resuming still works and rewrites the checkpoint.
    ok(await train('--resume', older, '--iters', '2'));
    const [resumed, straight] = await Promise.all([readCheckpointFile(older), readCheckpointFile(newer)]);
    expect({ ...resumed, records: resumed.records.map((r) => r.iteration) }).toEqual({ ...straight, records: straight.records.map((r) => r.iteration) });
  });
});
