/**
 * The page's run file (src/page/run-file.ts) and the race key of autosaved state (src/page/race-key.ts):
 * a run file round-trips its settings and every panel's checkpoint; every kind of bad file is refused
 * with a message naming what is wrong; the race key ignores what does not define the race.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { methodConfig } from '../../src/page/method-configs.ts';
import { PAGE_DEFAULT_CONFIG } from '../../src/page/page-defaults.ts';
import { DEFAULT_PAGE_SETTINGS } from '../../src/page/page-settings.ts';
import { raceKey } from '../../src/page/race-key.ts';
import { decodeRunFile, encodeRunFile, RunFileError, type RunFilePanel } from '../../src/page/run-file.ts';
import { readPageState } from '../../src/page/url-state.ts';
import { cpuAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { TrainingRun } from '../../src/trainer/run.ts';
import { seal } from '../../src/trainer/sealed-file.ts';
import { decodeSeedCheckpoints, encodeSeedCheckpoints } from '../../src/trainer/seed-checkpoints.ts';

const SETTINGS = 'horizon=tiny&tasksPerIteration=2&groupSize=2&hiddenSize=8&sftEpisodes=0&backend=cpu';
let panels: RunFilePanel[];

beforeAll(async () => {
  await tf.setBackend('cpu');
  const { config } = readPageState(SETTINGS);
  panels = [];
  for (const [method, steps] of [
    ['grpo', 2],
    ['beacon', 1],
  ] as const) {
    const run = new TrainingRun(methodConfig(method, config), cpuAdvantageEngine);
    await run.evaluateStart();
    for (let i = 0; i < steps; i++) await run.step();
    panels.push({ panel: method, iteration: steps, bytes: await run.save() });
    run.dispose();
  }
});

/** A run file with the header `header` and the panels' bytes as its body (to make bad headers). */
const withHeader = (header: unknown) =>
  seal({ magic: 'BEACONRN', schema: 1, noun: 'run file', error: RunFileError }, JSON.stringify(header), panels[0].bytes.byteLength, (body) =>
    new Uint8Array(body.buffer, body.byteOffset, body.byteLength).set(new Uint8Array(panels[0].bytes)),
  );
const goodHeader = () => ({
  schema: 1,
  kind: 'beacon-live run file',
  savedAt: '2026-01-01T00:00:00.000Z',
  settings: SETTINGS,
  panels: [{ panel: 'grpo', iteration: 2, offset: 0, length: panels[0].bytes.byteLength }],
});

