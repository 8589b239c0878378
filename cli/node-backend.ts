/**
 * Backend selection for the Node commands (train, study, bench).
 *
 * In Node, `auto` means wasm: the fastest deterministic backend on a machine without a GPU (WebGPU on
 * SwiftShader is two orders of magnitude slower). An explicit choice is strict: it runs or fails with
 * the reason, never falls back silently. `webgpu` runs on Dawn and computes advantages with the WGSL
 * kernels; the other backends use the CPU reference.
 */
import * as tf from '@tensorflow/tfjs-core';
import './register-gradients.ts';
import { initBackend, uninstallNodeWebGpu } from '../src/backend/node-webgpu.ts';
import { setWebGpuCpuForward } from '../src/backend/webgpu-interop.ts';
import type { BackendChoice } from '../src/config.ts';
import { readShaderSources } from '../src/gpu/shaders-node.ts';
import type { Method } from '../src/methods/registry.ts';
import { createAdvantageEngine, type AdvantageEngine } from '../src/engine/advantage-engine.ts';

export interface NodeBackend {
  name: 'webgpu' | 'wasm' | 'cpu';
  /** One line for logs: the backend and, for webgpu, the adapter. */
  describe: string;
  /**
   * The CPU threads the backend computes on (wasm: tfjs-backend-wasm's own count, one in Node, where its
   * threaded build does not load: docs/performance.md; cpu: JavaScript on one thread); null for webgpu.
   */
  threads: number | null;
  /** The GPU adapter's name on webgpu (null when it gives none, and on wasm and cpu). */
  adapter: string | null;
  /** A fresh advantage engine for one trainer of `method`. */
  advantageEngine(method: Method): AdvantageEngine;
  /** Releases the backend so the process can exit (Dawn keeps it alive otherwise). */
  close(): void;
}

export async function initNodeBackend(choice: BackendChoice): Promise<NodeBackend> {
  const report = await initBackend(choice === 'auto' ? 'wasm' : choice, { strict: true });
  const name = report.backend;
  if (name === 'webgpu') {
    // The kernels read tfjs's buffers on the GPU: small ops must not be forwarded to the CPU.
    setWebGpuCpuForward(false);
    return {
      name,
      describe: `webgpu (${report.adapterName ?? 'unknown adapter'}), advantages on WGSL kernels`,
      threads: null,
      adapter: report.adapterName ?? null,
      advantageEngine: (method) => createAdvantageEngine(name, method, readShaderSources),
      close: () => {
        tf.removeBackend('webgpu');
        uninstallNodeWebGpu();
      },
    };
  }
  const threads = name === 'wasm' ? (await import('@tensorflow/tfjs-backend-wasm')).getThreadsCount() : 1;
  return { name, describe: name, threads, adapter: null, advantageEngine: (method) => createAdvantageEngine(name, method, readShaderSources), close: () => {} };
}
