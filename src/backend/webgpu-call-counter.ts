/**
 * Counts calls of the WebGPU API itself: compute dispatches, queue submits, buffer read-backs (maps for
 * reading) and the bytes they read back, plus buffer writes and their bytes.
 *
 * It wraps `GPUComputePassEncoder.prototype.dispatchWorkgroups` (and the indirect variant),
 * `GPUQueue.prototype.submit`, `GPUQueue.prototype.writeBuffer` and `GPUBuffer.prototype.mapAsync`, so it
 * sees every call whoever makes it (tfjs, our WGSL kernels), not what the code says it does. Install it
 * once the GPU* classes exist: in Node after the `webgpu` package installed its globals (node-webgpu.ts
 * does that on the first webgpu/auto backend request), in a browser at any time. Benches and tests share
 * it; it changes no result.
 */

/** Calls counted since the last `reset`. */
export interface WebGpuCallCounts {
  /** `dispatchWorkgroups` + `dispatchWorkgroupsIndirect` calls. */
  dispatches: number;
  /** `GPUQueue.submit` calls. */
  submits: number;
  /** `GPUBuffer.mapAsync` calls with the READ mode: each is a GPU → CPU round trip. */
  readBacks: number;
  /** Bytes covered by those read maps. */
  bytesReadBack: number;
  /** `GPUQueue.writeBuffer` calls (uploads, uniforms included). */
  writes: number;
  /** Bytes those writes uploaded. */
  bytesWritten: number;
}

export interface WebGpuCallCounter {
  /** A copy of the counts so far. */
  read(): WebGpuCallCounts;
  /** Sets every count to 0. */
  reset(): void;
  /** Puts the original methods back (the counts stop moving). */
  uninstall(): void;
}

const zero = (): WebGpuCallCounts => ({ dispatches: 0, submits: 0, readBacks: 0, bytesReadBack: 0, writes: 0, bytesWritten: 0 });

/** The MAP_READ bit of GPUMapMode, fixed by the WebGPU spec (the global may not exist when this loads). */
const MAP_READ = 0x0001;

let installed: WebGpuCallCounter | null = null;

type Method = (...args: never[]) => unknown;

/** The GPU* class named `name` in `scope`, or a message naming what is missing. */
function gpuClass(scope: object, name: string): { prototype: Record<string, Method> } {
  const cls = (scope as Record<string, unknown>)[name] as { prototype?: Record<string, Method> } | undefined;
  if (!cls?.prototype) {
    throw new Error(
      `WebGPU call counter: ${name} is not defined; in Node, initialise the webgpu backend (src/backend/node-webgpu.ts) before installing the counter`,
    );
  }
  return cls as { prototype: Record<string, Method> };
}

/** Byte length of `writeBuffer(buffer, offset, data, dataOffset?, size?)`'s upload. */
function writtenBytes(data: unknown, dataOffset: number | undefined, size: number | undefined): number {
  if (ArrayBuffer.isView(data)) {
    const element = 'BYTES_PER_ELEMENT' in data ? (data as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    const count = size ?? data.byteLength / element - (dataOffset ?? 0);
    return count * element;
  }
  if (data instanceof ArrayBuffer) return size ?? data.byteLength - (dataOffset ?? 0);
  return 0;
}

/**
 * Installs the counter (idempotent: a second call returns the installed one). Throws, naming the class,
 * when the GPU* classes are not defined yet.
 */
export function installWebGpuCallCounter(scope: object = globalThis): WebGpuCallCounter {
  if (installed) return installed;
  const counts = zero();
  const pass = gpuClass(scope, 'GPUComputePassEncoder').prototype;
  const queue = gpuClass(scope, 'GPUQueue').prototype;
  const buffer = gpuClass(scope, 'GPUBuffer').prototype;
  const originals: [Record<string, Method>, string, Method][] = [];
  const wrap = (proto: Record<string, Method>, name: string, count: (self: unknown, args: unknown[]) => void) => {
    const original = proto[name];
    if (typeof original !== 'function') return; // an implementation without it: nothing to count
    originals.push([proto, name, original]);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      count(this, args);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as Method;
  };
  wrap(pass, 'dispatchWorkgroups', () => counts.dispatches++);
  wrap(pass, 'dispatchWorkgroupsIndirect', () => counts.dispatches++);
  wrap(queue, 'submit', () => counts.submits++);
  wrap(queue, 'writeBuffer', (_self, [, , data, dataOffset, size]) => {
    counts.writes++;
    counts.bytesWritten += writtenBytes(data, dataOffset as number | undefined, size as number | undefined);
  });
  wrap(buffer, 'mapAsync', (self, [mode, offset, size]) => {
    if (((mode as number) & MAP_READ) === 0) return;
    counts.readBacks++;
    counts.bytesReadBack += (size as number | undefined) ?? (self as GPUBuffer).size - ((offset as number | undefined) ?? 0);
  });
  installed = {
    read: () => ({ ...counts }),
    reset: () => Object.assign(counts, zero()),
    uninstall: () => {
      for (const [proto, name, original] of originals) proto[name] = original;
      installed = null;
    },
  };
  return installed;
}

/** `after − before`, field by field: the calls made in between. */
export function callsBetween(before: WebGpuCallCounts, after: WebGpuCallCounts): WebGpuCallCounts {
  const out = zero();
  for (const key of Object.keys(out) as (keyof WebGpuCallCounts)[]) out[key] = after[key] - before[key];
  return out;
}
