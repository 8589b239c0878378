/**
 * The policy's plain reference (every (step, candidate) pair through the candidate tower, as the policy
 * was first written) and random inputs with repeated candidates, shared by the policy parity tests.
 */
import * as tf from '@tensorflow/tfjs-core';
import { expect } from 'vitest';
import { dedupeRows, pickIndices } from '../../src/policy/candidate-table.ts';
import { Policy, type PolicyInput } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';

/** The policy as first written: every pair through the candidate tower, scores by mul + sum. */
export function referenceLogits(policy: Policy, obs: tf.Tensor2D, features: tf.Tensor3D, mask: tf.Tensor2D): tf.Tensor2D {
  const [w1, b1, w2, b2, v1, c1, v2, c2] = policy.variables;
  const [b, a, d] = features.shape;
  const h = tf.tanh(tf.add(tf.matMul(tf.tanh(tf.add(tf.matMul(obs, w1), b1)), w2), b2));
  const e = tf.add(tf.matMul(tf.tanh(tf.add(tf.matMul(tf.reshape(features, [b * a, d]), v1), c1)), v2), c2);
  const scores = tf.mul(tf.sum(tf.mul(tf.reshape(e, [b, a, -1]), tf.expandDims(h, 1)), 2), 1 / Math.sqrt(policy.shape.hiddenSize));
  return tf.where(tf.cast(mask, 'bool'), scores, tf.fill([b, a], -1e9)) as tf.Tensor2D;
}

export const M = 40;
export const A = 6;
export const shape = { obsDim: 7, actionDim: 5, hiddenSize: 16 };

/** Random steps whose candidates repeat (drawn from 9 distinct rows) and some of which are masked. */
export function makeData(rng: Rng) {
  const palette = Array.from({ length: 9 }, () => Array.from({ length: shape.actionDim }, () => rng.nextFloat() * 2 - 1));
  const obs = Float32Array.from({ length: M * shape.obsDim }, () => rng.nextFloat() * 2 - 1);
  const features = new Float32Array(M * A * shape.actionDim);
  const mask = new Uint8Array(M * A);
  for (let p = 0; p < M * A; p++) {
    features.set(palette[Math.floor(rng.nextFloat() * palette.length)], p * shape.actionDim);
    mask[p] = p % A === 0 || rng.nextFloat() < 0.6 ? 1 : 0;
  }
  const weights = Float32Array.from({ length: M * A }, (_, p) => (mask[p] ? rng.nextFloat() * 2 - 1 : 0));
  return { obs, features, mask, weights };
}

export function makePolicy(seed: number): Policy {
  const policy = new Policy(shape, new Rng(seed));
  const rng = new Rng(seed + 100);
  for (const v of policy.variables) if (v.shape.length === 1) v.assign(tf.tensor1d(Float32Array.from({ length: v.shape[0] }, () => rng.nextFloat() - 0.5)));
  return policy;
}

/** log p, entropy per step, and the gradient of Σ w · log p + Σ entropy, by either implementation. */
export async function evaluate(policy: Policy, data: ReturnType<typeof makeData>, reference: boolean) {
  const out = tf.tidy(() => {
    const mask = tf.tensor2d(data.mask, [M, A], 'bool');
    const logitsOf = () => {
      if (reference)
        return referenceLogits(
          policy,
          tf.tensor2d(data.obs, [M, shape.obsDim]),
          tf.tensor3d(data.features, [M, A, shape.actionDim]),
          tf.cast(mask, 'float32') as tf.Tensor2D,
        );
      const table = dedupeRows(data.features, shape.actionDim);
      const input: PolicyInput = {
        obs: tf.tensor2d(data.obs, [M, shape.obsDim]),
        candidates: tf.tensor2d(table.rows, [table.count, shape.actionDim]),
        pick: tf.tensor1d(pickIndices(table.rowOf, A, table.count), 'int32'),
        mask,
      };
      return policy.logits(input);
    };
    const { grads } = tf.variableGrads(() => {
      const logp = tf.logSoftmax(logitsOf());
      const entropy = tf.neg(tf.sum(tf.mul(tf.exp(logp), logp)));
      return tf.add(tf.sum(tf.mul(logp, tf.tensor2d(data.weights, [M, A]))), entropy) as tf.Scalar;
    }, policy.variables);
    const logp = tf.logSoftmax(logitsOf());
    const entropy = tf.neg(tf.sum(tf.mul(tf.exp(logp), logp), 1));
    return [logp, entropy, ...policy.variables.map((v) => grads[v.name])];
  });
  const arrays = await Promise.all(out.map(async (t) => Array.from(await t.data())));
  tf.dispose(out);
  return { logp: arrays[0], entropy: arrays[1], grads: arrays.slice(2) };
}

export function expectClose(actual: number[], expected: number[], tol: number) {
  expect(actual.length).toBe(expected.length);
  const scale = Math.max(1, ...expected.map(Math.abs));
  const worst = Math.max(...actual.map((x, i) => Math.abs(x - expected[i])));
  expect(worst).toBeLessThan(tol * scale);
}

/** Three seeds of weights and data: log p, entropy and gradients match the reference. */
export async function expectMatchesReference(): Promise<void> {
  for (const seed of [1, 2, 3]) {
    const policy = makePolicy(seed);
    const data = makeData(new Rng(seed + 7));
    const ref = await evaluate(policy, data, true);
    const got = await evaluate(policy, data, false);
    const admissible = (xs: number[]) => xs.filter((_, p) => data.mask[p]);
    expectClose(admissible(got.logp), admissible(ref.logp), 1e-5);
    expect(got.logp.every((x, p) => data.mask[p] || x < -1e8)).toBe(true);
    expectClose(got.entropy, ref.entropy, 1e-5);
    got.grads.forEach((g, i) => expectClose(g, ref.grads[i], 1e-4));
    policy.dispose();
  }
}

/** Forward and backward passes leave the tensor count where it was. */
export async function expectNoLeak(): Promise<void> {
  const policy = makePolicy(4);
  const data = makeData(new Rng(5));
  await evaluate(policy, data, false);
  const before = tf.memory().numTensors;
  for (let i = 0; i < 3; i++) await evaluate(policy, data, false);
  expect(tf.memory().numTensors).toBe(before);
  policy.dispose();
}
