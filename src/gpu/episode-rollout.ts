/**
 * Runner tables of the whole-episode rollout kernels (shaders/<env>-rollout.wgsl, their shared part
 * in shaders/lib/rollout.wgsl): one workgroup per run plays its episode to the end in one dispatch,
 * the acting pass, the masked-softmax draw and the environment's step in a loop over the steps.
 *
 * Every such kernel binds the same buffers: the environment's table (1) and its step buffers (3–6,
 * shaders/lib/env_step.wgsl), the policy's flat weights, the step-major records of actions and
 * log-probabilities that the rollout reads back, the step-major observations, which stay on the
 * GPU for the update (shaders/ppo-gather.wgsl), and the dictionary of the rollout's candidate rows
 * (candidate-dictionary.ts), which stays there too. Its uniforms are the shared ones with the
 * environment's own in between (named by the environment, src/gpu/gpu-envs.ts).
 */
import { defineKernel, type KernelSpec } from './kernel.ts';
import type { KernelName } from './shader-source.ts';
import { type ScalarType, uniformFields } from './uniforms.ts';

/**
 * Invocations per workgroup (one workgroup per run): a hidden unit or a candidate per invocation. At
 * the page defaults on SwiftShader 64 took 15 s a rollout against 28 s for 16 (one run each, a loaded
 * machine); 64 also covers the default width's hidden units in one pass on a GPU.
 */
export const EPISODE_ROLLOUT_WORKGROUP = 64;

/** Most candidates a step can have (MAX_CANDIDATES in shaders/lib/sampling.wgsl). */
export const MAX_CANDIDATES = 64;

/** The runner table of `name`, whose environment reads `table` and sets the uniforms `envFields`. */
export function episodeRolloutKernel(name: KernelName, table: string, envFields: readonly (readonly [string, ScalarType])[]): KernelSpec<string, string> {
  return defineKernel({
    name,
    params: uniformFields<string>([
      ['numEpisodes', 'u32'],
      ['hiddenSize', 'u32'],
      ['scale', 'f32'],
      /** Runs per seed (numEpisodes: every seed's); each seed's draw key follows its reset records (shaders/lib/rollout.wgsl). */
      ['seedRuns', 'u32'],
      ['maxSteps', 'u32'],
      ...envFields,
      ['obsDim', 'u32'],
      ['actionDim', 'u32'],
      ['numCandidates', 'u32'],
    ]),
    storage: [
      [table, 'read'],
      ['actionRecord', 'read_write'],
      ['episodes', 'read_write'],
      ['mask', 'read_write'],
      ['obs', 'read_write'],
      ['actionFeatures', 'read_write'],
      ['weights', 'read'],
      ['logProbRecord', 'read_write'],
      ['obsRecord', 'read_write'],
      ['candidateTable', 'read_write'],
    ],
  });
}

export const GRIDHOUSE_ROLLOUT = episodeRolloutKernel('gridhouse-rollout', 'layouts', [['maxMilestones', 'u32']]);
export const TEXTHOUSE_ROLLOUT = episodeRolloutKernel('texthouse-rollout', 'zobrist', [
  ['numRec', 'u32'],
  ['numObj', 'u32'],
  ['numActions', 'u32'],
  ['idleCommands', 'u32'],
]);
export const SHOP_ROLLOUT = episodeRolloutKernel('shop-rollout', 'tasks', [
  ['numQueries', 'u32'],
  ['numResults', 'u32'],
  ['numProducts', 'u32'],
  ['listingOptions', 'u32'],
]);
