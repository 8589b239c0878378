/**
 * The policy in plain arithmetic (src/policy/plain-policy.ts), the CPU twin that checks a GPU
 * rollout's log-probabilities, against the tfjs policy itself (its reference, Policy.logits, on the
 * cpu backend): the log-probability of every admissible candidate of every step, masked candidates
 * excluded, candidate rows repeated across steps.
 */
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../src/backend/node-webgpu.ts';
import { dedupeRows } from '../../src/policy/candidate-table.ts';
import { PlainPolicy } from '../../src/policy/plain-policy.ts';
import { Rng } from '../../src/prng.ts';
import { A, M, makeData, makePolicy, referenceLogits, shape } from '../support/policy-reference.ts';

beforeAll(async () => {
  await initBackend('cpu');
});

describe('the policy in plain arithmetic', () => {
  it.each([1, 2, 3])('gives the tfjs policy’s log-probabilities to 1e-5 (seed %i)', async (seed) => {
    const policy = makePolicy(seed);
    // Away from the initial zero biases, so every weight shows in the logits.
    tf.tidy(() => policy.variables.forEach((v, i) => v.assign(tf.add(v, tf.fill(v.shape, 0.03 * (i + 1))))));
    try {
      const { obs, features, mask } = makeData(new Rng(100 + seed));
      const want = tf.tidy(() =>
        tf.logSoftmax(referenceLogits(policy, tf.tensor2d(obs, [M, shape.obsDim]), tf.tensor3d(features, [M, A, shape.actionDim]), tf.tensor2d(mask, [M, A]))),
      );
      const reference = (await want.data()) as Float32Array;
      want.dispose();
      const flat = Float32Array.from((await policy.weights()).flatMap((w) => Array.from(w)));
      const plain = new PlainPolicy(flat, shape);
      const table = dedupeRows(features, shape.actionDim);
      let compared = 0;
      for (let m = 0; m < M; m++) {
        const rows = Array.from({ length: A }, (_, a) => (mask[m * A + a] ? table.rowOf[m * A + a] : -1));
        const h = plain.observation(obs, m * shape.obsDim);
        for (let a = 0; a < A; a++) {
          const got = plain.logProb(h, table.rows, rows, a);
          if (!mask[m * A + a]) {
            expect(got).toBe(-Infinity);
            continue;
          }
          expect(Math.abs(got - reference[m * A + a]), `step ${m}, candidate ${a}`).toBeLessThanOrEqual(1e-5);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(M * 2);
      expect(() => new PlainPolicy(flat.subarray(1), shape)).toThrow(/has \d+ weights; got/);
    } finally {
      policy.dispose();
    }
  });
});
