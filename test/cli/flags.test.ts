/**
 * The one flag parser (cli/flags.ts): a command's own flags, every training setting, and a rejection
 * naming the flag and its range for everything else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagsHelp, parseFlags, UsageError } from '../../cli/flags.ts';
import { DEFAULT_CONFIG } from '../../src/config.ts';
import { ROOT, runCli } from '../../scripts/cli.ts';

const TABLE = {
  out: { kind: 'string', doc: 'output file' },
  json: { kind: 'switch', doc: 'print JSON' },
  reps: { kind: { type: 'int', min: 1, max: 9 }, doc: 'repetitions' },
  sizes: { kind: { type: 'list', min: 2, max: 100 }, doc: 'batch sizes' },
  input: { kind: 'string', required: true, doc: 'the input file' },
} as const;

describe('parseFlags', () => {
  it('reads --name value, --name=value, switches, lists and training settings', () => {
    const p = parseFlags(
      ['--input', 'a.json', '--gamma', '0.5', '--iters=3', '--out', 'x.jsonl', '--json', '--reps', '4', '--sizes', '2,10,100'],
      TABLE,
      DEFAULT_CONFIG,
    );
    expect(p.flags).toEqual({ input: 'a.json', out: 'x.jsonl', json: true, reps: 4, sizes: [2, 10, 100] });
    expect(p.config).toEqual({ ...DEFAULT_CONFIG, gamma: 0.5, iters: 3 });
    expect([...p.settingsGiven].sort()).toEqual(['gamma', 'iters']);
    expect(p.help).toBe(false);
  });

  it('answers --help without checking anything else', () => {
    expect(parseFlags(['--bogus', '--help'], TABLE).help).toBe(true);
    expect(parseFlags(['-h'], TABLE).help).toBe(true);
  });

  it.each([
    [['--input', 'a', '--gamma'], /--gamma needs a value/],
    [['--input', 'a', '--lambda', '-1'], /--lambda must be a number in \[0, 10\]; got "-1"/],
    [['stray'], /unexpected argument "stray"/],
    [['--input', 'a', '--seed', '1', '--seed', '2'], /--seed is given more than once/],
    [['--input', 'a', '--json=yes'], /--json takes no value/],
    [['--input', 'a', '--reps', '0'], /--reps must be an integer in \[1, 9\]; got "0"/],
    [['--input', 'a', '--reps', '2.5'], /--reps must be an integer in \[1, 9\]/],
    [['--input', 'a', '--sizes', '2,x'], /--sizes must be comma-separated integers in \[2, 100\]/],
    [['--input', 'a', '--speed', 'fast'], /unknown flag --speed; known flags: --out, --json, --reps, --sizes, --input, --env/],
    [['--out', 'x'], /--input is required: the input file/],
    [['--input', 'a', '--out', '--json'], /--out needs a value/],
  ])('rejects %j naming the flag', (argv, message) => {
    expect(() => parseFlags(argv, TABLE, DEFAULT_CONFIG)).toThrow(UsageError);
    expect(() => parseFlags(argv, TABLE, DEFAULT_CONFIG)).toThrow(message);
  });

  it('takes no training setting when the command has no config', () => {
    expect(() => parseFlags(['--input', 'a', '--gamma', '0.5'], TABLE)).toThrow(/unknown flag --gamma/);
  });

  it('lists every flag with its range in the help text', () => {
    const help = flagsHelp(TABLE, DEFAULT_CONFIG);
    expect(help).toMatch(/--reps\s+repetitions \(an integer in \[1, 9\]\)/);
    expect(help).toMatch(/--input\s+the input file; required/);
    expect(help).toMatch(/--gamma\s+.*\(a number in \[0, 1\]; default 0.95\)/);
  });
});

describe('the detector settings (docs/maths.md §6) as flags', () => {
  const OUT_OF_RANGE = [
    ['milestoneFalseAlarms', '1.5', /--milestoneFalseAlarms must be a number in \[0, 1\]; got "1.5"/],
    ['looseMilestones', 'maybe', /--looseMilestones must be true or false; got "maybe"/],
    ['milestoneDelay', '-1', /--milestoneDelay must be an integer in \[0, 64\]; got "-1"/],
    ['milestoneStride', '0', /--milestoneStride must be an integer in \[1, 8\]; got "0"/],
    ['fineMilestones', '2', /--fineMilestones must be true or false; got "2"/],
    ['demoNoise', '-0.1', /--demoNoise must be a number in \[0, 1\]; got "-0.1"/],
  ] as const;

  it.each(OUT_OF_RANGE)('--%s %s is refused, naming the flag and its range', (flag, value, message) => {
    expect(() => parseFlags(['--input', 'a', `--${flag}`, value], TABLE, DEFAULT_CONFIG)).toThrow(message);
  });

  it('reads each in range, and refuses the loose and the fine detector together', () => {
    const p = parseFlags(
      ['--input', 'a', '--milestoneFalseAlarms', '0.1', '--looseMilestones', 'true', '--milestoneDelay', '3', '--milestoneStride', '2', '--demoNoise', '0.2'],
      TABLE,
      DEFAULT_CONFIG,
    );
    expect(p.config).toEqual({ ...DEFAULT_CONFIG, milestoneFalseAlarms: 0.1, looseMilestones: true, milestoneDelay: 3, milestoneStride: 2, demoNoise: 0.2 });
    expect(() => parseFlags(['--input', 'a', '--looseMilestones', 'true', '--fineMilestones', 'true'], TABLE, DEFAULT_CONFIG)).toThrow(
      /--looseMilestones and fineMilestones are two different detectors/,
    );
  });

  it('train exits with 2 on an out-of-range value, naming the flag and its range', async () => {
    const r = await runCli('cli/train.ts', ['--env', 'gridhouse', '--horizon', 'tiny', '--method', 'beacon', '--iters', '2', '--milestoneStride', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--milestoneStride must be an integer in \[1, 8\]; got "0"/);
    expect(r.stdout).toBe('');
  });
});

describe('every command and bench rejects a bad flag before doing any work', () => {
  // Every npm script that runs a file of cli/ or bench/, plus the benches run with npx tsx.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const scripts = Object.values(pkg.scripts).flatMap((cmd) => /^tsx ((?:cli|bench)\/[\w-]+\.ts)$/.exec(cmd)?.[1] ?? []);
  const direct = readdirSync(join(ROOT, 'bench'))
    .filter((f) => /^(backends|sft-calibration|profile-update)\.ts$/.test(f))
    .map((f) => `bench/${f}`);

  it.each([...new Set([...scripts, ...direct])].map((s) => [s]))('%s exits with 2 and names the flag', async (script) => {
    const r = await runCli(script, ['--no-such-flag', '1']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/no-such-flag/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });
});
