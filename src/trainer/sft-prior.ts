/**
 * The SFT prior (docs/maths.md §9): before RL, behaviour cloning on `sftEpisodes` oracle episodes of
 * tasks disjoint from every training stream, from the same initial weights a trainer of this config
 * would draw. Every method of a comparison starts from these identical weights, which puts the race in
 * the paper's regime: the first iterations already succeed sometimes, so coarse credit can learn too.
 *
 * Deterministic given the config's seed (and the backend's arithmetic). Priors are memoised per process
 * by `priorKey`, so the page's panels, a study worker's runs and repeated CLI calls train each one once.
 */
import * as tf from '@tensorflow/tfjs-core';
import { createEnv } from '../../envs/index.ts';
import { createAdam } from '../backend/webgpu-adam.ts';
import { getWebGpuDevice } from '../backend/webgpu-interop.ts';
import type { TrainConfig } from '../config.ts';
import { FusedPpoKernels } from '../gpu/fused-ppo.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import { Policy, type PolicyWeights } from '../policy/policy.ts';
import { Rng } from '../prng.ts';
import { behaviourCloning } from './behaviour-cloning.ts';
import { collectDemonstrations } from './demonstrations.ts';
import { priorKeyOn } from './prior-key.ts';
import { priorEpisodes, priorEpochs } from './prior-size.ts';

/** Demonstration steps per behaviour-cloning minibatch. */
const MINIBATCH_STEPS = 256;
/** Episodes played side by side while collecting demonstrations. */
const DEMONSTRATION_BATCH = 32;

/**
 * The settings that determine a prior, with the backend now in use (whose float arithmetic may differ):
 * the prior's identity, also recorded in checkpoints (prior-key.ts).
 */
export function priorKey(config: TrainConfig): string {
  return priorKeyOn(config, tf.getBackend());
}

const cache = new Map<string, Promise<PolicyWeights>>();

/**
 * The prior's weights for `config` (null when `sftEpisodes` is 0: training starts from random init).
 * `shaders`: the WGSL sources, for the fused cloning on webgpu (trainSftPrior); the first call of a key
 * trains it, and its weights are the key's for the process.
 */
export function sftPrior(config: TrainConfig, shaders?: ShaderSources): Promise<PolicyWeights> | null {
  if (priorEpisodes(config) === 0) return null;
  const key = priorKey(config);
  let prior = cache.get(key);
  if (!prior) {
    prior = trainSftPrior(config, shaders);
    cache.set(key, prior);
    prior.catch(() => cache.delete(key)); // a failed prior is retried next time, never served
  }
  return prior;
}

/** The initial weights of a policy for `config`: the stream every trainer of this seed draws from. */
export function initialPolicy(config: TrainConfig, obsDim: number, actionDim: number): Policy {
  return new Policy({ obsDim, actionDim, hiddenSize: config.hiddenSize }, new Rng(config.seed).fork('init'));
}

/**
 * Trains the prior for `config` (uncached: `sftPrior` is the memoised entry point). On webgpu, given
 * the WGSL `shaders`, the cloning runs through the fused update's kernels (cloning-fused.ts).
 */
export async function trainSftPrior(config: TrainConfig, shaders?: ShaderSources): Promise<PolicyWeights> {
  const episodes = priorEpisodes(config);
  const env = createEnv(config.env, { horizon: config.horizon, batchSize: Math.min(DEMONSTRATION_BATCH, episodes) });
  const policy = initialPolicy(config, env.obsDim, env.actionDim);
  const optimizer = createAdam(config.sftLearningRate);
  const rng = new Rng(config.seed).fork('sft-prior');
  const fused = shaders && tf.getBackend() === 'webgpu' ? new FusedPpoKernels(getWebGpuDevice(), shaders) : null;
  try {
    const teacher = config.demoNoise > 0 ? { noise: config.demoNoise, rng: new Rng(config.seed).fork('sft-prior-teacher') } : undefined;
    const demos = collectDemonstrations(env, rng, { episodes }, teacher);
    const minibatches = Math.ceil(demos.steps / MINIBATCH_STEPS);
    await behaviourCloning(policy, optimizer, demos, { epochs: priorEpochs(config), minibatches, maxGradNorm: config.maxGradNorm }, rng, fused);
    return (await policy.weights()).map((w) => w.slice()); // copies: the backend may reuse its buffers
  } finally {
    fused?.dispose();
    policy.dispose();
    optimizer.dispose();
  }
}
