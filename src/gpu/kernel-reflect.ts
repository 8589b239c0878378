/**
 * A kernel's spec checked against its WGSL by reflection (wgsl-layout.ts, `wgsl_reflect`), and its
 * uniform layout taken from there. kernel.ts imports this module when it compiles its first kernel, so
 * the reflection parser (~0.2 MB of script) loads only where a kernel runs, never in a wasm race.
 */
import { GpuKernelError, KERNEL_SEEDS, type KernelSpec } from './kernel-spec.ts';
import type { UniformLayout } from './uniforms.ts';
import { reflectBindings, uniformLayoutOf } from './wgsl-layout.ts';

/**
 * The uniform layout of `source`'s `struct Params` for the fields `spec` sets, and its bindings
 * checked against `spec`'s: a kernel and its runner that disagree fail here, naming what differs.
 */
export function reflectKernel<P extends string, B extends string>(spec: KernelSpec<P, B>, source: string): UniformLayout<P> {
  try {
    const one = uniformLayoutOf(source, 'Params', spec.params);
    // A seed axis: KERNEL_SEEDS structs, each at a multiple of 16 bytes (a uniform array's stride).
    const params = spec.seeds ? { ...one, bufferSize: KERNEL_SEEDS * one.bufferSize } : one;
    if (spec.seeds && one.structSize % 16 !== 0) throw new Error(`struct Params is ${one.structSize} bytes, not a multiple of 16: no uniform array's element`);
    const expected = [
      spec.seeds ? '0 uniform read seedParams' : `0 uniform read params`,
      ...spec.storage.map(([name, access], i) => `${i + 1} storage ${access} ${name}`),
    ];
    const actual = reflectBindings(source).map((b) => `${b.group === 0 ? '' : `group ${b.group} `}${b.binding} ${b.space} ${b.access} ${b.name}`);
    const differs = Math.max(expected.length, actual.length);
    for (let i = 0; i < differs; i++) {
      if (expected[i] !== actual[i])
        throw new Error(`binding ${i} is "${actual[i] ?? 'nothing'}" in the WGSL but "${expected[i] ?? 'nothing'}" in the runner's table`);
    }
    return params;
  } catch (e) {
    throw new GpuKernelError(spec.name, e instanceof Error ? e.message : String(e));
  }
}
