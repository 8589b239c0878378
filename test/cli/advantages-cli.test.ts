/**
 * `npm run advantages`: the same JSON on the cpu and webgpu (WGSL kernels on Dawn) paths, end to end;
 * every rejection of flags or input in-process (naming the field), and exit code 2 end to end.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatAdvantageResponse, parseAdvantageRequest } from '../../cli/batch-json.ts';
import { methodSpec } from '../../src/methods/registry.ts';
import { parseAdvantagesArgs, readAdvantageRequest } from '../../cli/advantages-args.ts';
import { UsageError } from '../../cli/flags.ts';
import { runCli } from '../../scripts/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'advantages-cli-'));

const run = (args: string[], stdin?: string) => runCli('cli/advantages.ts', args, stdin);

function inputFile(name: string, json: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof json === 'string' ? json : JSON.stringify(json));
  return path;
}

const REQUEST = {
  gamma: 0.9,
  lambda: 0.5,
  segmentBaseline: 'stepMean',
  groups: [
    [
      { reward: 1, milestones: [0, 1, 0, 0, 1] },
      { reward: 0, milestones: [0, 1, 0, 0, 0, 0] },
      { reward: 0, milestones: [0, 0, 0] },
    ],
    [
      { reward: 1, milestones: [1] },
      { reward: 1, milestones: [1, 1] },
    ],
  ],
};

/** GiGPO: three runs in a group of one task (state keys as the environment would name them), two in another. */
const GIGPO_REQUEST = {
  method: 'gigpo',
  groups: [
    [
      { reward: 1, stateKeys: ['a', 'b', 'c'] },
      { reward: 0, stateKeys: ['a', 'b', 'b', 'd'] },
      { reward: 0, stateKeys: ['a', 'e'] },
    ],
    [
      { reward: 1, stateKeys: ['x'] },
      { reward: 1, stateKeys: ['x', 'y'] },
    ],
  ],
};

/** Critic PPO: the critic's values per step; shaped rewards add R_ms at the milestone step. */
const PPO_REQUEST = {
  method: 'ppo',
  shapedRewards: true,
  rMs: 0.5,
  groups: [
    [
      { reward: 1, milestones: [0, 1, 0], values: [0.5, 0.6, 0.8] },
      { reward: 0, values: [0.4, 0.3] },
    ],
  ],
};

type Output = { groups: Record<string, number | number[]>[][] } & {
  groups: { advantages: number[]; trajectoryAdvantage: number; segmentAdvantages: number[]; shapedRewards: number[]; stepAdvantages: number[] }[][];
};

