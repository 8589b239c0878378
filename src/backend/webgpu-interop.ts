/**
 * Sharing GPU buffers between tfjs's WebGPU backend and our own WGSL kernels.
 *
 * Kernels run on the backend's own GPUDevice, read tensors through `dataToGPU` and hand results back
 * as tensors wrapping our output buffers. The rules that make this work (checked by test/infra.test.ts):
 * - `WEBGPU_CPU_FORWARD` must be off, or tfjs computes small ops on the CPU and their results have no
 *   GPU buffer.
 * - A tensor made with `tf.tensor(values)` lives on the CPU until a GPU kernel consumes it, and
 *   `dataToGPU` then throws "Data is not on GPU but on CPU": `readTensorToGpu` uploads it first.
 * - `dataToGPU` returns a *copy* in a pooled buffer (usage STORAGE | COPY_SRC | COPY_DST, size exactly
 *   the tensor's bytes) plus a `tensorRef` owning it: dispose the ref after submitting the work that
 *   reads the buffer (queue order keeps that safe).
 * - A buffer wrapped with `tf.tensor({buffer, zeroCopy: true}, shape, dtype)` needs usage
 *   STORAGE | COPY_SRC (tfjs checks) and stays ours: disposing the tensor does not destroy it, so destroy
 *   it after the tensor is disposed. Without `zeroCopy`, tfjs copies it and we may destroy it at once.
 */
import * as tf from '@tensorflow/tfjs-core';
import type { BackendName } from './select.ts';
import { trainingFlags } from './training-flags.ts';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';

/** tfjs's current backend as a WebGPUBackend; throws if the current backend is not webgpu. */
export function getWebGpuBackend(): WebGPUBackend {
  const name = tf.getBackend();
  if (name !== 'webgpu') throw new Error(`the current tfjs backend is '${name}', not 'webgpu'`);
  return tf.backend() as WebGPUBackend;
}

/** The GPUDevice the tfjs webgpu backend runs on: our kernels must use this one to share buffers. */
export function getWebGpuDevice(): GPUDevice {
  return getWebGpuBackend().device;
}

/**
 * Sets `trainingFlags(backend)` (training-flags.ts) on tfjs's environment, after `backend` was selected
 * (its flags are registered then): the training worker and the backend probe both call it.
 */
export function applyTrainingFlags(backend: BackendName): void {
  for (const [flag, value] of Object.entries(trainingFlags(backend))) tf.env().set(flag, value);
}

/** Turns tfjs's forwarding of small ops to the CPU on or off (it must be off when kernels share buffers). */
export function setWebGpuCpuForward(enabled: boolean): void {
  tf.env().set('WEBGPU_CPU_FORWARD', enabled);
}

/** A GPU buffer holding a copy of `t`'s data, and the tensor that owns it (dispose it when done). */
export interface GpuView {
  buffer: GPUBuffer;
  tensorRef: tf.Tensor;
}

/** `t.dataToGPU()`, first uploading `t` if its data is still on the CPU. */
export function readTensorToGpu(t: tf.Tensor): GpuView {
  const backend = getWebGpuBackend();
  backend.uploadToGPU(t.dataId);
  const { buffer, tensorRef } = t.dataToGPU();
  if (buffer === undefined) throw new Error('dataToGPU returned no GPUBuffer');
  return { buffer, tensorRef };
}

/**
 * Usage an output buffer needs so that tfjs can wrap it as a tensor: GPUBufferUsage.STORAGE | COPY_SRC.
 * Written as numbers (fixed by the WebGPU spec) because in Node `GPUBufferUsage` is only a global once
 * Dawn's globals are installed, which may be after this module loads.
 */
export const TENSOR_BUFFER_USAGE = 0x0080 | 0x0004;

/** tfjs's command queue: an encoder exists while commands are recorded but not yet submitted. */
interface TfjsQueue {
  commandEncoder: GPUCommandEncoder | null;
  endComputePassEncoder(): void;
  submitQueue(): void;
}

/** The parts of tfjs's (untyped) WebGPU buffer manager that `releaseFreeGpuBuffers` reads and trims. */
interface TfjsBufferManager {
  freeBuffers: Map<string, GPUBuffer[]>;
  numFreeBuffers: number;
  numBytesAllocated: number;
}

/** The parts of tfjs's (untyped) tensor storage that the in-place helpers below read and reset. */
interface TfjsTensorData {
  values: unknown;
  resource?: unknown;
}

/** Submits whatever tfjs has recorded but not submitted yet, so that work we submit next runs after it. */
export function flushTfjsQueue(): void {
  const backend = getWebGpuBackend() as unknown as TfjsQueue;
  if (backend.commandEncoder) {
    backend.endComputePassEncoder();
    backend.submitQueue();
  }
}

/**
 * The GPU buffer that holds `t`'s data itself (not a copy, unlike `dataToGPU`, which also fails on a
 * buffer without COPY_DST usage such as a kernel's zero-copy output), uploaded first if still on the
 * CPU. For kernels that read it in place: call `flushTfjsQueue` before submitting them, and keep `t`
 * alive until they are submitted.
 */
export function tensorGpuBuffer(t: tf.Tensor): GPUBuffer {
  const backend = getWebGpuBackend();
  backend.uploadToGPU(t.dataId);
  const data = (backend as unknown as { tensorMap: { get(id: object): TfjsTensorData } }).tensorMap.get(t.dataId);
  const resource = data.resource as GPUBuffer | undefined;
  if (!resource || typeof resource.mapAsync !== 'function') throw new Error(`tensor ${t.id} is not held in a GPU buffer`);
  return resource;
}

/**
 * `tensorGpuBuffer` for kernels that write `t` in place: `t` must own its data alone (no other tensor
 * shares it, or a write would change both); call `markWrittenOnGpu` after submitting the writes.
 */
export function ownGpuBuffer(t: tf.Tensor): GPUBuffer {
  const owners = getWebGpuBackend().refCount(t.dataId);
  if (owners !== 1) throw new Error(`ownGpuBuffer: tensor ${t.id}'s data is shared (${owners} owners)`);
  return tensorGpuBuffer(t);
}

/** Forgets tfjs's CPU copy of `t`'s values (kept after a read), since a kernel has written its buffer. */
export function markWrittenOnGpu(t: tf.Tensor): void {
  const backend = getWebGpuBackend() as unknown as { tensorMap: { get(id: object): TfjsTensorData } };
  backend.tensorMap.get(t.dataId).values = null;
}

/**
 * Destroys the GPU buffers tfjs keeps for reuse. tfjs pools freed buffers by exact size, and a rollout's
 * step count changes every iteration, so without a trim the pool grows with every new batch size. Call
 * between iterations, when no tensor of the finished one is pending: queued commands are submitted
 * first, so no encoded command still refers to a buffer destroyed here. Buffers in use are untouched.
 */
export function releaseFreeGpuBuffers(): void {
  const backend = getWebGpuBackend() as unknown as { bufferManager: TfjsBufferManager };
  flushTfjsQueue();
  const manager = backend.bufferManager;
  // Keys stay in the map: tfjs's releaseBuffer skips its bookkeeping once the map is empty.
  for (const buffers of manager.freeBuffers.values()) {
    for (const buffer of buffers) {
      manager.numBytesAllocated -= buffer.size;
      buffer.destroy();
    }
    buffers.length = 0;
  }
  manager.numFreeBuffers = 0;
}
