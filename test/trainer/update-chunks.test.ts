/**
 * A minibatch cut into chunks (update-chunks.ts) makes the same update as one pass, up to float
 * summation order, with the same statistics, and leaves no tensor behind.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { Critic } from '../../src/policy/critic.ts';
import { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { behaviourCloning } from '../../src/trainer/behaviour-cloning.ts';
import { criticUpdate } from '../../src/trainer/critic-update.ts';
import { ppoUpdate, type PpoStats } from '../../src/trainer/ppo.ts';
import { chunksOf, chunkSteps, CHUNK_ELEMENTS } from '../../src/trainer/update-chunks.ts';
import { disposePpoBatch, toPpoBatch } from '../../src/trainer/update-batch.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const dims = { obsDim: 5, actionDim: 3, maxActions: 4 };
const STEPS = 50;
const hiddenSize = 8;

/** A random batch of STEPS steps over 6 distinct candidate rows, from the seeded Rng. */
function randomRollout(rng: Rng) {
  const candidates = Float32Array.from({ length: 6 * dims.actionDim }, () => rng.nextFloat() * 2 - 1);
  const candidateRows = Int32Array.from({ length: STEPS * dims.maxActions }, () => Math.floor(rng.nextFloat() * 6));
  const mask = Uint8Array.from({ length: STEPS * dims.maxActions }, (_, i) => (i % dims.maxActions === 0 || rng.nextFloat() < 0.7 ? 1 : 0));
  return {
    obs: Float32Array.from({ length: STEPS * dims.obsDim }, () => rng.nextFloat() * 2 - 1),
    candidates,
    candidateRows,
    mask,
    actions: new Int32Array(STEPS), // candidate 0 is always admissible
    logProbs: Float32Array.from({ length: STEPS }, () => -1 - rng.nextFloat()),
  };
}

async function update(chunkElements: number | undefined): Promise<{ weights: Float32Array[]; stats: PpoStats }> {
  const policy = new Policy({ obsDim: dims.obsDim, actionDim: dims.actionDim, hiddenSize }, new Rng(3));
  // Plain SGD: Adam divides by the gradient's own scale, so float noise in a gradient that is 0 in exact
  // arithmetic (the candidate tower's last bias shifts every candidate alike) would become a full step.
  const optimizer = tf.train.sgd(0.1);
  const rng = new Rng(11);
  const batch = toPpoBatch(randomRollout(rng), dims, tf.tensor1d(Float32Array.from({ length: STEPS }, () => rng.nextFloat() * 2 - 1)));
  const settings = {
    clipRatio: 0.2,
    epochs: 2,
    minibatches: 2,
    entropyCoef: 0.01,
    klCoef: 0.1,
    maxGradNorm: 0.05,
    ...(chunkElements ? { chunkElements } : {}),
  };
  const stats = await ppoUpdate(policy, optimizer, batch, settings, new Rng(5));
  const weights = await policy.weights();
  disposePpoBatch(batch);
  policy.dispose();
  optimizer.dispose();
  return { weights, stats };
}

describe('chunked PPO update', () => {
  it('cuts into near-equal chunks covering every step once, in order', () => {
    expect(chunkSteps(512)).toBe(CHUNK_ELEMENTS / 512);
    const indices = Int32Array.from({ length: 10 }, (_, i) => 9 - i);
    const chunks = chunksOf(indices, 3);
    expect(chunks.map((c) => c.length)).toEqual([2, 3, 2, 3]);
    expect(chunks.flatMap((c) => Array.from(c))).toEqual(Array.from(indices));
    expect(chunksOf(indices, 10)).toHaveLength(1);
  });

  it('equals the one-pass update within float rounding, with the same statistics and no tensor left', async () => {
    const whole = await update(undefined);
    const before = tf.memory().numTensors;
    // 8 values per row (the width is the widest row): 7 steps per chunk, so each 25-step minibatch is 4 chunks.
    const chunked = await update(8 * 7);
    expect(tf.memory().numTensors).toBe(before);
    const moved = whole.weights.some((w, i) => w.some((x, j) => x !== chunked.weights[i][j]));
    expect(moved, 'a chunked update that is bit-identical did not take the chunked path').toBe(true);
    for (let i = 0; i < whole.weights.length; i++) {
      for (let j = 0; j < whole.weights[i].length; j++) expect(chunked.weights[i][j]).toBeCloseTo(whole.weights[i][j], 5);
    }
    for (const key of Object.keys(whole.stats) as (keyof PpoStats)[]) expect(chunked.stats[key]).toBeCloseTo(whole.stats[key], 5);
    expect(whole.stats.gradNorm).toBeGreaterThan(0.05); // clipping is in play, and is applied once per minibatch
  });

  it('the critic and behaviour cloning make the same step chunked as in one pass', async () => {
    const clone = async (chunkElements?: number) => {
      const rollout = randomRollout(new Rng(13));
      const features = new Float32Array(STEPS * dims.maxActions * dims.actionDim);
      rollout.candidateRows.forEach((row, i) =>
        features.set(rollout.candidates.subarray(row * dims.actionDim, (row + 1) * dims.actionDim), i * dims.actionDim),
      );
      const demos = { steps: STEPS, episodes: 5, obs: rollout.obs, features, mask: Float32Array.from(rollout.mask), actions: rollout.actions };
      const policy = new Policy({ obsDim: dims.obsDim, actionDim: dims.actionDim, hiddenSize }, new Rng(3));
      const optimizer = tf.train.sgd(0.1);
      const stats = await behaviourCloning(
        policy,
        optimizer,
        demos,
        { epochs: 2, minibatches: 2, maxGradNorm: 0.05, ...(chunkElements ? { chunkElements } : {}) },
        new Rng(5),
      );
      const weights = await policy.weights();
      policy.dispose();
      optimizer.dispose();
      return { weights, stats: [stats.loss, stats.accuracy] };
    };
    const value = async (chunkElements?: number) => {
      const rng = new Rng(17);
      const critic = new Critic(dims.obsDim, hiddenSize, new Rng(4));
      const optimizer = tf.train.sgd(0.1);
      const obs = Float32Array.from({ length: STEPS * dims.obsDim }, () => rng.nextFloat() * 2 - 1);
      const returns = Float64Array.from({ length: STEPS }, () => rng.nextFloat());
      const loss = await criticUpdate(
        critic,
        optimizer,
        obs,
        returns,
        { epochs: 2, minibatches: 2, valueCoef: 0.5, maxGradNorm: 0.05, ...(chunkElements ? { chunkElements } : {}) },
        new Rng(6),
      );
      const weights = await Promise.all(critic.variables.map((v) => v.data() as Promise<Float32Array>));
      tf.dispose(critic.variables);
      optimizer.dispose();
      return { weights, stats: [loss] };
    };
    for (const update of [clone, value]) {
      const whole = await update();
      const before = tf.memory().numTensors;
      const chunked = await update(hiddenSize * 7);
      expect(tf.memory().numTensors).toBe(before);
      expect(
        whole.weights.some((w, i) => w.some((x, j) => x !== chunked.weights[i][j])),
        `${update.name}: bit-identical, so not chunked`,
      ).toBe(true);
      for (let i = 0; i < whole.weights.length; i++) {
        for (let j = 0; j < whole.weights[i].length; j++) expect(chunked.weights[i][j]).toBeCloseTo(whole.weights[i][j], 5);
      }
      whole.stats.forEach((x, i) => expect(chunked.stats[i]).toBeCloseTo(x, 5));
    }
  });
});
