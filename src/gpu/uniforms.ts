/**
 * Uniform structs: the TS side of each kernel's `struct Params`, written once as a field table.
 *
 * The WGSL struct and this table must agree byte for byte; test/kernels.test.ts parses every shader's
 * `Params` and compares names, types and offsets with the table, so a field added on one side only
 * fails a test instead of silently shifting every value after it. Only 4-byte scalars are used, so a
 * field's offset is 4 × its index (WGSL layout rules: size = alignment = 4).
 */

export type ScalarType = 'u32' | 'i32' | 'f32';

export interface UniformField<N extends string = string> {
  name: N;
  type: ScalarType;
  /** Byte offset in the struct. */
  offset: number;
}

export interface UniformLayout<N extends string = string> {
  fields: readonly UniformField<N>[];
  /** The WGSL struct's size in bytes. */
  structSize: number;
  /** The uniform buffer's size: the struct size rounded up to 16 bytes. */
  bufferSize: number;
}

export function uniformLayout<const N extends string>(fields: readonly (readonly [N, ScalarType])[]): UniformLayout<N> {
  const structSize = 4 * fields.length;
  return {
    fields: fields.map(([name, type], i) => ({ name, type, offset: 4 * i })),
    structSize,
    bufferSize: Math.max(16, Math.ceil(structSize / 16) * 16),
  };
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
