/**
 * Every race entry trains on the shop (docs/maths.md §10): each registry method and each named
 * variant (the released BEACON in both shipped configs, shaped-reward PPO) and your estimator (its
 * milestone-segment starter), from random init on tiny
 * tasks, succeeds more over iterations 26–40 than over iterations 1–5, on the cpu backend; and the
 * trainer's outcome reward is the shop's graded WebShop reward.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { nodeEstimatorSandbox } from '../../cli/estimator-sandbox.ts';
import { cpuAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { createCustomAdvantageEngine } from '../../src/engine/custom-advantage-engine.ts';
import { MILESTONE_SEGMENTS_TEMPLATE } from '../../src/estimator/templates.ts';
import { methodSpec } from '../../src/methods/registry.ts';
import { RACE_ENTRY_NAMES, entryConfig, raceEntry } from '../../src/race/entries.ts';
import { Trainer } from '../../src/trainer/trainer.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SHARED: TrainConfig = {
  ...DEFAULT_CONFIG,
  env: 'shop',
  horizon: 'tiny',
  tasksPerIteration: 4,
  groupSize: 8,
  hiddenSize: 32,
  sftEpisodes: 0,
  seed: 1,
};

const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

describe('the shop outcome', () => {
  it("the trainer's run rewards are WebShop's graded rewards, not only 0 and 1", async () => {
    const trainer = new Trainer({ ...SHARED, horizon: 'short', method: 'grpo' });
    try {
      await trainer.step();
      const { rollout, batch } = trainer.lastBatch!;
      expect(rollout.outcome).toBeDefined();
      expect(Array.from(batch.rewards)).toEqual(Array.from(rollout.outcome!, (r) => r * SHARED.successReward));
      expect(Array.from(batch.rewards).some((r) => r > 0 && r < 1)).toBe(true);
      for (let i = 0; i < rollout.numRuns; i++) expect(rollout.outcome![i] === 1).toBe(rollout.success[i] === 1);
    } finally {
      trainer.dispose();
    }
  });
});

describe('every race entry trains on shop', () => {
  for (const name of RACE_ENTRY_NAMES) {
    it(`${name}: success over iterations 26–40 beats iterations 1–5 by 10 points`, async () => {
      // Your estimator runs a visitor's rule: here the milestone-segment starter, in the Node sandbox.
      const visitorCode = methodSpec(raceEntry(name).method).visitorCode;
      const engine = visitorCode
        ? createCustomAdvantageEngine(nodeEstimatorSandbox(MILESTONE_SEGMENTS_TEMPLATE), MILESTONE_SEGMENTS_TEMPLATE)
        : cpuAdvantageEngine;
      const trainer = new Trainer(entryConfig(name, SHARED), engine);
      try {
        const success: number[] = [];
        for (let i = 0; i < 40; i++) success.push((await trainer.step()).success);
        const early = mean(success.slice(0, 5));
        const late = mean(success.slice(25));
        expect(late, `success by iteration: ${success.map((s) => s.toFixed(2)).join(' ')}`).toBeGreaterThan(early + 0.1);
      } finally {
        trainer.dispose();
      }
    }, 120_000);
  }
});