describe('npm run advantages', () => {
  it.each([
    ['BEACON, paper variant', REQUEST],
    ['BEACON, released variant', { ...REQUEST, variant: 'released', rMs: 10, normalize: 'mean' }],
    ['GiGPO, paper variant', GIGPO_REQUEST],
    ['GiGPO, released variant, mean', { ...GIGPO_REQUEST, variant: 'released', normalize: 'mean', omega: 0.5 }],
    ['critic PPO with shaped rewards', PPO_REQUEST],
  ])('%s: the same JSON on the cpu and webgpu backends (webgpu to float32 precision)', async (name, json) => {
    const file = inputFile(`${name.replace(/\W/g, '-')}.json`, json);
    const cpu = await run(['--input', file, '--backend', 'cpu']);
    expect(cpu.stderr).toBe('');
    expect(cpu.code).toBe(0);
    const request = parseAdvantageRequest(json);
    expect(JSON.parse(cpu.stdout)).toEqual(formatAdvantageResponse(request, methodSpec(request.settings.method).estimate(request.batch, request.settings)));

    const gpu = await run(['--input', file, '--backend', 'webgpu']);
    expect(gpu.code, gpu.stderr).toBe(0);
    const a = JSON.parse(gpu.stdout) as Output;
    const b = JSON.parse(cpu.stdout) as Output;
    // Same nesting and keys; numbers within the kernels' tolerance (see test/gpu/kernels.test.ts).
    const close = (x: number, y: number) => expect(Math.abs(x - y)).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(y)));
    expect(a.groups.map((g) => g.map((r) => Object.keys(r)))).toEqual(b.groups.map((g) => g.map((r) => Object.keys(r))));
    b.groups.forEach((g, gi) =>
      g.forEach((r, ri) => {
        const q = a.groups[gi][ri];
        for (const [key, value] of Object.entries(r)) {
          if (typeof value === 'number') close(q[key] as number, value);
          else (value as number[]).forEach((x, t) => close((q[key] as number[])[t], x));
        }
      }),
    );
  });

  it("names each method's parts in the output: GRPO and BEACON their terms, GiGPO A_E, A_S and R_t, PPO Â and R̂", async () => {
    const beacon = JSON.parse((await run(['--input', inputFile('names-beacon.json', REQUEST)])).stdout) as Output;
    expect(Object.keys(beacon.groups[0][0])).toEqual(['advantages', 'trajectoryAdvantage', 'segmentAdvantages', 'shapedRewards']);
    // The tied second group gets exactly 0 from the trajectory term.
    expect(beacon.groups[1].map((r) => r.trajectoryAdvantage)).toEqual([0, 0]);
    const gigpo = JSON.parse((await run(['--input', inputFile('names-gigpo.json', GIGPO_REQUEST)])).stdout) as Output;
    expect(Object.keys(gigpo.groups[0][0])).toEqual(['advantages', 'episodeAdvantage', 'stepAdvantages', 'stepReturns']);
    // Run 1 visits "b" twice: both visits are members of one step group with the other run's "b".
    expect(gigpo.groups[0][1].stepAdvantages[1]).toBe(gigpo.groups[0][1].stepAdvantages[2]);
    // "c", "d" and "e" are visited once each: singleton step groups get A_S = 0 exactly.
    expect([gigpo.groups[0][0].stepAdvantages[2], gigpo.groups[0][1].stepAdvantages[3], gigpo.groups[0][2].stepAdvantages[1]]).toEqual([0, 0, 0]);
    const ppo = JSON.parse((await run(['--input', inputFile('names-ppo.json', PPO_REQUEST)])).stdout) as { groups: Record<string, number[]>[][] };
    expect(Object.keys(ppo.groups[0][0])).toEqual(['advantages', 'rawAdvantages', 'returns']);
    // The last step of the solved run: r = 1, V(next) = 0, so Â = 1 − 0.8 = 0.2 and R̂ = 1.
    expect(ppo.groups[0][0].rawAdvantages[2]).toBeCloseTo(0.2, 12);
    expect(ppo.groups[0][0].returns[2]).toBeCloseTo(1, 12);
  });

  it('reads stdin with --input -', async () => {
    const r = await run(['--input', '-'], JSON.stringify(REQUEST));
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Output).groups[0][0].advantages).toHaveLength(5);
  });

  it.each([
    [['--input'], /--input needs a value/],
    [['--backend', 'webgpu'], /--input is required/],
    [['--input', 'x.json', '--backend', 'gpu'], /--backend must be one of webgpu, wasm, cpu; got "gpu"/],
    [['--input', 'x.json', '--seed', '3'], /unknown flag --seed; known flags: --input, --backend, --estimator, --estimatorTimeout, --help/],
  ])('rejects the flags %j naming the flag', (args, message) => {
    expect(() => parseAdvantagesArgs(args)).toThrow(UsageError);
    expect(() => parseAdvantagesArgs(args)).toThrow(message);
  });

  it.each([
    ['an unreadable file', null, /--input: cannot read/],
    ['not JSON', '{groups: ', /input is not valid JSON/],
    ['a bad setting', { ...REQUEST, gamma: 1.5 }, /gamma must be a number in \[0, 1\]; got 1.5/],
    [
      'a bad milestone',
      {
        groups: [
          [
            { reward: 1, milestones: [0, 2] },
            { reward: 0, milestones: [0] },
          ],
        ],
      },
      /groups\[0\]\[0\]\.milestones\[1\] must be 0 or 1/,
    ],
    ['a group of one run', { groups: [[{ reward: 1, milestones: [1] }]] }, /groups\[0\] must be an array of at least 2 runs/],
    [
      'GiGPO without state keys',
      {
        method: 'gigpo',
        groups: [
          [
            { reward: 1, milestones: [0, 1] },
            { reward: 0, milestones: [0] },
          ],
        ],
      },
      /groups\[0\]\[0\]\.stateKeys is missing: gigpo needs one state key/,
    ],
    [
      'state keys of the wrong length',
      {
        method: 'gigpo',
        groups: [
          [
            { reward: 1, milestones: [0, 1], stateKeys: ['a'] },
            { reward: 0, stateKeys: ['a'] },
          ],
        ],
      },
      /groups\[0\]\[0\]\.stateKeys has 1 entries but groups\[0\]\[0\]\.milestones has 2/,
    ],
    [
      'a state key that is not a string',
      {
        method: 'gigpo',
        groups: [
          [
            { reward: 1, stateKeys: ['a', 3] },
            { reward: 0, stateKeys: ['a'] },
          ],
        ],
      },
      /groups\[0\]\[0\]\.stateKeys\[1\] must be a string; got 3/,
    ],
    ['an unknown variant', { ...REQUEST, variant: 'v2' }, /variant must be one of paper, released; got "v2"/],
    ['a bad omega', { ...GIGPO_REQUEST, omega: -1 }, /omega must be a number in \[0, 10\]; got -1/],
    [
      'critic PPO without values',
      {
        method: 'ppo',
        groups: [
          [
            { reward: 1, milestones: [0, 1] },
            { reward: 0, milestones: [0] },
          ],
        ],
      },
      /groups\[0\]\[0\]\.values is missing: ppo needs one value estimate per step/,
    ],
  ])('rejects input with %s naming the field', (name, json, message) => {
    const path = json === null ? join(dir, 'missing.json') : inputFile(`${name.replace(/\W/g, '-')}.json`, json);
    expect(() => readAdvantageRequest(path)).toThrow(message);
  });

  it('exits with 2 and the message for a bad flag, and for bad input on the webgpu path', async () => {
    const flag = await run(['--input', 'x.json', '--backend', 'gpu']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--backend must be one of webgpu, wasm, cpu/);
    expect(flag.stdout).toBe('');
    const input = await run(['--input', inputFile('bad-gamma.json', { ...REQUEST, gamma: 2 }), '--backend', 'webgpu']);
    expect(input.code).toBe(2);
    expect(input.stderr).toMatch(/gamma must be a number in \[0, 1\]; got 2/);
    expect(input.stdout).toBe('');
  });
});

