/**
 * Running one WGSL kernel on a GPUDevice: the part every runner shares.
 *
 * A kernel is described once (`KernelSpec`): the uniform `Params` fields it sets and its storage
 * bindings in binding order, named as in the WGSL. When the kernel is compiled both are checked
 * against the shader by reflection (wgsl-layout.ts), and the uniform offsets and sizes are taken from
 * it. From that this module builds an explicit bind group layout, compiles the pipeline once per
 * (device, kernel, source, workgroup size) and caches it, and runs dispatches. Each dispatch is its own command buffer inside
 * error scopes, so a validation, out-of-memory or internal error comes back naming the kernel that
 * caused it rather than surfacing later from some unrelated submit.
 */
import { shaderOrigin } from './shader-source.ts';
import { packSeedUniforms, packUniforms, type UniformLayout } from './uniforms.ts';
import { injectKernelFault } from './fault-injection.ts';
import { GpuKernelError, type KernelSpec } from './kernel-spec.ts';

export { defineKernel, GpuKernelError, type KernelSpec, type StorageAccess } from './kernel-spec.ts';

interface CompiledKernel<P extends string = string> {
  layout: GPUBindGroupLayout;
  pipeline: GPUComputePipeline;
  /** The uniform layout, reflected from the source. */
  params: UniformLayout<P>;
}

const pipelineCache = new WeakMap<GPUDevice, Map<string, Promise<CompiledKernel<string>>>>();

/** Number of pipelines compiled so far on `device` (for tests of the cache). */
export function cachedPipelineCount(device: GPUDevice): number {
  return pipelineCache.get(device)?.size ?? 0;
}

function compile<P extends string, B extends string>(
  device: GPUDevice,
  spec: KernelSpec<P, B>,
  source: string,
  workgroupSize: number,
): Promise<CompiledKernel<P>> {
  let cache = pipelineCache.get(device);
  if (!cache) pipelineCache.set(device, (cache = new Map()));
  const key = `${spec.name}|${workgroupSize}|${source}`;
  let compiled = cache.get(key);
  if (!compiled) {
    compiled = compileUncached(device, spec, source, workgroupSize);
    cache.set(key, compiled);
    // A failed compile is not cached: the next call reports the error again instead of reusing it.
    compiled.catch(() => cache.delete(key));
  }
  // The key holds spec.name, whose spec fixes P.
  return compiled as Promise<CompiledKernel<P>>;
}

async function compileUncached<P extends string, B extends string>(
  device: GPUDevice,
  spec: KernelSpec<P, B>,
  source: string,
  workgroupSize: number,
): Promise<CompiledKernel<P>> {
  // The WGSL reflection (wgsl_reflect, ~0.2 MB) loads with the first kernel: a wasm race never loads it.
  const { reflectKernel } = await import('./kernel-reflect.ts');
  const params = reflectKernel(spec, source);
  // Scopes are pushed and popped in one synchronous stretch, so no other code's errors land in them.
  device.pushErrorScope('validation');
  const layout = device.createBindGroupLayout({
    label: spec.name,
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
      ...spec.storage.map(
        ([, access], i): GPUBindGroupLayoutEntry => ({
          binding: i + 1,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: access === 'read' ? 'read-only-storage' : 'storage' },
        }),
      ),
    ],
  });
  const module = device.createShaderModule({ label: spec.name, code: source });
  const pipelineLayout = device.createPipelineLayout({ label: spec.name, bindGroupLayouts: [layout] });
  const setupError = device.popErrorScope();
  let pipeline: GPUComputePipeline;
  try {
    pipeline = await device.createComputePipelineAsync({
      label: spec.name,
      layout: pipelineLayout,
      compute: { module, entryPoint: 'main', constants: { WORKGROUP_SIZE: workgroupSize } },
    });
  } catch (e) {
    const info = await module.getCompilationInfo();
    const messages = info.messages.map((m) => {
      const origin = shaderOrigin(source, m.offset);
      return `${m.type} at ${m.lineNum}:${m.linePos}${origin === null ? '' : ` (${origin})`}: ${m.message}`;
    });
    throw new GpuKernelError(spec.name, [e instanceof Error ? e.message : String(e), ...messages].join('\n'));
  }
  const error = await setupError;
  if (error) throw new GpuKernelError(spec.name, error.message);
  return { layout, pipeline, params };
}

