/**
 * Gives a Node test tfjs's WebGPU backend on Dawn, or fails saying what to install.
 *
 * Tests run on SwiftShader unless VK_ICD_FILENAMES names another driver (vitest.config.ts). CPU
 * forwarding of small ops is turned off so every result lives on the GPU and kernels can share it.
 */
import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from '../../src/backend/node-webgpu.ts';
import { BackendUnavailableError } from '../../src/backend/select.ts';
import { getWebGpuDevice, setWebGpuCpuForward } from '../../src/backend/webgpu-interop.ts';

export interface WebGpuTestContext {
  device: GPUDevice;
  adapterName: string;
}

/** Makes webgpu tfjs's current backend (call in beforeAll). Throws with an install hint if impossible. */
export async function useWebGpuBackend(): Promise<WebGpuTestContext> {
  try {
    const report = await initBackend('webgpu', { strict: true });
    setWebGpuCpuForward(false);
    return { device: getWebGpuDevice(), adapterName: report.adapterName ?? 'unknown adapter' };
  } catch (e) {
    if (e instanceof BackendUnavailableError) {
      // The reason already says what to install when there is no adapter at all.
      throw new Error(`this test needs tfjs on WebGPU: ${e.message}`);
    }
    throw e;
  }
}

/** Runs `fn` and checks that it left exactly as many tfjs tensors alive as before. */
export async function expectNoTensorLeak<T>(fn: () => Promise<T> | T): Promise<T> {
  const before = tf.memory().numTensors;
  const result = await fn();
  const after = tf.memory().numTensors;
  if (after !== before) throw new Error(`tensor leak: ${before} tensors before, ${after} after`);
  return result;
}
