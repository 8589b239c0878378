/**
 * Struct layouts and bindings read from the WGSL itself, by reflection (`wgsl_reflect`), so that the
 * TypeScript side never restates a size or an offset: a runner names the uniform fields it sets
 * (uniforms.ts) and the offsets, the struct's size and the buffer's size come from the kernel's
 * `struct Params`. A field added, removed, renamed or retyped on one side only fails when the kernel
 * is compiled, naming the field, instead of silently shifting every value after it.
 */
import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import type { ScalarType, UniformFields, UniformLayout } from './uniforms.ts';

export interface StructField {
  name: string;
  type: string;
  offset: number;
  size: number;
}

export interface StructLayout {
  name: string;
  size: number;
  fields: StructField[];
}

export interface WgslBinding {
  group: number;
  binding: number;
  name: string;
  space: 'uniform' | 'storage';
  access: 'read' | 'read_write';
}

/** Reflection is a full parse: once per text (kernels are linked once per loader). */
const reflections = new Map<string, WgslReflect>();

function reflect(wgsl: string): WgslReflect {
  let r = reflections.get(wgsl);
  if (!r) {
    r = new WgslReflect(wgsl);
    reflections.set(wgsl, r);
  }
  return r;
}

/** The layout of `struct name` by WGSL's rules; throws if the text declares no such struct. */
export function reflectStruct(wgsl: string, name: string): StructLayout {
  const s = reflect(wgsl).structs.find((x) => x.name === name);
  if (!s) throw new Error(`struct ${name} not found`);
  return { name, size: s.size, fields: s.members.map((m) => ({ name: m.name, type: m.type.getTypeName(), offset: m.offset, size: m.size })) };
}

/** Every `@group(g) @binding(n)` buffer of the text, in (group, binding) order. */
export function reflectBindings(wgsl: string): WgslBinding[] {
  const r = reflect(wgsl);
  const of =
    (space: WgslBinding['space']) =>
    (v: (typeof r.uniforms)[number]): WgslBinding => ({
      group: v.group,
      binding: v.binding,
      name: v.name,
      space,
      access: v.access === 'read_write' ? 'read_write' : 'read',
    });
  return [...r.uniforms.map(of('uniform')), ...r.storage.map(of('storage'))].sort((a, b) => a.group - b.group || a.binding - b.binding);
}

/**
 * The uniform layout of `struct structName` in `wgsl` for a runner that sets `declared`, field by
 * field in order: offsets and sizes from the WGSL, names and scalar types checked against the
 * declaration. Throws naming the first field where the two disagree.
 */
export function uniformLayoutOf<N extends string>(wgsl: string, structName: string, declared: UniformFields<N>): UniformLayout<N> {
  const struct = reflectStruct(wgsl, structName);
  const count = Math.max(struct.fields.length, declared.length);
  for (let i = 0; i < count; i++) {
    const w = struct.fields[i];
    const d = declared[i];
    const wgslSide = w ? `${w.name}: ${w.type}` : 'nothing';
    const tsSide = d ? `${d[0]}: ${d[1]}` : 'nothing';
    if (wgslSide !== tsSide) throw new Error(`struct ${structName} field ${i} is ${wgslSide} in the WGSL but ${tsSide} in the runner's table`);
  }
  return {
    fields: struct.fields.map((f) => ({ name: f.name as N, type: f.type as ScalarType, offset: f.offset })),
    structSize: struct.size,
    bufferSize: Math.max(16, Math.ceil(struct.size / 16) * 16),
  };
}
