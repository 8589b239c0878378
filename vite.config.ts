/**
 * Vite configuration for the page.
 *
 * `base: './'` makes every URL in the build relative, so `dist/` works from any base path (a project
 * page on a static host, a sub-folder). WGSL shaders are imported as text with `?raw` and the wasm
 * backend's binaries with `?url` (see src/backend/browser.ts); both are built into Vite.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { bootGuardPlugin } from './scripts/boot-guard-plugin.ts';
import { estimatorFramePlugin } from './scripts/estimator-frame-plugin.ts';
import { resultsPagePlugin } from './scripts/results-page-plugin.ts';

/**
 * Cross-origin isolation (SharedArrayBuffer, hence the wasm backend's threads). The dev and preview
 * servers send these headers; on a static host, send them too (docs/page.md, "wasm threads") or rely on the service worker,
 * which adds them to what it serves.
 */
const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const THREADED_SCRIPT = fileURLToPath(new URL('node_modules/@tensorflow/tfjs-backend-wasm/wasm-out/tfjs-backend-wasm-threaded-simd.js', import.meta.url));

/**
 * tfjs's threaded wasm backend hands its pthread workers a Blob made from the source text of its
 * factory function. Once bundled and minified, that text refers to names of the enclosing bundle
 * ("e is not defined" in every pthread). Instead, the workers get the original script as its own
 * asset, a classic script that defines the factory by itself.
 */
function wasmThreadsPlugin(): Plugin {
  return {
    name: 'beacon-live:wasm-threads',
    enforce: 'pre',
    transform(code, id) {
      if (!id.replace(/\\/g, '/').includes('@tensorflow/tfjs-backend-wasm/dist/backend_wasm.js')) return null;
      const blob = /new Blob\(\[`var WasmBackendModuleThreadedSimd = ` \+\s*wasmFactoryThreadedSimd\.toString\(\)\], \{ type: 'text\/javascript' \}\)/;
      if (!blob.test(code)) this.error('tfjs-backend-wasm changed: the threaded factory Blob to replace was not found');
      return `import __threadedScriptUrl from ${JSON.stringify(`${THREADED_SCRIPT}?url`)};\n${code.replace(blob, 'new URL(__threadedScriptUrl, import.meta.url).href')}`;
    },
  };
}

/**
 * Writes the service worker (src/sw/service-worker.js) with the list of every file of the build to
 * precache, each with the SHA-256 of its bytes (the worker serves a cached copy only if it matches), and a
 * version that is the hash of their contents, so each build has its own cache. The bytes are read back
 * from the written files: some chunks are still rewritten after `generateBundle` (their preload lists).
 */
function offlinePlugin(): Plugin {
  return {
    name: 'beacon-live:offline',
    apply: 'build',
    // After Vite's own HTML plugin, so that index.html is in the bundle (and in the version hash).
    enforce: 'post',
    writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) this.error('the build has no output directory to write sw.js into');
      const names = Object.keys(bundle)
        .filter((f) => f !== 'sw.js' && !f.endsWith('.map'))
        .sort();
      if (!names.includes('index.html')) this.error('the build has no index.html to precache');
      const version = createHash('sha256');
      const files: Record<string, string> = {};
      for (const f of names) {
        const bytes = readFileSync(join(dir, f));
        version.update(f);
        version.update(bytes);
        files[f] = createHash('sha256').update(bytes).digest('hex');
      }
      // The page's own address ('./') is index.html.
      const listed = { './': files['index.html'], ...files };
      const source = readFileSync(new URL('src/sw/service-worker.js', import.meta.url), 'utf8')
        .replace("const VERSION = '__VERSION__';", `const VERSION = ${JSON.stringify(version.digest('hex').slice(0, 16))};`)
        .replace('const FILES = __FILES__;', `const FILES = ${JSON.stringify(listed)};`);
      writeFileSync(join(dir, 'sw.js'), source);
    },
  };
}

export default defineConfig(({ command }) => ({
  base: './',
  // Only a build has a service worker (the dev server serves sources that change on every edit). Not
  // import.meta.env.PROD: that follows NODE_ENV, which test runners set to "test" for builds as well.
  define: { __SERVICE_WORKER__: JSON.stringify(command === 'build') },
  plugins: [bootGuardPlugin(), wasmThreadsPlugin(), resultsPagePlugin(), estimatorFramePlugin(), offlinePlugin()],
  build: {
    target: 'es2022',
    // tfjs alone is well over Vite's 500 kB warning threshold; the warning would only be noise.
    chunkSizeWarningLimit: 4096,
    // Two pages: the live training and the study's results (scripts/results-page-plugin.ts).
    rolldownOptions: {
      input: { main: fileURLToPath(new URL('index.html', import.meta.url)), results: fileURLToPath(new URL('results.html', import.meta.url)) },
    },
  },
  // The training worker is a module worker that loads backends on demand (dynamic imports), which
  // needs ES output: the default iife format cannot code-split.
  worker: { format: 'es', plugins: () => [wasmThreadsPlugin()] },
  server: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
  preview: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
}));
