/**
 * The shop on the GPU (shaders/shop-step.wgsl) against the TypeScript shop, on Dawn: on the same click
 * sequences (a mix of the oracle's and random admissible ones, so that milestones, dropout, purchases of
 * every grade and successes happen), every step's page state, mask, milestone, reward, outcome and
 * state key are equal and every feature is equal within float32 rounding, at every horizon, over many
 * seeds (test/support/gpu-env-lockstep.ts; the same check runs in Chromium in
 * test/e2e/gpu-env-parity.test.ts). Two deliberate faults (a perturbed layout, a different click) show
 * that the harness catches a mismatch.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEnv } from '../../envs/index.ts';
import { createAdvantageEngine } from '../../src/engine/advantage-engine.ts';
import { readShaderSources } from '../../src/gpu/shaders-node.ts';
import { Policy } from '../../src/policy/policy.ts';
import { Rng } from '../../src/prng.ts';
import { rolloutPath } from '../../src/trainer/collector-choice.ts';
import { HORIZONS, type Horizon } from '../../envs/types.ts';
import { VITE_SHADER_FILES, VITE_SHADERS } from '../../src/gpu/shaders-vite.ts';
import {
  REWARD_DENS,
  SHOP_EPISODE_OFFSET,
  SHOP_EPISODE_WORDS,
  SHOP_LINE_OFFSET,
  SHOP_LINE_WORDS,
  SHOP_RESULTS_PER_WORD,
  SHOP_TASK_WORDS,
  SHOP_TASKS_START,
  packShopEpisodes,
  packShopTasks,
} from '../../src/gpu/shop-step.ts';
import type { Shop } from '../../envs/shop/shop.ts';
import { wgslConsts } from '../support/env-parity.ts';
import { runLockstep } from '../support/gpu-env-lockstep.ts';
import { useWebGpuBackend } from '../support/webgpu.ts';

describe('shop-step task table', () => {
  it('holds one block per group of episodes playing one task, and each episode names its block', () => {
    const env = createEnv('shop', { horizon: 'short', batchSize: 8 });
    env.reset(Uint32Array.of(5, 5, 5, 5, 9, 9, 9, 9), new Rng(1));
    const { data, taskOf } = packShopTasks((env as Shop).state);
    expect(Array.from(taskOf)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(data.length).toBe(SHOP_TASKS_START + 2 * SHOP_TASK_WORDS);
    expect(data.subarray(SHOP_TASKS_START, SHOP_TASKS_START + SHOP_TASK_WORDS)).not.toEqual(data.subarray(SHOP_TASKS_START + SHOP_TASK_WORDS));
    const episodes = packShopEpisodes((env as Shop).state, (env as Shop).droppedMilestones, taskOf);
    for (let b = 0; b < 8; b++) expect(episodes[b * SHOP_EPISODE_WORDS + SHOP_EPISODE_OFFSET.TASK], `episode ${b}`).toBe(taskOf[b]);
  });
});

describe('shop-step record layouts', () => {
  it('the WGSL constants are the TypeScript tables and the shop’s feature sizes', () => {
    const consts = wgslConsts(VITE_SHADER_FILES['lib/shop.wgsl']);
    expect(consts.get('EPISODE_WORDS')).toBe(SHOP_EPISODE_WORDS);
    for (const [name, offset] of Object.entries(SHOP_EPISODE_OFFSET)) expect(consts.get(`E_${name}`), `E_${name}`).toBe(offset);
    for (const [name, offset] of Object.entries(SHOP_LINE_OFFSET)) expect(consts.get(`T_${name}`), `T_${name}`).toBe(offset);
    expect(consts.get('LINE_WORDS')).toBe(SHOP_LINE_WORDS);
    expect(consts.get('TASK_WORDS')).toBe(SHOP_TASK_WORDS);
    expect(consts.get('RESULTS_PER_WORD')).toBe(SHOP_RESULTS_PER_WORD);
    expect(consts.get('TASKS_START')).toBe(SHOP_TASKS_START);
    expect(consts.get('REWARD_DENS')).toBe(REWARD_DENS);
    const shop = createEnv('shop', { horizon: 'long', batchSize: 1 });
    expect(consts.get('OBS_DIM')).toBe(shop.obsDim);
    expect(consts.get('ACTION_DIM')).toBe(shop.actionDim);
    expect(consts.get('NUM_SLOTS')).toBe(shop.maxActions);
  });
});

describe('shop-step kernel on WebGPU (Dawn) against the TypeScript shop', () => {
  let device: GPUDevice;
  beforeAll(async () => {
    ({ device } = await useWebGpuBackend());
  });

  it.each(
    HORIZONS.flatMap(
      (h) =>
        [
          [h, 0],
          [h, 0.4],
        ] as [Horizon, number][],
    ),
  )('%s, dropout %s: equal at every step', async (horizon, milestoneDropout) => {
    for (const seed of [3000 + horizon.length, 3100 + horizon.length]) {
      const run = await runLockstep(device, VITE_SHADERS, { env: 'shop', horizon, milestoneDropout, groups: 12, groupSize: 3, seed });
      if (run.mismatch) expect.fail(run.mismatch);
      expect(run.milestones).toBeGreaterThan(0);
      expect(run.successes).toBeGreaterThan(0);
      expect(run.partialOutcomes, 'purchases graded below 1').toBeGreaterThan(0);
      if (milestoneDropout > 0) expect(run.dropped).toBeGreaterThan(0);
      else expect(run.dropped).toBe(0);
    }
  });

  it('catches a perturbed layout: the wanted product priced over the limit on the GPU only', async () => {
    const run = await runLockstep(device, VITE_SHADERS, {
      env: 'shop',
      horizon: 'long',
      milestoneDropout: 0,
      groups: 4,
      groupSize: 2,
      seed: 3200,
      sabotage: 'layout',
    });
    expect(run.mismatch).toMatch(/episode 0: /);
  });

  it('catches a different click: another query for episode 0 at the first step', async () => {
    const run = await runLockstep(device, VITE_SHADERS, {
      env: 'shop',
      horizon: 'long',
      milestoneDropout: 0,
      groups: 4,
      groupSize: 2,
      seed: 3201,
      sabotage: 'actions',
    });
    expect(run.mismatch).toMatch(/step 1: episode 0: /);
  });

  it('GRPO, BEACON and GiGPO on the shop take the GPU rollout on webgpu at the page defaults', () => {
    const env = createEnv('shop', { horizon: 'long', batchSize: 64 });
    const policy = new Policy({ obsDim: env.obsDim, actionDim: env.actionDim, hiddenSize: 64 }, new Rng(1));
    try {
      for (const method of ['grpo', 'beacon', 'gigpo'])
        expect(rolloutPath(env, policy, createAdvantageEngine('webgpu', method, readShaderSources)), method).toEqual({ path: 'gpu', reason: 'webgpu' });
    } finally {
      policy.dispose();
    }
  });
});