describe('the calculator under the detector settings (docs/maths.md §6)', () => {
  /** One group: a solved run with milestones at steps 1, 3, 5 and a failed run with one at step 1. */
  const groups = [
    [
      { reward: 1, milestones: [0, 1, 0, 1, 0, 1] },
      { reward: 0, milestones: [0, 1, 0, 0] },
    ],
  ];
  const seen = (json: object) => {
    const request = parseAdvantageRequest({ groups, ...json });
    const out = formatAdvantageResponse(request, methodSpec('beacon').estimate(request.batch, request.settings));
    return out.groups[0].map((r) => ({ seen: r.milestonesSeen, segment: r.segmentAdvantages }));
  };

  it('writes what Φ said at the defaults, as before (no milestonesSeen)', () => {
    expect(seen({})[0].seen).toBeUndefined();
  });

  it('shows the milestones the method sees, and its advantages follow them', () => {
    const plain = seen({});
    expect(seen({ milestoneStride: 2 }).map((r) => r.seen)).toEqual([
      [0, 0, 0, 1, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(seen({ milestoneDelay: 1 }).map((r) => r.seen)).toEqual([
      [0, 0, 1, 0, 1, 1],
      [0, 0, 1, 0],
    ]);
    expect(seen({ milestoneStride: 2 })[1].segment).toEqual([0, 0, 0, 0]);
    expect(plain[1].segment).not.toEqual([0, 0, 0, 0]);
    // False alarms draw from the detector stream of `seed`: the same seed, the same alarms; fires are kept.
    const alarms = seen({ milestoneFalseAlarms: 0.5, seed: 3 });
    expect(seen({ milestoneFalseAlarms: 0.5, seed: 3 })).toEqual(alarms);
    expect((alarms[0].seen as number[]).filter((x, t) => x === 1 && groups[0][0].milestones[t] === 0).length).toBeGreaterThan(0);
    for (const [t, m] of groups[0][0].milestones.entries()) if (m) expect((alarms[0].seen as number[])[t]).toBe(1);
  });

  it('takes the loose and fine detectors’ readings per step', () => {
    const events = (loose: number[][], key: 'looseEvents' | 'fineEvents') => groups.map((g) => g.map((run, i) => ({ ...run, [key]: loose[i] })));
    const loose = parseAdvantageRequest({
      looseMilestones: true,
      groups: events(
        [
          [1, 1, 1, 1, 0, 1],
          [1, 1, 1, 1],
        ],
        'looseEvents',
      ),
    });
    expect(Array.from(loose.milestonesSeen!)).toEqual([1, 1, 1, 1, 0, 1, 1, 1, 1, 1]);
    const fine = parseAdvantageRequest({
      fineMilestones: true,
      groups: events(
        [
          [1, 0, 1, 0, 0, 0],
          [1, 0, 0, 0],
        ],
        'fineEvents',
      ),
    });
    expect(Array.from(fine.milestonesSeen!)).toEqual([1, 1, 1, 1, 0, 1, 1, 1, 0, 0]);
  });

  it.each<[object, RegExp]>([
    [{ milestoneStride: 0 }, /milestoneStride must be an integer in \[1, 8\]; got 0/],
    [{ milestoneFalseAlarms: '0.1' }, /milestoneFalseAlarms must be a number in \[0, 1\]; got "0.1"/],
    [{ milestoneDelay: 65 }, /milestoneDelay must be an integer in \[0, 64\]; got 65/],
    [{ looseMilestones: 1 }, /looseMilestones must be true or false; got 1/],
    [{ looseMilestones: true }, /looseMilestones needs looseEvents in every run/],
    [{ looseMilestones: true, fineMilestones: true }, /two different detectors/],
    [{ demoNoise: 0.1 }, /demoNoise is the teacher’s slip rate/],
  ])('refuses %j, naming the field', (json, message) => {
    expect(() => parseAdvantageRequest({ groups, ...json })).toThrow(message);
  });

  it('refuses readings of a detector that is off', () => {
    expect(() =>
      parseAdvantageRequest({
        groups: [
          [
            { reward: 1, milestones: [1], fineEvents: [1] },
            { reward: 0, milestones: [0], fineEvents: [0] },
          ],
        ],
      }),
    ).toThrow(/fineEvents are read only with fineMilestones: true/);
  });
});
