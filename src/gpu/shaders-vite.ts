/**
 * Kernel sources for code bundled by Vite (the page, and tests run by Vitest): every `.wgsl` file of
 * shaders/ inlined as text at build time (import.meta.glob), linked when this module loads
 * (shader-link.ts). Node CLIs use `shaders-node.ts` instead.
 */
import type { ShaderSources } from './shader-source.ts';
import { linkKernels } from './shader-link.ts';

const FILES = import.meta.glob<string>('../../shaders/**/*.wgsl', { query: '?raw', import: 'default', eager: true });

/** The inlined files keyed by their path relative to shaders/ (`lib/philox.wgsl`). */
export const VITE_SHADER_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FILES).map(([path, text]) => [path.replace(/^\.\.\/\.\.\/shaders\//, ''), text]),
);

export const VITE_SHADERS: ShaderSources = linkKernels(VITE_SHADER_FILES);
