/**
 * Which rollout a trainer runs: on the GPU (gpu-rollout.ts) when tfjs runs on webgpu, the advantage
 * engine carries the WGSL sources (every engine made for webgpu does, whether its advantages run on the
 * kernels or on the CPU) and the environment and width fit the GPU path; otherwise the CPU sampled
 * rollout (rollout.ts), whose records on cpu/wasm are the golden ones.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { VecEnv } from '../../envs/types.ts';
import { getWebGpuDevice } from '../backend/webgpu-interop.ts';
import type { Policy } from '../policy/policy.ts';
import type { Rng } from '../prng.ts';
import type { AdvantageEngine } from '../engine/engine.ts';
import { GpuRolloutCollector } from './gpu-rollout.ts';
import { gpuRolloutRefusal } from './gpu-rollout-sizes.ts';
import { type CollectOptions, RolloutCollector, type Rollout } from './rollout.ts';

export interface Collector {
  collect(taskSeeds: Uint32Array, groupSize: number, rng: Rng, dropoutRng?: Rng, options?: CollectOptions): Promise<Rollout>;
  dispose?(): void;
}

export type RolloutPath = 'gpu' | 'cpu';

/** The rollout path a trainer of `env` and `policy` takes with `engine` on the current backend, and why. */
export function rolloutPath(env: VecEnv, policy: Policy, engine: AdvantageEngine): { path: RolloutPath; reason: string } {
  if (tf.getBackend() !== 'webgpu') return { path: 'cpu', reason: `the backend is ${tf.getBackend()}` };
  if (!engine.shaders) return { path: 'cpu', reason: 'the advantage engine carries no WGSL sources' };
  const refusal = gpuRolloutRefusal(env, policy.shape.hiddenSize, getWebGpuDevice());
  return refusal ? { path: 'cpu', reason: refusal } : { path: 'gpu', reason: 'webgpu' };
}

export function createCollector(env: VecEnv, policy: Policy, engine: AdvantageEngine): Collector {
  return rolloutPath(env, policy, engine).path === 'gpu' ? new GpuRolloutCollector(env, policy, engine.shaders!) : new RolloutCollector(env, policy);
}
