/**
 * Node's estimator sandbox: each way a visitor's code can fail gives an EstimatorError of its kind with
 * a message that names what went wrong (the line, the group, run and step, how long it ran), and a
 * hang is stopped at the time limit without stopping the next call.
 */
import { describe, expect, it } from 'vitest';
import { nodeEstimatorSandbox } from '../../cli/estimator-sandbox.ts';
import type { AdvantageBatch } from '../../src/advantages/types.ts';
import { EstimatorError } from '../../src/estimator/failure.ts';
import { GRPO_TEMPLATE } from '../../src/estimator/templates.ts';

/** Two groups of two runs: lengths 3, 2 | 4, 1; group 0 split by reward. */
const batch: AdvantageBatch = {
  groupOffsets: Int32Array.from([0, 2, 4]),
  runOffsets: Int32Array.from([0, 3, 5, 9, 10]),
  milestones: Uint8Array.from([0, 1, 0, 0, 0, 1, 0, 0, 1, 0]),
  rewards: Float64Array.from([1, 0, 0, 0]),
  stateKeys: Uint32Array.from([5, 6, 7, 5, 6, 1, 2, 3, 4, 1]),
};
const settings = { method: 'custom', gamma: 0.95, lambda: 1, rMs: 1, normalize: 'meanStd' };

async function failure(source: string, timeoutS = 10): Promise<EstimatorError> {
  const sandbox = nodeEstimatorSandbox(source, timeoutS);
  try {
    await sandbox.estimate(batch, settings);
  } catch (e) {
    expect(e).toBeInstanceOf(EstimatorError);
    return e as EstimatorError;
  } finally {
    sandbox.dispose();
  }
  throw new Error('the estimator did not fail');
}

describe('the Node estimator sandbox', () => {
  it('hands the batch over as typed-array views and takes numbers or per-step arrays back', async () => {
    const sandbox = nodeEstimatorSandbox(`export default function estimate(batch, settings) {
      const r = batch.groups[1][0];
      if (!(r.milestones instanceof Uint8Array) || !(r.stateKeys instanceof Uint32Array)) throw new Error('not typed arrays');
      return batch.groups.map((runs, g) => runs.map((run, i) => i === 0 ? g + settings.lambda : Array.from(run.stateKeys, (k) => k + run.length + run.milestonesReached)));
    }`);
    const a = await sandbox.estimate(batch, settings);
    sandbox.dispose();
    // Run (0,0): 1 on its 3 steps; run (0,1): keys 5,6 + length 2 + 0 reached; run (1,0): 2 on 4 steps; run (1,1): key 1 + length 1 + 0 reached.
    expect(Array.from(a)).toEqual([1, 1, 1, 7, 8, 2, 2, 2, 2, 2]);
  });

  it('GRPO as a template gives the group-normalised rewards', async () => {
    const sandbox = nodeEstimatorSandbox(GRPO_TEMPLATE);
    const a = await sandbox.estimate(batch, settings);
    sandbox.dispose();
    const z = 0.5 / (Math.SQRT1_2 + 1e-6); // (1 − mean 0.5) / (sample std √0.5 + ε)
    expect(Array.from(a.subarray(0, 5))).toEqual([z, z, z, -z, -z]);
    expect(Array.from(a.subarray(5))).toEqual([0, 0, 0, 0, 0]);
  });

  it('no default export', async () => {
    const e = await failure('export const estimate = () => 0;');
    expect(e.kind).toBe('noDefault');
    expect(e.message).toMatch(/no default export function/);
  });

  it('a throw, with its message and line', async () => {
    const e = await failure('export default function estimate(batch) {\n  const x = 1;\n  throw new TypeError("no milestones here");\n}\n');
    expect(e.kind).toBe('throw');
    expect(e.line).toBe(3);
    expect(e.message).toBe('estimate() threw at line 3: TypeError: no milestones here');
  });

  it('code that does not parse', async () => {
    const e = await failure('export default function estimate(batch) {\n  const x = ;\n}\n');
    expect(e.kind).toBe('load');
    expect(e.message).toMatch(/does not load.*SyntaxError/);
  });

  it('a wrong shape names the group, the run, and the expected and actual lengths', async () => {
    const e = await failure(
      'export default (batch) => batch.groups.map((runs, g) => runs.map((run, i) => new Array(g === 1 && i === 0 ? 3 : run.length).fill(0)));',
    );
    expect(e.kind).toBe('shape');
    expect(e.message).toBe('estimate() returned the wrong shape: group 1, run 0: expected 4 advantages (one per step), got 3');
    const groups = await failure('export default (batch) => [[0, 0]];');
    expect(groups.message).toBe('estimate() returned the wrong shape: expected 2 groups, got 1');
  });

  it('a non-finite value names the group, run and step', async () => {
    const e = await failure(
      'export default (batch) => batch.groups.map((runs, g) => runs.map((run, i) => Array.from({ length: run.length }, (_, t) => (g === 0 && i === 1 && t === 1 ? NaN : 0))));',
    );
    expect(e.kind).toBe('nonFinite');
    expect(e.message).toMatch(/^estimate\(\) returned a non-finite advantage at group 0, run 1, step 1: NaN/);
  });

  it('a hang is stopped at the time limit, saying how long it ran, and the next call runs afresh', async () => {
    const sandbox = nodeEstimatorSandbox(
      'let calls = 0;\nexport default (batch) => { if (calls++ === 0) for (;;) {} return batch.groups.map((runs) => runs.map(() => 1)); };',
      0.5,
    );
    const started = performance.now();
    const e = (await sandbox.estimate(batch, settings).catch((x: unknown) => x)) as EstimatorError;
    expect(performance.now() - started).toBeLessThan(5000);
    expect(e).toBeInstanceOf(EstimatorError);
    expect(e.kind).toBe('timeout');
    expect(e.message).toMatch(/^estimate\(\) ran for 0\.\d s without returning, over the time limit of 0\.5 s; it was stopped$/);
    // The worker was terminated: a fresh one loads the module again (calls = 0 again, so it hangs again).
    const again = (await sandbox.estimate(batch, settings).catch((x: unknown) => x)) as EstimatorError;
    expect(again.kind).toBe('timeout');
    sandbox.dispose();
  }, 20_000);
});
