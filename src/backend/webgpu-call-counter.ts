/**
 * Counts calls of the WebGPU API itself: compute dispatches, queue submits, buffer read-backs (maps for
 * reading) and the bytes they read back, the host's uploads and their bytes, pipelines created, and the
 * time the host spends with a GPU promise pending.
 *
 * It wraps methods of the GPU* prototypes, so it sees every call whoever makes it (tfjs, our WGSL
 * kernels), not what the code says it does. Install it once the GPU* classes exist: in Node after the
 * `webgpu` package installed its globals (node-webgpu.ts does that on the first webgpu/auto backend
 * request), in a browser at any time. Benches and tests share it; it changes no result (a wrapped
 * promise settles as the original does, rejections included).
 *
 * Uploads come two ways, and both are counted. `GPUQueue.writeBuffer` (tfjs's uniforms, our kernels'
 * inputs) and `writeTexture`; and mapped writes: tfjs 4.22's `uploadToGPU` (backend_webgpu.js) creates
 * the tensor's buffer `mappedAtCreation` (or, when it reuses a pooled buffer, a `MAP_WRITE` staging
 * buffer created mapped), fills `getMappedRange()` and unmaps. A mapped write counts the range's bytes,
 * which is what the host may write into it (tfjs fills it whole).
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
  /** `GPUQueue.writeBuffer` and `writeTexture` calls (uploads, uniforms included). */
  writes: number;
  /** `getMappedRange` calls on a buffer mapped for writing (created `mappedAtCreation`, or mapped with WRITE). */
  mappedWrites: number;
  /** Bytes the host wrote: those of `writes` plus the ranges of `mappedWrites`. */
  bytesWritten: number;
  /** Of `bytesWritten`, the bytes of mapped writes. */
  bytesWrittenMapped: number;
  /** `createComputePipeline(Async)` + `createRenderPipeline(Async)` calls: each compiles a shader. */
  pipelines: number;
  /** `createBuffer` calls. */
  buffersCreated: number;
  /** Buffers destroyed (each counted once, however often `destroy` is called): created − destroyed is what lives. */
  buffersDestroyed: number;
  /** Bytes of the buffers created (their `size`). */
  bytesCreated: number;
  /** Bytes of the buffers destroyed (each once): bytesCreated − bytesDestroyed is the GPU memory in buffers that lives. */
  bytesDestroyed: number;
  /**
   * Milliseconds during which at least one GPU promise was pending (`mapAsync`, `onSubmittedWorkDone`,
   * `popErrorScope`, the async pipeline creations, `getCompilationInfo`): the union of their intervals
   * from call to settlement, so overlapping waits count once.
   */
  gpuWaitMs: number;
  /** How far the `cpuClock` given at install (e.g. the main thread's CPU time) advanced during those waits; 0 without one. */
  gpuWaitCpuMs: number;
}

export interface WebGpuCallCounterOptions {
  /**
   * A second clock in milliseconds, read at the start and end of each GPU wait, such as the CPU time of
   * the thread that issues the calls: what it spends while waiting (polling the GPU) can then be told
   * apart from its own work on a machine where it shares the cores.
   */
  cpuClock?: () => number;
}

export interface WebGpuCallCounter {
  /** A copy of the counts so far (a wait still pending counts up to now). */
  read(): WebGpuCallCounts;
  /** Sets every count to 0. */
  reset(): void;
  /** Puts the original methods back (the counts stop moving). */
  uninstall(): void;
}

const zero = (): WebGpuCallCounts => ({
  dispatches: 0,
  submits: 0,
  readBacks: 0,
  bytesReadBack: 0,
  writes: 0,
  mappedWrites: 0,
  bytesWritten: 0,
  bytesWrittenMapped: 0,
  pipelines: 0,
  buffersCreated: 0,
  buffersDestroyed: 0,
  bytesCreated: 0,
  bytesDestroyed: 0,
  gpuWaitMs: 0,
  gpuWaitCpuMs: 0,
});

/** The MAP_READ and MAP_WRITE bits of GPUMapMode, fixed by the WebGPU spec (the global may not exist when this loads). */
const MAP_READ = 0x0001;
const MAP_WRITE = 0x0002;

/**
 * The WebGPU methods whose promise the host waits on, by GPU* class: the counter times them as GPU
 * waits, and in Node the pacer paces them (node-gpu-wait-pacer.ts).
 */
