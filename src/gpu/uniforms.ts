/**
 * Uniform structs: the TS side of each kernel's `struct Params`.
 *
 * A runner names the fields it sets and their scalar types, in order (`uniformFields`); the offsets
 * and sizes are read from the WGSL by reflection when the kernel is compiled (wgsl-layout.ts
 * `uniformLayoutOf`), which also checks the names and types, so a field added on one side only fails
 * naming that field instead of silently shifting every value after it.
 */

export type ScalarType = 'u32' | 'i32' | 'f32';

export interface UniformField<N extends string = string> {
  name: N;
  type: ScalarType;
  /** Byte offset in the struct. */
  offset: number;
}

/** A struct's layout as reflected from its WGSL (wgsl-layout.ts). */
export interface UniformLayout<N extends string = string> {
  fields: readonly UniformField<N>[];
  /** The WGSL struct's size in bytes. */
  structSize: number;
  /** The uniform buffer's size: the struct size rounded up to 16 bytes. */
  bufferSize: number;
}

/** The fields a runner sets, in the WGSL struct's order. */
export type UniformFields<N extends string = string> = readonly (readonly [N, ScalarType])[];

/** Identity with inference: keeps the field names as literal types. */
export function uniformFields<const N extends string>(fields: UniformFields<N>): UniformFields<N> {
  return fields;
}

/** Packs values into the layout's bytes; throws naming the field if a value does not fit its type. */
export function packUniforms<N extends string>(layout: UniformLayout<N>, values: Readonly<Record<N, number>>): ArrayBuffer {
  const bytes = new ArrayBuffer(layout.bufferSize);
  const view = new DataView(bytes);
  for (const { name, type, offset } of layout.fields) {
    const x = values[name];
    if (!Number.isFinite(x)) throw new RangeError(`uniform ${name} must be a finite number, got ${x}`);
    if (type === 'f32') {
      view.setFloat32(offset, x, true);
    } else if (type === 'u32') {
      if (!Number.isInteger(x) || x < 0 || x > 0xffffffff) throw new RangeError(`uniform ${name} (u32) out of range: ${x}`);
      view.setUint32(offset, x, true);
    } else {
      if (!Number.isInteger(x) || x < -0x80000000 || x > 0x7fffffff) throw new RangeError(`uniform ${name} (i32) out of range: ${x}`);
      view.setInt32(offset, x, true);
    }
  }
  return bytes;
}

/**
 * One struct per seed for a kernel with a seed axis (`var<uniform> seedParams: array<Params, N>`):
 * seed s's values at s × the struct's size (a multiple of 16, as a uniform array's stride).
 */
export function packSeedUniforms<N extends string>(layout: UniformLayout<N>, seeds: readonly Readonly<Record<N, number>>[]): ArrayBuffer {
  const structBytes = layout.structSize;
  if (seeds.length < 1 || seeds.length * structBytes > layout.bufferSize)
    throw new RangeError(`uniforms: ${seeds.length} seeds, between 1 and ${layout.bufferSize / structBytes} fit`);
  const bytes = new Uint8Array(seeds.length * structBytes);
  seeds.forEach((values, s) => bytes.set(new Uint8Array(packUniforms({ ...layout, bufferSize: structBytes }, values)), s * structBytes));
  return bytes.buffer;
}