/** One dispatch for `submitDispatches`: a runner, its bindings and uniforms, and its workgroup count. */
export interface RecordedDispatch {
  runner: KernelRunner<string, string>;
  buffers: Readonly<Record<string, GPUBuffer>>;
  params: Readonly<Record<string, number>>;
  workgroups: number;
}

/**
 * Records `dispatches` in order into one command buffer (one compute pass each, so each sees the
 * previous one's writes), after whatever `before` adds (copies in) and before whatever `after` adds
 * (copies out), and submits once: one submit where
 * `KernelRunner.dispatch` would make one per kernel. Each runner may appear once (its uniforms hold
 * one set of values per submit). The promise rejects with a GpuKernelError naming the kernels if the
 * device reports an error.
 */
export function submitDispatches(
  device: GPUDevice,
  label: string,
  dispatches: readonly RecordedDispatch[],
  after?: (encoder: GPUCommandEncoder) => void,
  before?: (encoder: GPUCommandEncoder) => void,
): Promise<void> {
  const runners = new Set(dispatches.map((d) => d.runner));
  if (runners.size !== dispatches.length) throw new Error(`submitDispatches (${label}): a runner appears twice`);
  const groups = dispatches.map((d) => d.runner.prepare(d.buffers, d.params)); // may throw: before any scope is pushed
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('internal');
  device.pushErrorScope('validation');
  let scopes: Promise<GPUError | null>[];
  try {
    injectKernelFault(device);
    const encoder = device.createCommandEncoder({ label });
    before?.(encoder);
    dispatches.forEach((d, i) => {
      const pass = encoder.beginComputePass({ label: d.runner.spec.name });
      d.runner.record(pass, groups[i], d.workgroups);
      pass.end();
    });
    after?.(encoder);
    device.queue.submit([encoder.finish()]);
  } finally {
    scopes = [device.popErrorScope(), device.popErrorScope(), device.popErrorScope()];
  }
  const names = dispatches.map((d) => d.runner.spec.name).join(', ');
  return Promise.all(scopes).then((errors) => {
    const error = errors.find((e) => e !== null);
    if (error) throw new GpuKernelError(names, error.message);
  });
}

/** One kernel bound to a device: its cached pipeline and its own uniform buffer. */
export class KernelRunner<P extends string, B extends string> {
  private readonly uniforms: GPUBuffer;

