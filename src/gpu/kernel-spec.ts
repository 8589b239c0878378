/**
 * A WGSL kernel's description (`KernelSpec`: the uniform `Params` fields it sets and its storage
 * bindings, named as in the WGSL) and the error that names a kernel. Apart from kernel.ts so that the
 * reflection that checks a spec against its WGSL (kernel-reflect.ts) can load on demand.
 */
import type { KernelName } from './shader-source.ts';
import type { UniformFields } from './uniforms.ts';

export type StorageAccess = 'read' | 'read_write';

export interface KernelSpec<P extends string, B extends string> {
  name: KernelName;
  /** The fields of the WGSL `struct Params` (bound at @binding(0) as `var<uniform> params`), in order. */
  params: UniformFields<P>;
  /** Storage buffers at @binding(1), @binding(2), … in order, with the WGSL variable names. */
  storage: readonly (readonly [B, StorageAccess])[];
  /**
   * A kernel with a seed axis: @binding(0) is `var<uniform> seedParams: array<Params, KERNEL_SEEDS>`,
   * one `Params` per seed, and the grid's z is the seed (each workgroup reads its seed's).
   */
  seeds?: boolean;
}

/** The most seeds a kernel with a seed axis takes in one dispatch (KERNEL_SEEDS in shaders/lib/dispatch.wgsl; MAX_SEEDS.webgpu). */
export const KERNEL_SEEDS = 16;

/** Identity with inference: keeps the field and binding names as literal types. */
export function defineKernel<const P extends string, const B extends string>(spec: KernelSpec<P, B>): KernelSpec<P, B> {
  return spec;
}

export class GpuKernelError extends Error {
  constructor(
    readonly kernel: string,
    message: string,
  ) {
    super(`WGSL kernel ${kernel}: ${message}`);
    this.name = 'GpuKernelError';
  }
}
