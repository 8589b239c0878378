/**
 * The one WebGPU adapter request of the page and of its workers: the page keys the probe's verdict to
 * the adapter it gets, and the workers train on the adapter they get, so both must ask alike. On a
 * dual-GPU laptop a request without `powerPreference` may get the integrated GPU while training gets
 * the discrete one: the verdict would then be keyed to one GPU and measured on the other.
 */

/** What every request asks for: the faster GPU, as tfjs's own webgpu backend asks by default. */
export const ADAPTER_REQUEST: GPURequestAdapterOptions = { powerPreference: 'high-performance' };

/** The adapter `gpu` offers for training (null when it offers none). */
export function requestTrainingAdapter(gpu: GPU): Promise<GPUAdapter | null> {
  return gpu.requestAdapter(ADAPTER_REQUEST);
}