describe('run file', () => {
  it('round-trips the settings and every panel, byte for byte', async () => {
    const bytes = await encodeRunFile(SETTINGS, panels, new Date('2026-02-03T04:05:06Z'));
    const file = await decodeRunFile(bytes);
    expect(file.settings).toBe(SETTINGS);
    expect(file.savedAt).toBe('2026-02-03T04:05:06.000Z');
    expect(file.state.config.hiddenSize).toBe(8);
    expect(file.state.page.methods).toEqual(DEFAULT_PAGE_SETTINGS.methods);
    expect(file.panels.map((p) => [p.panel, p.iteration])).toEqual([
      ['grpo', 2],
      ['beacon', 1],
    ]);
    for (const [i, p] of file.panels.entries()) expect(new Uint8Array(p.bytes)).toEqual(new Uint8Array(panels[i].bytes));
    // A panel continues: its checkpoint opens as a run at the saved iteration.
    const run = await TrainingRun.open(file.panels[0].bytes, cpuAdvantageEngine);
    expect(run.iteration).toBe(2);
    expect(run.recordHistory.map((r) => r.iteration)).toEqual([0, 1, 2]);
    run.dispose();
  });

  const flip = (b: ArrayBuffer, at: number) => {
    const c = new Uint8Array(b.slice(0));
    c[at < 0 ? c.length + at : at] ^= 1;
    return c.buffer;
  };
  it.each([
    ['empty', async () => new ArrayBuffer(0), /^truncated: 0 bytes, fewer than the 52-byte preamble of a run file$/],
    ['a checkpoint, not a run file', async () => panels[0].bytes, /^not a Beacon Live run file: it does not start with "BEACONRN"$/],
    ['cut short', async () => (await encodeRunFile(SETTINGS, panels)).slice(0, 500), /^truncated: 500 bytes, where its preamble announces \d+$/],
    ['a flipped byte', async () => flip(await encodeRunFile(SETTINGS, panels), -5), /^checksum mismatch: the file is corrupted/],
    [
      'another schema',
      async () => {
        const b = await encodeRunFile(SETTINGS, panels);
        new DataView(b).setUint32(8, 2, true);
        return b;
      },
      /^schema version 2; this build reads run files of schema version 1 only$/,
    ],
    [
      'a bad setting',
      async () => withHeader({ ...goodHeader(), settings: `${SETTINGS}&gamma=7` }),
      /^header field settings has a setting this build does not accept: gamma: gamma must be a number in \[0, 1\]; got "7"/,
    ],
    [
      'an unknown setting',
      async () => withHeader({ ...goodHeader(), settings: 'bogus=1' }),
      /^header field settings has a setting this build does not accept: bogus: unknown setting "bogus"/,
    ],
    [
      'a panel that is not raced',
      async () => withHeader({ ...goodHeader(), panels: [{ ...goodHeader().panels[0], panel: 'ppo' }] }),
      /^header field panels\[0\]\.panel must be one of the raced methods \(grpo, beacon\), got "ppo"$/,
    ],
    [
      'a negative iteration',
      async () => withHeader({ ...goodHeader(), panels: [{ ...goodHeader().panels[0], iteration: -1 }] }),
      /^header field panels\[0\]\.iteration must be a non-negative integer, got -1$/,
    ],
    [
      'an iteration its checkpoint does not have',
      async () => withHeader({ ...goodHeader(), panels: [{ ...goodHeader().panels[0], iteration: 5 }] }),
      /^header field panels\[0\]\.iteration is 5, its checkpoint's is 2$/,
    ],
    [
      'an extent outside the body',
      async () => withHeader({ ...goodHeader(), panels: [{ ...goodHeader().panels[0], length: 1e9 }] }),
      /^header field panels\[0\] lies outside the body \(\d+ bytes\)$/,
    ],
    [
      'a corrupted checkpoint inside',
      async () => encodeRunFile(SETTINGS, [{ ...panels[0], bytes: flip(panels[0].bytes, -3) }]),
      /^header field panels\[0\] \(grpo\): its checkpoint is unusable: checksum mismatch/,
    ],
    ['no panels', async () => encodeRunFile(SETTINGS, []), /^header field panels must hold at least one panel$/],
    ['another kind', async () => withHeader({ ...goodHeader(), kind: 'x' }), /^header field kind must be "beacon-live run file", got "x"$/],
  ])('refuses %s, saying what is wrong', async (_name, make, message) => {
    const bytes = await make();
    const e = await decodeRunFile(bytes).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(RunFileError);
    expect((e as Error).message).toMatch(message);
  });
});

describe('race key', () => {
  const key = (q: string) => raceKey(readPageState(q));
  it("holds every seed of a panel, and refuses a panel whose seed count is not the settings' seeds", async () => {
    const twoSeeds = `${SETTINGS}&seeds=2`;
    const states = [];
    for (const seed of [1, 2]) {
      const run = new TrainingRun(methodConfig('grpo', { ...readPageState(twoSeeds).config, seed }), cpuAdvantageEngine);
      await run.step();
      states.push(await run.state());
      run.dispose();
    }
    const bundle = await encodeSeedCheckpoints(states);
    const file = await decodeRunFile(await encodeRunFile(twoSeeds, [{ panel: 'grpo', iteration: 1, bytes: bundle }]));
    expect((await decodeSeedCheckpoints(file.panels[0].bytes)).map((s) => s.config.seed)).toEqual([1, 2]);
    await expect(decodeRunFile(await encodeRunFile(twoSeeds, [{ panel: 'grpo', iteration: 2, bytes: panels[0].bytes }]))).rejects.toThrow(
      /panels\[0\].*holds 1 seed\(s\), the settings ask for 2/,
    );
  });

  it('is the same for the same race whatever the view, backend or live settings', () => {
    expect(key('horizon=tiny')).toBe(key('horizon=tiny&speed=fast&smoothing=0.5&present=true&autostart=false&backend=cpu&learningRate=0.01'));
    expect(key('')).toBe('');
  });
  it('differs when the race differs: a shaping setting or the raced methods', () => {
    expect(key('horizon=tiny')).not.toBe(key('horizon=short'));
    expect(key('hiddenSize=8')).not.toBe(key(''));
    expect(key('methods=grpo,beacon')).not.toBe(key('methods=beacon,ppo'));
    expect(PAGE_DEFAULT_CONFIG.hiddenSize).not.toBe(8);
  });
});
