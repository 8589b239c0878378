/**
 * Where the advantages are computed: the CPU reference (wasm/cpu backends) or the WGSL kernels
 * (webgpu backend). Either way the trainer gets a float32 tensor for the loss and CPU copies of
 * A, A_traj, A_seg and r_t for the metrics and the credit view.
 *
 * `createAdvantageEngine` is the one place that choice is made, for the page's worker and for Node alike.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { BackendName } from '../backend/select.ts';
import { createGpuAdvantageEngine, hasGpuPath } from './gpu-engine.ts';
import type { ShaderSources } from '../gpu/shader-source.ts';
import { methodSpec } from '../methods/registry.ts';
import type { AdvantageEngine, AdvantageEngineName } from './engine.ts';

export type { AdvantageEngine, AdvantageEngineName, ComputedAdvantages } from './engine.ts';

export const cpuAdvantageEngine: AdvantageEngine = {
  name: 'cpu',
  async compute(batch, settings) {
    const result = methodSpec(settings.method).estimate(batch, settings);
    return { tensor: tf.tensor1d(Float32Array.from(result.advantages)), result };
  },
  dispose() {},
};

/** Which engine `createAdvantageEngine` picks for `method` on `backend` (for the page to show). */
export function advantageEngineName(backend: BackendName, method: string): AdvantageEngineName {
  return backend === 'webgpu' && hasGpuPath(methodSpec(method)) ? 'webgpu-kernels' : 'cpu';
}

/**
 * A fresh engine for one trainer of `method` on `backend`: the method's WGSL kernels on webgpu (they
 * read tfjs's buffers in place), its CPU reference elsewhere. `shaders` supplies the WGSL sources
 * (read from disk in Node, bundled by Vite in the page). On webgpu a method without kernels of its own
 * still carries the sources, so that its rollout runs on the GPU (src/trainer/collector-choice.ts).
 */
export function createAdvantageEngine(backend: BackendName, method: string, shaders: () => ShaderSources): AdvantageEngine {
  if (advantageEngineName(backend, method) === 'webgpu-kernels') return createGpuAdvantageEngine(shaders(), methodSpec(method));
  const rollout = rolloutShaders(backend, shaders);
  return rollout ? { ...cpuAdvantageEngine, shaders: rollout } : cpuAdvantageEngine;
}

/**
 * The WGSL sources an engine whose advantages run on the CPU carries on `backend`, for the GPU rollout
 * (src/trainer/collector-choice.ts): all of them on webgpu, none elsewhere.
 */
export function rolloutShaders(backend: BackendName, shaders: () => ShaderSources): ShaderSources | undefined {
  return backend === 'webgpu' ? shaders() : undefined;
}