export const GPU_PROMISE_METHODS = [
  ['GPUBuffer', 'mapAsync'],
  ['GPUQueue', 'onSubmittedWorkDone'],
  ['GPUDevice', 'popErrorScope'],
  ['GPUDevice', 'createComputePipelineAsync'],
  ['GPUDevice', 'createRenderPipelineAsync'],
  ['GPUShaderModule', 'getCompilationInfo'],
] as const;
type GpuPromiseMethod = (typeof GPU_PROMISE_METHODS)[number][1];

let installed: WebGpuCallCounter | null = null;

type Method = (...args: never[]) => unknown;
type Proto = Record<string, Method>;

/** The GPU* class named `name` in `scope`, or a message naming what is missing. */
function gpuClass(scope: object, name: string): { prototype: Proto } {
  const cls = (scope as Record<string, unknown>)[name] as { prototype?: Proto } | undefined;
  if (!cls?.prototype) {
    throw new Error(
      `WebGPU call counter: ${name} is not defined; in Node, initialise the webgpu backend (src/backend/node-webgpu.ts) before installing the counter`,
    );
  }
  return cls as { prototype: Proto };
}

/** Byte length of `writeBuffer(buffer, offset, data, dataOffset?, size?)`'s upload; offset and size count elements of a typed array. */
function writtenBytes(data: unknown, dataOffset: number | undefined, size: number | undefined): number {
  if (ArrayBuffer.isView(data)) {
    const element = 'BYTES_PER_ELEMENT' in data ? (data as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    const count = size ?? data.byteLength / element - (dataOffset ?? 0);
    return count * element;
  }
  if (data instanceof ArrayBuffer) return size ?? data.byteLength - (dataOffset ?? 0);
  return 0;
}

/** Byte length of `writeTexture(destination, data, layout, size)`'s source: the data after the layout's offset. */
function textureBytes(data: unknown, layout: { offset?: number } | undefined): number {
  const length = ArrayBuffer.isView(data) || data instanceof ArrayBuffer ? data.byteLength : 0;
  return Math.max(0, length - (layout?.offset ?? 0));
}

/**
 * Installs the counter (idempotent: a second call returns the installed one, with its first options).
 * Throws, naming the class, when the GPU* classes are not defined yet.
 */
export function installWebGpuCallCounter(scope: object = globalThis, options: WebGpuCallCounterOptions = {}): WebGpuCallCounter {
  if (installed) return installed;
  const counts = zero();
  const device = gpuClass(scope, 'GPUDevice').prototype;
  const pass = gpuClass(scope, 'GPUComputePassEncoder').prototype;
  const queue = gpuClass(scope, 'GPUQueue').prototype;
  const buffer = gpuClass(scope, 'GPUBuffer').prototype;
  const shaderModule = (scope as Record<string, { prototype?: Proto } | undefined>).GPUShaderModule?.prototype;
  const originals: [Proto, string, Method][] = [];
  /** Replaces `proto[name]` by a function that hands `around` the original, `this` and the arguments. */
  const replace = (proto: Proto | undefined, name: string, around: (original: Method, self: unknown, args: unknown[]) => unknown) => {
    const original = proto?.[name];
    if (!proto || typeof original !== 'function') return; // an implementation without it: nothing to count
    originals.push([proto, name, original]);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      return around(original, this, args);
    } as Method;
  };
  const call = (original: Method, self: unknown, args: unknown[]) => (original as (...a: unknown[]) => unknown).apply(self, args);
  /** Counts before calling the original; the original's result is returned unchanged. */
  const wrap = (proto: Proto | undefined, name: string, count: (self: unknown, args: unknown[]) => void) =>
    replace(proto, name, (original, self, args) => {
      count(self, args);
      return call(original, self, args);
    });

  // GPU waits: the union of the intervals during which at least one GPU promise is pending.
  const cpuClock = options.cpuClock;
  const wait = { pending: 0, since: 0, cpuSince: 0 };
  const settle = () => {
    if (--wait.pending > 0) return;
    counts.gpuWaitMs += performance.now() - wait.since;
    if (cpuClock) counts.gpuWaitCpuMs += cpuClock() - wait.cpuSince;
  };
  /** As `wrap`, and a promise the original returns is timed from the call to its settlement. */
  const timed = (proto: Proto | undefined, name: string, count?: (self: unknown, args: unknown[]) => void) =>
    replace(proto, name, (original, self, args) => {
      count?.(self, args);
      const result = call(original, self, args);
      if (typeof (result as PromiseLike<unknown> | undefined)?.then !== 'function') return result;
      if (wait.pending++ === 0) {
        wait.since = performance.now();
        if (cpuClock) wait.cpuSince = cpuClock();
      }
      return Promise.resolve(result).then(
        (value) => {
          settle();
          return value;
        },
        (error: unknown) => {
          settle();
          throw error;
        },
      );
    });

  // Buffers mapped for writing, until unmapped: their getMappedRange ranges are host writes.
  const writeMapped = new WeakSet<object>();

  wrap(pass, 'dispatchWorkgroups', () => counts.dispatches++);
  wrap(pass, 'dispatchWorkgroupsIndirect', () => counts.dispatches++);
  wrap(queue, 'submit', () => counts.submits++);
  wrap(queue, 'writeBuffer', (_self, [, , data, dataOffset, size]) => {
    counts.writes++;
    counts.bytesWritten += writtenBytes(data, dataOffset as number | undefined, size as number | undefined);
  });
  wrap(queue, 'writeTexture', (_self, [, data, layout]) => {
    counts.writes++;
    counts.bytesWritten += textureBytes(data, layout as { offset?: number } | undefined);
  });
  replace(device, 'createBuffer', (original, self, args) => {
    const created = call(original, self, args);
    counts.buffersCreated++;
    counts.bytesCreated += (args[0] as GPUBufferDescriptor | undefined)?.size ?? 0;
    if ((args[0] as GPUBufferDescriptor | undefined)?.mappedAtCreation && created) writeMapped.add(created as object);
    return created;
  });
  for (const name of ['createComputePipeline', 'createRenderPipeline']) wrap(device, name, () => counts.pipelines++);
  const counted: Partial<Record<GpuPromiseMethod, (self: unknown, args: unknown[]) => void>> = {
    createComputePipelineAsync: () => counts.pipelines++,
    createRenderPipelineAsync: () => counts.pipelines++,
    mapAsync: (self, [mode, offset, size]) => {
      if (((mode as number) & MAP_WRITE) !== 0) writeMapped.add(self as object);
      if (((mode as number) & MAP_READ) === 0) return;
      counts.readBacks++;
      counts.bytesReadBack += (size as number | undefined) ?? (self as GPUBuffer).size - ((offset as number | undefined) ?? 0);
    },
  };
  const prototypes = { GPUBuffer: buffer, GPUQueue: queue, GPUDevice: device, GPUShaderModule: shaderModule };
  for (const [className, name] of GPU_PROMISE_METHODS) timed(prototypes[className], name, counted[name]);
  wrap(buffer, 'getMappedRange', (self, [offset, size]) => {
    if (!writeMapped.has(self as object)) return;
    const bytes = (size as number | undefined) ?? (self as GPUBuffer).size - ((offset as number | undefined) ?? 0);
    counts.mappedWrites++;
    counts.bytesWritten += bytes;
    counts.bytesWrittenMapped += bytes;
  });
  wrap(buffer, 'unmap', (self) => writeMapped.delete(self as object));
  const destroyed = new WeakSet<object>();
  wrap(buffer, 'destroy', (self) => {
    writeMapped.delete(self as object);
    if (destroyed.has(self as object)) return;
    destroyed.add(self as object);
    counts.buffersDestroyed++;
    counts.bytesDestroyed += (self as GPUBuffer).size;
  });

  installed = {
    read: () => {
      const open = wait.pending > 0;
      return {
        ...counts,
        gpuWaitMs: counts.gpuWaitMs + (open ? performance.now() - wait.since : 0),
        gpuWaitCpuMs: counts.gpuWaitCpuMs + (open && cpuClock ? cpuClock() - wait.cpuSince : 0),
      };
    },
    reset: () => {
      Object.assign(counts, zero());
      if (wait.pending > 0) {
        wait.since = performance.now();
        if (cpuClock) wait.cpuSince = cpuClock();
      }
    },
    uninstall: () => {
      for (const [proto, name, original] of originals.reverse()) proto[name] = original;
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
