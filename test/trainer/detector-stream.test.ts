/**
 * The detector settings and the sloppy teacher in the trainer (docs/maths.md §6): each draws from a
 * stream of its own, so a run under any of them plays the same tasks and samples the same actions as
 * the same seed at the defaults (before the first update the rollouts are the same episodes), and only
 * the milestones the advantages see differ, exactly as detector-view.ts rewrites them.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '../../cli/register-gradients.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEnv } from '../../envs/index.ts';
import { delayMilestones, strideMilestones } from '../../src/advantages/detector-view.ts';
import { DEFAULT_CONFIG, type TrainConfig } from '../../src/config.ts';
import { Rng } from '../../src/prng.ts';
import { collectDemonstrations } from '../../src/trainer/demonstrations.ts';
import { Trainer } from '../../src/trainer/trainer.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const base: TrainConfig = {
  ...DEFAULT_CONFIG,
  env: 'gridhouse',
  horizon: 'long',
  method: 'beacon',
  tasksPerIteration: 4,
  groupSize: 4,
  hiddenSize: 16,
  sftEpisodes: 0,
  seed: 7,
  backend: 'cpu',
};

async function firstIteration(overrides: Partial<TrainConfig>) {
  const trainer = new Trainer({ ...base, ...overrides });
  try {
    const record = await trainer.step();
    const { rollout, batch } = trainer.lastBatch!;
    return {
      record,
      actions: rollout.actions.slice(),
      phi: rollout.milestones.slice(),
      seen: batch.milestones.slice(),
      runOffsets: rollout.runOffsets.slice(),
    };
  } finally {
    trainer.dispose();
  }
}

describe('detector settings in the trainer', () => {
  it.each<[string, Partial<TrainConfig>]>([
    ['milestoneFalseAlarms', { milestoneFalseAlarms: 0.2 }],
    ['looseMilestones', { looseMilestones: true }],
    ['milestoneDelay', { milestoneDelay: 2 }],
    ['milestoneStride', { milestoneStride: 2 }],
    ['fineMilestones', { fineMilestones: true }],
    ['demoNoise', { demoNoise: 0.5 }],
  ])('%s: the same episodes as the defaults; the methods see the setting’s milestones', async (name, overrides) => {
    const plain = await firstIteration({});
    const run = await firstIteration(overrides);
    // Same tasks, same actions: the task and action streams stay paired.
    expect(run.actions).toEqual(plain.actions);
    expect(run.record.success).toBe(plain.record.success);
    expect(run.record.envSteps).toBe(plain.record.envSteps);
    expect(plain.seen).toEqual(plain.phi); // at the defaults the methods see Φ as it is
    switch (name) {
      case 'milestoneStride':
        expect(run.seen).toEqual(strideMilestones(run.runOffsets, plain.phi, 2));
        break;
      case 'milestoneDelay':
        expect(run.seen).toEqual(delayMilestones(run.runOffsets, plain.phi, 2));
        break;
      case 'milestoneFalseAlarms': {
        const added = run.seen.reduce((s, x) => s + x, 0) - plain.phi.reduce((s, x) => s + x, 0);
        expect(added).toBeGreaterThan(0);
        for (let t = 0; t < plain.phi.length; t++) if (plain.phi[t]) expect(run.seen[t]).toBe(1);
        break;
      }
      case 'looseMilestones':
      case 'fineMilestones':
        // Φ itself changes in the environment (envs/<env>/milestones.ts); the rewrite adds nothing.
        expect(run.phi).not.toEqual(plain.phi);
        expect(run.seen).toEqual(run.phi);
        break;
      case 'demoNoise':
        // The teacher is not a detector: BEACON's milestones are untouched.
        expect(run.seen).toEqual(plain.phi);
        break;
    }
  });
});

describe('the sloppy teacher', () => {
  const demos = (noise: number) => {
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 8 });
    return collectDemonstrations(env, new Rng(3), { episodes: 8 }, noise > 0 ? { noise, rng: new Rng(99) } : undefined);
  };

  it('slips to random admissible actions from its own stream, on the same tasks', () => {
    const exact = demos(0);
    const sloppy = demos(0.5);
    const A = createEnv('gridhouse', { horizon: 'short', batchSize: 1 }).maxActions;
    // The same task stream: the first step of the first episode is the same state.
    expect(sloppy.obs.slice(0, 10)).toEqual(exact.obs.slice(0, 10));
    // Every recorded action is admissible where it was taken; the slips make the episodes longer.
    for (let t = 0; t < sloppy.steps; t++) expect(sloppy.mask[t * A + sloppy.actions[t]], `step ${t}`).toBe(1);
    expect(sloppy.steps).toBeGreaterThan(exact.steps);
    // noise 0 with a teacher is the exact oracle.
    const env = createEnv('gridhouse', { horizon: 'short', batchSize: 8 });
    expect(collectDemonstrations(env, new Rng(3), { episodes: 8 }, { noise: 0, rng: new Rng(99) }).actions).toEqual(exact.actions);
  });
});
