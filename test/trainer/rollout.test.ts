/**
 * The rollout collector's storage: a rollout's per-step arrays stay intact through the next collect (the
 * trainer's last batch is read while the next one is collected) and are reused by the one after, and
 * its candidate table and ids stand for exactly the features the environment offered.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { describe, expect, it } from 'vitest';
import { createEnv } from '../../envs/index.ts';
import { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { RolloutCollector, type Rollout } from '../../src/trainer/rollout.ts';

const PER_STEP = ['obs', 'candidateRows', 'mask', 'actions', 'logProbs', 'stateKeys', 'milestones'] as const;

function copyOf(r: Rollout): Record<string, number[]> {
  return Object.fromEntries([...PER_STEP, 'candidates'].map((k) => [k, Array.from(r[k as keyof Rollout] as ArrayLike<number>)]));
}

describe('rollout collector', () => {
  it('keeps a rollout intact through the next collect and reuses its storage in the one after', async () => {
    await tf.setBackend('cpu');
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 4 });
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 8 }, new Rng(1));
    const collector = new RolloutCollector(env, policy);
    const rng = new Rng(2);
    const seeds = Uint32Array.from([11, 12]);
    const first = await collector.collect(seeds, 2, rng);
    const saved = copyOf(first);
    const second = await collector.collect(seeds, 2, rng);
    expect(copyOf(first)).toEqual(saved);
    for (const k of PER_STEP) expect(second[k].buffer).not.toBe(first[k].buffer);
    const third = await collector.collect(seeds, 2, rng);
    for (const k of PER_STEP) expect(third[k].buffer).toBe(first[k].buffer);

    // Every recorded id names a row of the rollout's table, and every table row is used.
    const K = third.candidates.length / env.actionDim;
    const used = new Set(third.candidateRows);
    expect(Math.max(...used)).toBe(K - 1);
    expect(used.size).toBe(K);
    policy.dispose();
  });

  it('records the features each step offered, as table rows', async () => {
    await tf.setBackend('cpu');
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 2 });
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 8 }, new Rng(3));
    // Record what the environment offers at each live step, in the collector's order.
    const offered: number[][] = [];
    const step = env.step.bind(env);
    const A = env.maxActions;
    const D = env.actionDim;
    const watch = () => {
      for (let b = 0; b < env.batchSize; b++) if (!env.done[b]) offered.push([b, env.steps[b], ...env.actionFeatures.subarray(b * A * D, (b + 1) * A * D)]);
    };
    env.step = (actions) => {
      watch();
      step(actions);
    };
    const rollout = await new RolloutCollector(env, policy).collect(Uint32Array.from([5]), 2, new Rng(4));
    expect(offered.length).toBe(rollout.actions.length);
    for (const [b, t, ...features] of offered) {
      const s = rollout.runOffsets[b] + t;
      const rows = rollout.candidateRows.subarray(s * A, (s + 1) * A);
      const rebuilt = Array.from(rows).flatMap((r) => Array.from(rollout.candidates.subarray(r * D, (r + 1) * D)));
      expect(rebuilt).toEqual(features);
    }
    policy.dispose();
  });
});
