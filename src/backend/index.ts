/**
 * The environment-neutral face of backend selection and WebGPU interop.
 *
 * `initBackend` itself comes from the host module of the environment: `./browser.ts` in the page,
 * `./node-webgpu.ts` in Node (tests, CLI, benches). This index never imports either, so it is safe
 * everywhere.
 */
export {
  BACKEND_CHOICES,
  BackendUnavailableError,
  adapterDisplayName,
  isBackendChoice,
  type BackendChoice,
  type BackendName,
  type BackendOptions,
  type BackendReport,
} from './select.ts';
export {
  TENSOR_BUFFER_USAGE,
  getWebGpuBackend,
  getWebGpuDevice,
  readTensorToGpu,
  setWebGpuCpuForward,
  type GpuView,
} from './webgpu-interop.ts';
