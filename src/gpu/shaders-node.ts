/**
 * Kernel sources for Node without Vite (tsx CLIs, benchmarks): the `.wgsl` files read from disk,
 * relative to this module. Never import this from page code (it needs `node:fs`).
 */
import { readFileSync } from 'node:fs';
import { KERNEL_NAMES, type KernelName, type ShaderSources } from './shader-source.ts';

const SHADER_DIR = new URL('../../shaders/', import.meta.url);

export function readShaderSources(): ShaderSources {
  const sources = {} as Record<KernelName, string>;
  for (const name of KERNEL_NAMES) sources[name] = readFileSync(new URL(`${name}.wgsl`, SHADER_DIR), 'utf8');
  return sources;
}
