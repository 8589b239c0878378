/**
 * The one place the page decides where advantages are computed: called once per trainer.
 *
 * On webgpu, the WGSL kernels (src/gpu/) on tfjs's own device; on wasm and cpu, the CPU reference.
 * Both give the same numbers (the kernels are tested against the reference).
 */
import type { BackendName } from '../backend/select.ts';
import { createGpuAdvantageEngine } from '../gpu/advantage-engine.ts';
import { VITE_SHADERS } from '../gpu/shaders-vite.ts';
import { cpuAdvantageEngine, type AdvantageEngine } from '../trainer/advantage-engine.ts';

/** Where `createAdvantageEngine` computes advantages on `backend`, for the page to show. */
export function advantageEngineName(backend: BackendName): AdvantageEngine['name'] {
  return backend === 'webgpu' ? 'webgpu-kernels' : 'cpu';
}

export function createAdvantageEngine(backend: BackendName): AdvantageEngine {
  switch (backend) {
    case 'webgpu':
      return createGpuAdvantageEngine(VITE_SHADERS);
    case 'wasm':
    case 'cpu':
      return cpuAdvantageEngine;
  }
}
