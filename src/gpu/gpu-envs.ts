/**
 * The environments that step on the GPU, behind one shape: which WGSL kernel steps them, what its
 * episode records hold where, and how a freshly reset TypeScript environment is uploaded (task layouts
 * and dropout bits come from the seeded CPU reset, once per rollout). A GPU rollout (src/trainer/
 * gpu-rollout.ts) knows nothing else of the environment.
 */
import type { GridHouse } from '../../envs/gridhouse/gridhouse.ts';
import type { Shop } from '../../envs/shop/shop.ts';
import type { TextHouse } from '../../envs/texthouse/texthouse.ts';
import type { VecEnv } from '../../envs/types.ts';
import { EPISODE_OFFSET, EPISODE_WORDS, GRIDHOUSE_STEP, packGridHouseEpisodes, packGridHouseLayouts, usedLayoutSlots } from './gridhouse-step.ts';
import { GRIDHOUSE_ROLLOUT, SHOP_ROLLOUT, TEXTHOUSE_ROLLOUT } from './episode-rollout.ts';
import type { KernelSpec } from './kernel.ts';
import { packShopEpisodes, packShopTasks, SHOP_EPISODE_OFFSET, SHOP_EPISODE_WORDS, SHOP_STEP } from './shop-step.ts';
import { packTextHouseEpisodes, packZobristTables, TEXT_EPISODE_OFFSET, TEXT_EPISODE_WORDS, TEXTHOUSE_STEP } from './texthouse-step.ts';

/** Word offsets of the fields every environment's episode record has. */
export interface EpisodeRecordFields {
  done: number;
  success: number;
  steps: number;
  milestone: number;
  milestonesReached: number;
  numMilestones: number;
  stateKey: number;
  /** The graded outcome (f32 bits), for an environment whose reward is graded (envs/types.ts `outcome`). */
  outcome?: number;
}

/** What a GPU rollout needs of one environment kernel. */
export interface GpuEnvKernel {
  /** The per-step kernel (one invocation per episode, one dispatch per step): the lockstep parity tests'. */
  spec: KernelSpec<string, string>;
  /** u32 words per episode record. */
  recordWords: number;
  fields: EpisodeRecordFields;
  /** The records of the environment's episodes just after `reset`, and the kernel's read-only table. */
  upload(env: VecEnv): { episodes: Uint32Array; table: { name: string; data: Uint32Array } };
  /** The kernel's uniforms. */
  params(env: VecEnv, applyActions: 0 | 1): Record<string, number>;
  /** The whole-episode rollout kernel (src/gpu/episode-rollout.ts) and the environment's uniforms it sets. */
  episodeKernel: { spec: KernelSpec<string, string>; params(env: VecEnv): Record<string, number> };
}

const gridhouse: GpuEnvKernel = {
  spec: GRIDHOUSE_STEP,
  recordWords: EPISODE_WORDS,
  fields: {
    done: EPISODE_OFFSET.DONE,
    success: EPISODE_OFFSET.SUCCESS,
    steps: EPISODE_OFFSET.STEPS,
    milestone: EPISODE_OFFSET.MILESTONE,
    milestonesReached: EPISODE_OFFSET.MILESTONES_REACHED,
    numMilestones: EPISODE_OFFSET.NUM_MILESTONES,
    stateKey: EPISODE_OFFSET.STATE_KEY,
  },
  upload(env) {
    const g = env as GridHouse;
    return {
      episodes: packGridHouseEpisodes(g.state, g.droppedMilestones),
      table: { name: 'layouts', data: packGridHouseLayouts(g.state.layouts, usedLayoutSlots(g.state)) },
    };
  },
  params: (env, applyActions) => ({ numEpisodes: env.batchSize, maxSteps: env.maxSteps, maxMilestones: env.maxMilestones, applyActions }),
  episodeKernel: { spec: GRIDHOUSE_ROLLOUT, params: (env) => ({ maxSteps: env.maxSteps, maxMilestones: env.maxMilestones }) },
};

/** TextHouse's own uniforms, the same in its per-step and whole-episode kernels. */
function textHouseUniforms(env: VecEnv) {
  const s = (env as TextHouse).state;
  return { maxSteps: env.maxSteps, numRec: s.R, numObj: s.O, numActions: s.A, idleCommands: s.idleCommands };
}

const texthouse: GpuEnvKernel = {
  spec: TEXTHOUSE_STEP,
  recordWords: TEXT_EPISODE_WORDS,
  fields: {
    done: TEXT_EPISODE_OFFSET.DONE,
    success: TEXT_EPISODE_OFFSET.SUCCESS,
    steps: TEXT_EPISODE_OFFSET.STEPS,
    milestone: TEXT_EPISODE_OFFSET.MILESTONE,
    milestonesReached: TEXT_EPISODE_OFFSET.MILESTONES_REACHED,
    numMilestones: TEXT_EPISODE_OFFSET.NMS,
    stateKey: TEXT_EPISODE_OFFSET.STATE_KEY,
  },
  upload(env) {
    const t = env as TextHouse;
    return { episodes: packTextHouseEpisodes(t.state, t.droppedMilestones), table: { name: 'zobrist', data: packZobristTables() } };
  },
  params(env, applyActions) {
    return { numEpisodes: env.batchSize, ...textHouseUniforms(env), applyActions };
  },
  episodeKernel: { spec: TEXTHOUSE_ROLLOUT, params: textHouseUniforms },
};

/** The shop's own uniforms, the same in its per-step and whole-episode kernels. */
function shopUniforms(env: VecEnv) {
  const s = (env as Shop).state;
  return { maxSteps: env.maxSteps, numQueries: s.Q, numResults: s.R, numProducts: s.P, listingOptions: s.listingOptions ? 1 : 0 };
}

const shop: GpuEnvKernel = {
  spec: SHOP_STEP,
  recordWords: SHOP_EPISODE_WORDS,
  fields: {
    done: SHOP_EPISODE_OFFSET.DONE,
    success: SHOP_EPISODE_OFFSET.SUCCESS,
    steps: SHOP_EPISODE_OFFSET.STEPS,
    milestone: SHOP_EPISODE_OFFSET.MILESTONE,
    milestonesReached: SHOP_EPISODE_OFFSET.MILESTONES_REACHED,
    numMilestones: SHOP_EPISODE_OFFSET.NMS,
    stateKey: SHOP_EPISODE_OFFSET.STATE_KEY,
    outcome: SHOP_EPISODE_OFFSET.REWARD,
  },
  upload(env) {
    const s = env as Shop;
    const tasks = packShopTasks(s.state);
    return { episodes: packShopEpisodes(s.state, s.droppedMilestones, tasks.taskOf), table: { name: 'tasks', data: tasks.data } };
  },
  params(env, applyActions) {
    return { numEpisodes: env.batchSize, ...shopUniforms(env), applyActions };
  },
  episodeKernel: { spec: SHOP_ROLLOUT, params: shopUniforms },
};

const GPU_ENVS: Readonly<Record<string, GpuEnvKernel>> = { gridhouse, texthouse, shop };

/** The GPU kernel of `env`, or null when the environment has none. */
export function gpuEnvKernel(env: VecEnv): GpuEnvKernel | null {
  return Object.hasOwn(GPU_ENVS, env.name) ? GPU_ENVS[env.name] : null;
}
