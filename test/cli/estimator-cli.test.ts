/**
 * Your own estimator on the command line, as real processes: `train --method custom --estimator FILE`
 * trains like the built-in method it rewrites, every estimator failure exits 2 with its message and no
 * stack trace, a checkpoint carries the code and refuses other code on resume, and `advantages
 * --estimator` checks a rule on a hand-made batch.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GRPO_TEMPLATE, YOUR_IDEA_TEMPLATE } from '../../src/estimator/templates.ts';
import { runCli } from '../../scripts/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'estimator-cli-'));
const file = (name: string, source: string) => {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
};
const SMALL = [
  '--backend',
  'cpu',
  '--horizon',
  'short',
  '--tasksPerIteration',
  '2',
  '--groupSize',
  '4',
  '--hiddenSize',
  '16',
  '--seed',
  '3',
  '--sftEpisodes',
  '0',
];
const train = (...args: string[]) => runCli('cli/train.ts', [...SMALL, ...args]);
const strip = (line: string) => {
  const { ms, envStepsPerSecond, method, ...rest } = JSON.parse(line);
  return rest;
};
/** No frame of a stack trace: the visitor sees the message, not our internals. */
const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

describe('npm run train --method custom', () => {
  it('GRPO as an estimator file writes the lines of --method grpo', async () => {
    const [custom, grpo] = await Promise.all([
      train('--iters', '2', '--method', 'custom', '--estimator', file('grpo.js', GRPO_TEMPLATE)),
      train('--iters', '2', '--method', 'grpo'),
    ]);
    expect(custom.code, custom.stderr).toBe(0);
    expect(grpo.code, grpo.stderr).toBe(0);
    const lines = custom.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]).method).toBe('custom');
    expect(lines.map(strip)).toEqual(grpo.stdout.trim().split('\n').map(strip));
  }, 120_000);

  it.each([
    [
      'a throw, with its line',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the visitor's source holds a template literal
      'export default function estimate(batch) {\n  const n = batch.groups.length;\n  throw new RangeError(`no idea yet for ${n} groups`);\n}\n',
      [],
      /^estimate\(\) threw at line 3: RangeError: no idea yet for 2 groups$/m,
    ],
    ['no default export', 'export function estimate() { return []; }\n', [], /^the estimator module has no default export function/m],
    [
      'a wrong shape',
      'export default (batch) => batch.groups.map((runs) => runs.slice(1).map(() => 0));\n',
      [],
      /^estimate\(\) returned the wrong shape: group 0: expected 4 runs, got 3$/m,
    ],
    [
      'a non-finite value',
      'export default (batch) => batch.groups.map((runs) => runs.map((run) => Array.from({ length: run.length }, (_, t) => 1 / t)));\n',
      [],
      /^estimate\(\) returned a non-finite advantage at group 0, run 0, step 0: Infinity/m,
    ],
    [
      'a hang',
      'export default () => { for (;;) {} };\n',
      ['--estimatorTimeout', '0.5'],
      /^estimate\(\) ran for 0\.\d s without returning, over the time limit of 0\.5 s; it was stopped$/m,
    ],
  ])(
    '%s exits 2 with its message and no stack trace',
    async (_name, source, extra, message) => {
      const r = await train('--iters', '1', '--method', 'custom', '--estimator', file(`bad-${_name.replace(/\W+/g, '-')}.js`, source), ...extra);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
      noStack(r.stderr);
    },
    120_000,
  );

  it('refuses --method custom without code, and code without --method custom', async () => {
    const [none, other] = await Promise.all([
      train('--iters', '1', '--method', 'custom'),
      train('--iters', '1', '--method', 'grpo', '--estimator', file('idea.js', YOUR_IDEA_TEMPLATE)),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--method custom needs --estimator FILE/);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--estimator runs your own estimator, which is --method custom; this run's method is grpo/);
  }, 120_000);

  it('a checkpoint carries the code: resuming runs it, and other code is refused', async () => {
    const checkpoint = join(dir, 'custom.ckpt');
    const first = await train('--iters', '1', '--method', 'custom', '--estimator', file('grpo.js', GRPO_TEMPLATE), '--checkpoint', checkpoint);
    expect(first.code, first.stderr).toBe(0);
    const [other, same] = await Promise.all([
      runCli('cli/train.ts', [
        '--resume',
        checkpoint,
        '--iters',
        '2',
        '--estimator',
        file('idea.js', YOUR_IDEA_TEMPLATE),
        '--checkpoint',
        join(dir, 'other.ckpt'),
      ]),
      runCli('cli/train.ts', ['--resume', checkpoint, '--iters', '2', '--checkpoint', join(dir, 'same.ckpt')]),
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /--estimator .*idea\.js is not the code checkpoint .*custom\.ckpt was trained with; a resumed run continues only with its own code/,
    );
    expect(same.code, same.stderr).toBe(0);
    expect(
      same.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).iteration),
    ).toEqual([2]);
  }, 120_000);
});

describe('npm run advantages --estimator', () => {
  it('runs the rule on a hand-made batch and prints its advantages in the calculator format', async () => {
    const input = file(
      'batch.json',
      JSON.stringify({
        groups: [
          [
            { reward: 1, milestones: [0, 1, 0] },
            { reward: 0, milestones: [0, 0] },
          ],
          [
            { reward: 0, milestones: [1] },
            { reward: 0, milestones: [0, 0] },
          ],
        ],
      }),
    );
    const r = await runCli('cli/advantages.ts', ['--estimator', file('grpo.js', GRPO_TEMPLATE), '--input', input]);
    expect(r.code, r.stderr).toBe(0);
    const z = 0.5 / (Math.SQRT1_2 + 1e-6);
    expect(JSON.parse(r.stdout)).toEqual({
      groups: [
        [{ advantages: [z, z, z] }, { advantages: [-z, -z] }],
        [{ advantages: [0] }, { advantages: [0, 0] }],
      ],
    });
    // The rule's console output goes to stderr: stdout stays the JSON.
    const chatty = await runCli('cli/advantages.ts', [
      '--estimator',
      file('chatty.js', 'export default (b) => { console.log("thinking"); return b.groups.map((runs) => runs.map(() => 0)); };'),
      '--input',
      input,
    ]);
    expect(chatty.code, chatty.stderr).toBe(0);
    expect(JSON.parse(chatty.stdout).groups[0][0]).toEqual({ advantages: [0, 0, 0] });
    expect(chatty.stderr).toMatch(/thinking/);
    const bad = await runCli('cli/advantages.ts', [
      '--estimator',
      file('short.js', 'export default (b) => b.groups.map((runs) => runs.map(() => [1]));'),
      '--input',
      input,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^estimate\(\) returned the wrong shape: group 0, run 0: expected 3 advantages \(one per step\), got 1$/m);
    noStack(bad.stderr);
  }, 120_000);
});
