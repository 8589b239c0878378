/**
 * tfjs's WebGPU backend module, loaded only when WebGPU is selected (select.ts): a wasm or cpu race never
 * loads, parses or evaluates it (about 0.5 MB of a worker's script otherwise, before its first point).
 * The WebGPU programs of this folder take tfjs's dispatch helpers from here; they only run on WebGPU.
 */
import type * as WebGpuModule from '@tensorflow/tfjs-backend-webgpu';

let loaded: typeof WebGpuModule | null = null;

/** Loads the module once (it registers the backend's factory and its WEBGPU_* flags). */
export async function loadWebGpuModule(): Promise<typeof WebGpuModule> {
  loaded ??= await import('@tensorflow/tfjs-backend-webgpu');
  return loaded;
}

/** tfjs's dispatch helpers, for a WebGPU program: the module is loaded whenever WebGPU is in use. */
export function webgpuUtil(): typeof WebGpuModule.webgpu_util {
  if (!loaded) throw new Error('tfjs-backend-webgpu is not loaded: a WebGPU program was built before the webgpu backend was selected');
  return loaded.webgpu_util;
}
