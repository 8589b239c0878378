/**
 * Backend selection inside the training worker, and the watch on the GPU device.
 *
 * The choice logic is src/backend/select.ts; this file supplies what a dedicated worker has instead of a
 * window (`self`, `WorkerNavigator.gpu`, which Chromium exposes in workers) and the wasm binaries' URLs
 * (Vite copies them next to the bundle, so they load from any base path). When the device is lost
 * (driver reset, GPU process crash, or `loseDevice`), `onLost` is called once with the reason.
 */
import wasmPlainUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { selectBackend, type BackendChoice, type BackendHost, type BackendReport } from '../backend/select.ts';
import { getWebGpuDevice, setWebGpuCpuForward } from '../backend/webgpu-interop.ts';

function workerGpu(): GPU | string {
  if ('gpu' in navigator && navigator.gpu) return navigator.gpu;
  if (!globalThis.isSecureContext) return 'no WebGPU API: the page is not a secure context (open it over https or on localhost)';
  return 'no WebGPU API: this browser does not expose navigator.gpu (WebGPU disabled or unsupported)';
}

const workerHost: BackendHost = {
  gpu: workerGpu,
  configureWasm: (wasm) =>
    wasm.setWasmPaths({
      'tfjs-backend-wasm.wasm': wasmPlainUrl,
      'tfjs-backend-wasm-simd.wasm': wasmSimdUrl,
      'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimdUrl,
    }),
};

export class WorkerBackend {
  private choice: BackendChoice | null = null;
  report: BackendReport | null = null;
  /** Bumped on every selection, so a stale device's `lost` promise is ignored. */
  private watchToken = 0;

  constructor(private readonly onLost: (reason: string) => void) {}

  /** Selects `choice` unless it is already current (or `force`), and watches a WebGPU device for loss. */
  async ensure(choice: BackendChoice, force: boolean): Promise<{ report: BackendReport; changed: boolean }> {
    if (!force && this.report && this.choice === choice) return { report: this.report, changed: false };
    const report = await selectBackend(choice, workerHost);
    this.choice = choice;
    this.report = report;
    const token = ++this.watchToken;
    if (report.backend === 'webgpu') {
      // The advantage kernels read tfjs's tensors on the GPU: small ops must not be forwarded to the CPU.
      setWebGpuCpuForward(false);
      getWebGpuDevice().lost.then((info) => {
        if (token === this.watchToken) this.onLost(info.message ? `${info.reason}: ${info.message}` : String(info.reason));
      });
    }
    return { report, changed: true };
  }

  /** Destroys the current GPU device, as a crash would (tests the recovery path). False if not on webgpu. */
  loseDevice(): boolean {
    if (this.report?.backend !== 'webgpu') return false;
    getWebGpuDevice().destroy();
    return true;
  }
}
