/**
 * The GPU study (`npm run study -- --backend webgpu`) trains a cell's seeds together through SeedRuns;
 * each seed's result equals the seed's cell trained alone on webgpu (Dawn; SwiftShader here), its
 * timings aside, and names its backend and adapter. Cells group a matrix's runs by everything but the seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../cli/register-gradients.ts';
import { initNodeBackend, type NodeBackend } from '../../cli/node-backend.ts';
import { cellsOf, trainCell } from '../../cli/study-gpu-cells.ts';
import { runSpec } from '../../src/study/matrix.ts';
import type { StudyBudget } from '../../src/study/profile.ts';
import type { RunResult } from '../../src/study/summary.ts';

const BUDGET: StudyBudget = { tasksPerIteration: 2, groupSize: 2, hiddenSize: 8, limitIterations: 2, maxIters: 3 };

let backend: NodeBackend;
beforeAll(async () => {
  try {
    backend = await initNodeBackend('webgpu');
  } catch (e) {
    throw new Error(`this test needs tfjs on WebGPU (Dawn; Chromium's SwiftShader driver without a GPU): ${(e as Error).message}`);
  }
});
afterAll(() => backend?.close());

/** A result without what depends on the clock. */
function figures(r: RunResult) {
  const { seconds: _s, cost: _c, learnMsPerKiloStep: _l, secondsPerIteration: _p, ...rest } = r;
  return rest;
}

describe('GPU study cells', () => {
  it('groups runs by cell, seeds in order', () => {
    const a = [runSpec('gridhouse', 'short', 'grpo', 102), runSpec('shop', 'long', 'beacon', 101), runSpec('gridhouse', 'short', 'grpo', 101)];
    expect(cellsOf(a).map((c) => c.map((s) => `${s.env}/${s.variant}/${s.seed}`))).toEqual([['gridhouse/grpo/101', 'gridhouse/grpo/102'], ['shop/beacon/101']]);
  });

  it("a cell's seeds trained together give each seed's results trained alone, naming backend and adapter", async () => {
    const specs = [runSpec('gridhouse', 'tiny', 'beacon', 101), runSpec('gridhouse', 'tiny', 'beacon', 102)];
    const together = await trainCell(specs, BUDGET, backend);
    const alone = [await trainCell([specs[0]], BUDGET, backend), await trainCell([specs[1]], BUDGET, backend)].flat();
    expect(together.map((r) => r.key)).toEqual(['gridhouse-tiny-beacon-s101', 'gridhouse-tiny-beacon-s102']);
    for (const [i, r] of together.entries()) {
      expect(r.backend).toBe('webgpu');
      expect(r.adapter).toBe(backend.adapter ?? 'unknown adapter');
      expect(r.iterations).toBeGreaterThan(0);
      expect(r.envSteps).toBeGreaterThanOrEqual(Math.min(r.envStepBudget, 1));
      expect(figures(r)).toEqual(figures(alone[i]));
    }
    // The two seeds differ: the comparison above could fail.
    expect(together[0].curves).not.toEqual(together[1].curves);
  }, 600_000);
});
