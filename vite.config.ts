/**
 * Vite configuration for the page.
 *
 * `base: './'` makes every URL in the build relative, so `dist/` works from any base path (a project
 * page on a static host, a sub-folder). WGSL shaders are imported as text with `?raw` and the wasm
 * backend's binaries with `?url` (see src/backend/browser.ts); both are built into Vite.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: {
    target: 'es2022',
    // tfjs alone is well over Vite's 500 kB warning threshold; the warning would only be noise.
    chunkSizeWarningLimit: 4096,
  },
  // The training worker is a module worker that loads backends on demand (dynamic imports), which
  // needs ES output: the default iife format cannot code-split.
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
