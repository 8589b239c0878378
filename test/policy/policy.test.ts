/**
 * The deduplicated policy computes the same function as embedding every (step, candidate) pair: log-
 * probabilities, entropies and gradients match a plain reference to float32 precision, on cpu and wasm
 * (webgpu: policy-webgpu.test.ts). Acting (the Actor of a rollout) gives exactly the training forward's
 * logits. Also: candidate deduplication itself, and flat tensor counts.
 */
import '../../cli/register-gradients.ts';
import { describe, expect, it } from 'vitest';
import { initBackend } from '../../src/backend/node-webgpu.ts';
import * as tf from '@tensorflow/tfjs-core';
import { CandidateDictionary, dedupeRows, pickIndices, renumberByFirstUse } from '../../src/policy/candidate-table.ts';
import { Rng } from '../../src/prng.ts';
import { A, expectMatchesReference, expectNoLeak, M, makeData, makePolicy, shape } from '../support/policy-reference.ts';

describe('candidate table', () => {
  it('numbers distinct rows in order of first appearance and maps every row to an equal one', () => {
    const data = Float32Array.from([1, 2, 3, 4, 1, 2, 0, 0, 3, 4, -0, 0]);
    const t = dedupeRows(data, 2);
    expect(Array.from(t.rowOf)).toEqual([0, 1, 0, 2, 1, 3]); // -0 and +0 differ in bits: two rows
    expect(Array.from(t.rows)).toEqual([1, 2, 3, 4, 0, 0, -0, 0]);
    expect(Array.from(pickIndices(t.rowOf, 2, t.count, [2, 0]))).toEqual([0 * 4 + 1, 0 * 4 + 3, 1 * 4 + 0, 1 * 4 + 1]);
  });

  it('a dictionary fed step by step, renumbered by first use, gives the table of deduplicating the used rows at once', () => {
    const { features } = makeData(new Rng(3));
    const stepRows = shape.actionDim * A; // floats per step
    const dictionary = new CandidateDictionary(shape.actionDim);
    const ids = new Int32Array(M * A).fill(-1);
    // Steps arrive in an order other than the batch's, and some rows are skipped (finished episodes).
    const order = Array.from({ length: M }, (_, m) => (m * 7) % M);
    const skipped = (m: number, a: number) => (m + a) % 5 === 0;
    for (const m of order) {
      const stepIds = new Int32Array(A).fill(-1);
      dictionary.addRows(features.subarray(m * stepRows, (m + 1) * stepRows), stepIds, (a) => skipped(m, a));
      ids.set(stepIds, m * A);
    }
    const used = Array.from({ length: M * A }, (_, p) => p).filter((p) => !skipped(Math.floor(p / A), p % A));
    for (const p of used) expect(ids[p]).toBeGreaterThanOrEqual(0);
    expect(used.length).toBeLessThan(M * A);
    // The used pairs, as one batch: their features, and their ids in the shared dictionary.
    const usedFeatures = new Float32Array(used.length * shape.actionDim);
    used.forEach((p, i) => usedFeatures.set(features.subarray(p * shape.actionDim, (p + 1) * shape.actionDim), i * shape.actionDim));
    const renumbered = renumberByFirstUse(
      Int32Array.from(used, (p) => ids[p]),
      dictionary.rows(),
      shape.actionDim,
    );
    const direct = dedupeRows(usedFeatures, shape.actionDim);
    expect(renumbered.count).toBe(direct.count);
    expect(Array.from(renumbered.rowOf)).toEqual(Array.from(direct.rowOf));
    expect(Array.from(renumbered.rows)).toEqual(Array.from(direct.rows));
    // Rows from an id on: the dictionary's tail, as embedded when it grows.
    expect(Array.from(dictionary.rows(2))).toEqual(Array.from(dictionary.rows()).slice(2 * shape.actionDim));
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

    it('acting gives exactly the logits of the training forward pass, step after step, and frees what it made', async () => {
      await initBackend(backend, { strict: true });
      const policy = makePolicy(5);
      const { obs, features, mask } = makeData(new Rng(6));
      const before = tf.memory().numTensors;
      const actor = policy.actor();
      const dictionary = new CandidateDictionary(shape.actionDim);
      // Steps of 2 episodes each, as a rollout's: the dictionary grows as steps offer new candidates.
      const rowsPerStep = 2;
      const counts: number[] = [];
      for (let first = 0; first < M; first += rowsPerStep) {
        const n = Math.min(rowsPerStep, M - first);
        const stepFeatures = features.subarray(first * A * shape.actionDim, (first + n) * A * shape.actionDim);
        const ids = new Int32Array(n * A);
        dictionary.addRows(stepFeatures, ids);
        counts.push(dictionary.count);
        const [acting, training] = tf.tidy(() => {
          const obsT = tf.tensor2d(obs.subarray(first * shape.obsDim, (first + n) * shape.obsDim), [n, shape.obsDim]);
          const maskT = tf.tensor2d(mask.subarray(first * A, (first + n) * A), [n, A], 'bool');
          const table = dedupeRows(stepFeatures, shape.actionDim);
          return [
            actor.logits(obsT, dictionary, tf.tensor1d(pickIndices(ids, A, dictionary.count), 'int32'), maskT),
            policy.logits({
              obs: obsT,
              candidates: tf.tensor2d(table.rows, [table.count, shape.actionDim]),
              pick: tf.tensor1d(pickIndices(table.rowOf, A, table.count), 'int32'),
              mask: maskT,
            }),
          ];
        });
        expect(Array.from(await acting.data())).toEqual(Array.from(await training.data()));
        tf.dispose([acting, training]);
      }
      expect(counts[0]).toBeLessThan(counts.at(-1)!); // rows were embedded as they first appeared
      actor.dispose();
      expect(tf.memory().numTensors).toBe(before);
      policy.dispose();
    });
  });
}
