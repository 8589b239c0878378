/**
 * Kernel sources for code bundled by Vite (the page, and tests run by Vitest): every `.wgsl` file of
 * shaders/ inlined as text at build time (import.meta.glob), linked when a kernel is first read
 * (shader-link.ts). Node CLIs use `shaders-node.ts` instead.
 */
import { KERNEL_NAMES, type KernelName, type ShaderSources } from './shader-source.ts';
import { linkKernels } from './shader-link.ts';

const FILES = import.meta.glob<string>('../../shaders/**/*.wgsl', { query: '?raw', import: 'default', eager: true });

/** The inlined files keyed by their path relative to shaders/ (`lib/philox.wgsl`). */
export const VITE_SHADER_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(FILES).map(([path, text]) => [path.replace(/^\.\.\/\.\.\/shaders\//, ''), text]),
);

let linked: ShaderSources | undefined;

/**
 * Every kernel linked, on first read of any of them: a run on wasm or cpu never pays for linking.
 * Reads (and spreads) like a plain record.
 */
export const VITE_SHADERS: ShaderSources = Object.defineProperties(
  {} as Record<KernelName, string>,
  Object.fromEntries(KERNEL_NAMES.map((name) => [name, { enumerable: true, get: () => (linked ??= linkKernels(VITE_SHADER_FILES))[name] }])),
);
