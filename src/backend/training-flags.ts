/**
 * The tfjs flags a trainer runs under, per backend: set by the training worker when it selects a
 * backend (src/worker/worker-backend.ts) and by the backend probe (src/worker/backend-probe.ts), so the
 * probe times the race under the race's own flags. Pure (no tfjs), so the page can name them without
 * loading tfjs; webgpu-interop.ts sets them. On webgpu, tfjs's forwarding of small ops to the CPU
 * is off: the advantage kernels read tfjs's tensors on the GPU, which forwarding would move away.
 */
import type { BackendName } from './select.ts';

/** The flags training sets on `backend` (none beyond tfjs's defaults on wasm and cpu). */
export function trainingFlags(backend: BackendName): Readonly<Record<string, boolean>> {
  return backend === 'webgpu' ? { WEBGPU_CPU_FORWARD: false } : {};
}
