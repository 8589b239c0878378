/**
 * GPU values whose copy to the CPU can wait, and the one read-back that copies several of them at once.
 *
 * A map for reading is a GPU → CPU round trip that stalls the caller until the queue has drained, so a
 * webgpu iteration makes as few as it can: the advantage details (A, A_traj, A_seg, r_t, or GiGPO's
 * parts) and the PPO statistics are needed only after the update (the metrics, the page's snapshot, the
 * check for a non-finite loss), so they are read together at the end of the iteration
 * (src/trainer/iteration-read-back.ts), one staging buffer and one `mapAsync`.
 *
 * A `PendingRead` names float32 values in GPU buffers and how to turn them into a result. Its sources
 * must hold those values until it is read: `keepForLater` copies them (GPU-side, no read-back) into a
 * buffer the read owns, for values whose buffers are reused before the read (kernel scratch, an output
 * lent to a tensor). Whoever holds a pending read either passes it to `readTogether`, which always
 * releases it, or releases it.
 */
import type * as tf from '@tensorflow/tfjs-core';
import { flushTfjsQueue, getWebGpuDevice, tensorGpuBuffer } from '../backend/webgpu-interop.ts';
import { COPY_DST, COPY_SRC, MAP_READ } from './buffer-usage.ts';

/** A source of a pending read: `count` float32 values of `buffer`, from value `offset` (default 0). */
export type ReadSource = readonly [buffer: GPUBuffer, count: number, offset?: number];

export interface PendingRead<T> {
  /** The device every source lives on (a joint read needs one). */
  readonly device: GPUDevice;
  readonly sources: readonly ReadSource[];
  /** The result from each source's values, in order (views into the staging copy: copy what you keep). */
  decode(values: Float32Array[]): T;
  /** Frees what holds the values; safe to call more than once. */
  release(): void;
}

let keptBuffers = 0;

/** Buffers made by `keepForLater` and not yet released (tests check that none leak). */
export function liveKeptBuffers(): number {
  return keptBuffers;
}

/** A pending read of `sources` on `device`; `release` frees whatever holds them (default: nothing). */
export function pendingRead<T>(device: GPUDevice, sources: readonly ReadSource[], decode: (values: Float32Array[]) => T, release = () => {}): PendingRead<T> {
  let released = false;
  return {
    device,
    sources,
    decode,
    release() {
      if (released) return;
      released = true;
      release();
    },
  };
}

/** `read` with its result mapped by `f` (same sources, same release). */
export function mapRead<T, U>(read: PendingRead<T>, f: (value: T) => U): PendingRead<U> {
  return { device: read.device, sources: read.sources, decode: (values) => f(read.decode(values)), release: () => read.release() };
}

/**
 * `read`'s values copied on the GPU into one buffer the returned read owns, so its sources may be
 * reused (`read` is released here). The copy is recorded into `encoder` when one is given (the caller
 * submits it, before any later work writes the sources), else submitted now; queue order makes it see
 * every command submitted before it and none after it.
 */
export function keepForLater<T>(read: PendingRead<T>, label: string, encoder?: GPUCommandEncoder): PendingRead<T> {
  const { device, sources } = read;
  const counts = sources.map(([, count]) => count);
  const total = counts.reduce((a, b) => a + b, 0);
  const kept = device.createBuffer({ label: `${label} (kept for the read-back)`, size: Math.max(4, total * 4), usage: COPY_SRC | COPY_DST });
  keptBuffers++;
  try {
    const own = encoder ?? device.createCommandEncoder({ label: `${label} (kept for the read-back)` });
    copyInOrder(own, sources, kept);
    if (!encoder) device.queue.submit([own.finish()]);
  } catch (e) {
    kept.destroy();
    keptBuffers--;
    throw e;
  } finally {
    read.release();
  }
  return pendingRead(
    device,
    [[kept, total]],
    ([all]) => read.decode(split(all, counts)),
    () => {
      kept.destroy(); // work already submitted keeps it alive until it completes (WebGPU semantics)
      keptBuffers--;
    },
  );
}

/**
 * A float32 tensor's values on the webgpu backend, for a joint read, copied from the tensor's own
 * buffer (no copy of tfjs's of its own, which would cost a submit): tfjs's pending work is submitted
 * now, and `t` must stay alive until the read's copy is submitted (`readTogether` submits it before
 * it first awaits).
 */
export function tensorRead(t: tf.Tensor): PendingRead<Float32Array> {
  if (t.dtype !== 'float32') throw new TypeError(`tensorRead: a float32 tensor is needed, got ${t.dtype}`);
  const buffer = tensorGpuBuffer(t);
  flushTfjsQueue();
  return pendingRead(getWebGpuDevice(), [[buffer, t.size]], ([values]) => values.slice());
}

/**
 * Reads every pending read with one staging buffer and one `mapAsync`, and returns their results in
 * order. Every read is released, whether the read-back succeeds or not.
 */
export async function readTogether<T extends unknown[]>(reads: { [K in keyof T]: PendingRead<T[K]> }): Promise<T> {
  const list = reads as readonly PendingRead<unknown>[];
  let staging: GPUBuffer | undefined;
  try {
    if (list.length === 0) return [] as unknown as T;
    const device = list[0].device;
    if (list.some((r) => r.device !== device)) throw new Error('readTogether: the reads live on different devices');
    const counts = list.flatMap((r) => r.sources.map(([, count]) => count));
    const total = counts.reduce((a, b) => a + b, 0);
    staging = device.createBuffer({ label: 'iteration read-back', size: Math.max(4, total * 4), usage: MAP_READ | COPY_DST });
    const encoder = device.createCommandEncoder({ label: 'iteration read-back' });
    copyInOrder(
      encoder,
      list.flatMap((r) => r.sources),
      staging,
    );
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(MAP_READ);
    const all = new Float32Array(staging.getMappedRange().slice(0, total * 4));
    const parts = split(all, counts);
    let next = 0;
    return list.map((r) => r.decode(parts.slice(next, (next += r.sources.length)))) as T;
  } finally {
    staging?.destroy();
    for (const r of list) r.release();
  }
}

/** Encodes copies of every source's values into `target`, one after another from its start. */
function copyInOrder(encoder: GPUCommandEncoder, sources: readonly ReadSource[], target: GPUBuffer): void {
  let offset = 0;
  for (const [buffer, count, from = 0] of sources) {
    if (count > 0) encoder.copyBufferToBuffer(buffer, from * 4, target, offset * 4, count * 4);
    offset += count;
  }
}

/** `all` cut into consecutive views of `counts` values. */
function split(all: Float32Array, counts: readonly number[]): Float32Array[] {
  let from = 0;
  return counts.map((count) => all.subarray(from, (from += count)));
}
