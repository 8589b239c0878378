/**
 * The deduplicated policy computes the same function as embedding every (step, candidate) pair: log-
 * probabilities, entropies and gradients match a plain reference to float32 precision, on cpu and wasm
 * (webgpu: policy-webgpu.test.ts). Also: candidate deduplication itself, and flat tensor counts.
 */
import '../../cli/register-gradients.ts';
import { describe, expect, it } from 'vitest';
import { initBackend } from '../../src/backend/node-webgpu.ts';
import { dedupeRows, pickIndices } from '../../src/policy/candidate-table.ts';
import { expectMatchesReference, expectNoLeak } from '../support/policy-reference.ts';

describe('candidate table', () => {
  it('numbers distinct rows in order of first appearance and maps every row to an equal one', () => {
    const data = Float32Array.from([1, 2, 3, 4, 1, 2, 0, 0, 3, 4, -0, 0]);
    const t = dedupeRows(data, 2);
    expect(Array.from(t.rowOf)).toEqual([0, 1, 0, 2, 1, 3]); // -0 and +0 differ in bits: two rows
    expect(Array.from(t.rows)).toEqual([1, 2, 3, 4, 0, 0, -0, 0]);
    expect(Array.from(pickIndices(t.rowOf, 2, t.count, [2, 0]))).toEqual([0 * 4 + 1, 0 * 4 + 3, 1 * 4 + 0, 1 * 4 + 1]);
  });
});

for (const backend of ['cpu', 'wasm'] as const) {
  describe(`policy on ${backend}`, () => {
    it('deduplicated logits, entropies and gradients match the every-pair reference to float32 precision', async () => {
      expect((await initBackend(backend, { strict: true })).backend).toBe(backend);
      await expectMatchesReference();
    });

    it('leaves no tensors behind', async () => {
      await initBackend(backend, { strict: true });
      await expectNoLeak();
    });
  });
}
