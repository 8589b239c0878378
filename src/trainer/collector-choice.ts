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
import type { PhaseRoute } from './iteration-path.ts';
import { gpuRolloutRefusal } from './gpu-rollout-sizes.ts';
import { type CollectOptions, RolloutCollector, type Rollout } from './rollout.ts';

export interface Collector {
  collect(taskSeeds: Uint32Array, groupSize: number, rng: Rng, dropoutRng?: Rng, options?: CollectOptions): Promise<Rollout>;
  /** Lets go of GPU buffers the next `collect` makes again (a race that ended); the collector stays usable. */
  trim?(): void;
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

/**
 * The collector, and the path its records note (iteration-path.ts): on webgpu the GPU rollout is asked
 * for, so a CPU rollout there is a fallback and keeps the refusal's reason; elsewhere nothing asked.
 */
export function createCollector(env: VecEnv, policy: Policy, engine: AdvantageEngine): { collector: Collector; route: PhaseRoute<'rollout'> } {
  const { path, reason } = rolloutPath(env, policy, engine);
  if (path === 'gpu') return { collector: new GpuRolloutCollector(env, policy, engine.shaders!), route: { path: 'gpu', fallback: null } };
  return { collector: new RolloutCollector(env, policy), route: { path: 'host', fallback: tf.getBackend() === 'webgpu' ? reason : null } };
}
