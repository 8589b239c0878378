/**
 * The reliability suite, small (bench/reliability-checks.ts and bench/reliability-fuzz.ts; `npm run
 * reliability` runs it at full size and writes docs/reliability.md): a soak with checkpoint round
 * trips whose tensor count stays flat, the three fuzzers with 0 crashes, 0 stack traces and every
 * rejection named, a NaN / ±Inf batch that halts the run with its weights intact, and a kill inside a
 * checkpoint write.
 */
import '@tensorflow/tfjs-backend-cpu';
import '../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { killDuringWrite, nonFiniteBatch, soak } from '../bench/reliability-checks.ts';
import { fuzzAdvantageInputs, fuzzTrainFlags, fuzzUrlQueries } from '../bench/reliability-fuzz.ts';
import { initBackend } from '../src/backend/node-webgpu.ts';
import { readPageState } from '../src/page/url-state.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../src/config.ts';
import { cpuAdvantageEngine } from '../src/engine/advantage-engine.ts';
import { ROOT } from '../scripts/cli.ts';

const SMALL: TrainConfig = { ...DEFAULT_CONFIG, horizon: 'tiny', tasksPerIteration: 2, groupSize: 2, hiddenSize: 8, sftEpisodes: 0, backend: 'wasm' };

describe('reliability (short)', () => {
  beforeAll(async () => {
    await initBackend('wasm', { strict: true });
  });

  it('soaks 60 iterations through 3 checkpoint round trips with a flat tensor count', async () => {
    const r = await soak({ ...SMALL, iters: 60 }, () => cpuAdvantageEngine, 10, 15);
    expect(r.checkpointRoundTrips).toBe(3);
    expect(r.samples).toHaveLength(6);
    expect(r.tensorSpread).toBe(0);
  });

  it.each([
    ['URL queries', () => fuzzUrlQueries(1000, 7)],
    ['train flags', () => fuzzTrainFlags(300, 7)],
    ['advantages inputs', () => fuzzAdvantageInputs(300, 7)],
  ])('fuzzes %s: no crash, no stack trace, every rejection named', (_name, fuzz) => {
    const r = fuzz();
    expect(r.examples).toEqual([]);
    expect([r.crashes, r.stackTraces, r.unnamed]).toEqual([0, 0, 0]);
    expect(r.accepted).toBeGreaterThan(0); // the generators reach the accepting paths too
    expect(r.rejected).toBeGreaterThan(0);
  });

  it('reads keys that name Object.prototype members as unknown settings (a fuzz finding)', () => {
    for (const key of ['constructor', 'toString', '__proto__']) {
      const { issues } = readPageState(`${key}=1`);
      expect(issues).toHaveLength(1);
      expect(issues[0].message).toMatch(new RegExp(`^unknown setting "${key}"`));
    }
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'halts on %s in a batch, with the last good weights and a message',
    async (value) => {
      const f = await nonFiniteBatch(SMALL, value);
      expect(f).toMatchObject({ halted: true, weightsIntact: true, iterations: 1 });
      expect(f.message).toMatch(/^training stopped at iteration 2: non-finite loss/);
    },
  );

  it('keeps the previous checkpoint whole when the writer is killed between write and rename', async () => {
    expect(await killDuringWrite(SMALL, ROOT)).toEqual({ killedBySignal: true, previousIntact: true, previousReadable: true });
  });
});