  private constructor(
    readonly device: GPUDevice,
    readonly spec: KernelSpec<P, B>,
    private readonly compiled: CompiledKernel<P>,
  ) {
    this.uniforms = device.createBuffer({
      label: `${spec.name} params`,
      size: compiled.params.bufferSize,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  static async create<P extends string, B extends string>(
    device: GPUDevice,
    spec: KernelSpec<P, B>,
    source: string,
    workgroupSize: number,
  ): Promise<KernelRunner<P, B>> {
    return new KernelRunner(device, spec, await compile(device, spec, source, workgroupSize));
  }

  /**
   * Writes the uniforms, dispatches `workgroups` workgroups (laid out on a 2-D grid when they exceed
   * the per-dimension limit; the shaders linearise the id and skip the surplus) and submits. The
   * returned promise settles once the error scopes have come back, rejecting with a GpuKernelError.
   */
  dispatch(buffers: Readonly<Record<B, GPUBuffer>>, params: Readonly<Record<P, number>>, workgroups: number): Promise<void> {
    const d = this.device;
    const maxPerDimension = d.limits.maxComputeWorkgroupsPerDimension;
    const x = Math.max(1, Math.min(workgroups, maxPerDimension));
    const y = Math.ceil(workgroups / x);
    if (y > maxPerDimension) return Promise.reject(new GpuKernelError(this.spec.name, `${workgroups} workgroups exceed the device's grid`));
    const uniformBytes = this.pack([params]); // may throw: before any scope is pushed
    d.pushErrorScope('out-of-memory');
    d.pushErrorScope('internal');
    d.pushErrorScope('validation');
    injectKernelFault(d);
    d.queue.writeBuffer(this.uniforms, 0, uniformBytes);
    const bindGroup = d.createBindGroup({
      label: this.spec.name,
      layout: this.compiled.layout,
      entries: [
        { binding: 0, resource: { buffer: this.uniforms } },
        ...this.spec.storage.map(([name], i) => ({ binding: i + 1, resource: { buffer: buffers[name] } })),
      ],
    });
    const encoder = d.createCommandEncoder({ label: this.spec.name });
    const pass = encoder.beginComputePass({ label: this.spec.name });
    pass.setPipeline(this.compiled.pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(x, y);
    pass.end();
    d.queue.submit([encoder.finish()]);
    const scopes = [d.popErrorScope(), d.popErrorScope(), d.popErrorScope()];
    return Promise.all(scopes).then((errors) => {
      const error = errors.find((e) => e !== null);
      if (error) throw new GpuKernelError(this.spec.name, error.message);
    });
  }

  /**
   * For work recorded into one command buffer (a GPU rollout encodes every step before one submit):
   * writes the uniforms, which then hold for every dispatch this runner records until the next write,
   * and returns the bind group of `buffers`. Errors surface from the caller's error scopes.
   */
  prepare(buffers: Readonly<Record<B, GPUBuffer>>, params: Readonly<Record<P, number>>): GPUBindGroup {
    return this.prepareSeeds(buffers, [params]);
  }

  /** As `prepare`, for a kernel with a seed axis: seed s's uniforms are `params[s]` (the grid's z is s: `record`'s `seeds`). */
  prepareSeeds(buffers: Readonly<Record<B, GPUBuffer>>, params: readonly Readonly<Record<P, number>>[]): GPUBindGroup {
    this.device.queue.writeBuffer(this.uniforms, 0, this.pack(params));
    return this.device.createBindGroup({
      label: this.spec.name,
      layout: this.compiled.layout,
      entries: [
        { binding: 0, resource: { buffer: this.uniforms } },
        ...this.spec.storage.map(([name], i) => ({ binding: i + 1, resource: { buffer: buffers[name] } })),
      ],
    });
  }

  /** One struct, or one per seed where the kernel has a seed axis (kernel-spec.ts `seeds`). */
  private pack(params: readonly Readonly<Record<P, number>>[]): ArrayBuffer {
    const layout = this.compiled.params;
    if (this.spec.seeds) return packSeedUniforms(layout, params);
    if (params.length !== 1) throw new RangeError(`${this.spec.name} has no seed axis: one set of uniforms, not ${params.length}`);
    return packUniforms(layout, params[0]);
  }

  /**
   * Records one dispatch of `workgroups` workgroups (a 2-D grid past the per-dimension limit) into
   * `pass`, for each of `seeds` seeds (the grid's z) where the kernel has a seed axis.
   */
  record(pass: GPUComputePassEncoder, bindGroup: GPUBindGroup, workgroups: number, seeds = 1): void {
    const maxPerDimension = this.device.limits.maxComputeWorkgroupsPerDimension;
    const x = Math.max(1, Math.min(workgroups, maxPerDimension));
    const y = Math.ceil(workgroups / x);
    if (y > maxPerDimension) throw new GpuKernelError(this.spec.name, `${workgroups} workgroups exceed the device's grid`);
    pass.setPipeline(this.compiled.pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(x, y, seeds);
  }

  destroy(): void {
    this.uniforms.destroy();
  }
}
