/**
 * Kernel sources for Node without Vite (tsx CLIs, benchmarks): the `.wgsl` files of shaders/ read
 * from disk, relative to this module, and linked (shader-link.ts). Never import this from page code
 * (it needs `node:fs`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ShaderSources } from './shader-source.ts';
import { linkKernels } from './shader-link.ts';

const SHADER_DIR = new URL('../../shaders/', import.meta.url);

/** Every `.wgsl` file under shaders/, keyed by its path relative to shaders/ (`lib/philox.wgsl`). */
export function readShaderFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(fileURLToPath(SHADER_DIR), { recursive: true, encoding: 'utf8' })) {
    const path = entry.replaceAll('\\', '/');
    if (path.endsWith('.wgsl')) files[path] = readFileSync(new URL(path, SHADER_DIR), 'utf8');
  }
  return files;
}

export function readShaderSources(): ShaderSources {
  return linkKernels(readShaderFiles());
}
