/**
 * `virtual:estimator-frame-script`: the estimator frame's script as a string (src/estimator/frame-main.ts
 * with the sandbox worker, src/estimator/frame-worker.ts, bundled inside it as a data: URL). The page writes it
 * inline into the frame's srcdoc (src/estimator/sandbox-frame.ts): the frame's origin is opaque, so it
 * can load no script or worker from the page's files, and inline it needs no file, no request and no
 * precache entry (offline it is inside the page's bundle). Bundled by esbuild, in dev and build alike.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import type { Plugin } from 'vite';

const ID = 'virtual:estimator-frame-script';
const RESOLVED = `\0${ID}`;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const source = (file: string) => join(ROOT, 'src/estimator', file);

function bundle(file: string, define: Record<string, string> = {}): { text: string; inputs: string[] } {
  const built = buildSync({
    entryPoints: [source(file)],
    absWorkingDir: ROOT,
    bundle: true,
    // Both are classic scripts: the frame's inline script and its classic worker (frame-main.ts says why).
    format: 'iife',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    define,
    logLevel: 'error',
  });
  return { text: built.outputFiles[0].text, inputs: Object.keys(built.metafile.inputs) };
}

export function estimatorFramePlugin(): Plugin {
  return {
    name: 'beacon-live:estimator-frame',
    resolveId: (id) => (id === ID ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      const worker = bundle('frame-worker.ts');
      const workerUrl = `data:text/javascript;base64,${Buffer.from(worker.text, 'utf8').toString('base64')}`;
      const frame = bundle('frame-main.ts', { __ESTIMATOR_FRAME_WORKER_URL__: JSON.stringify(workerUrl) });
      // Rebuilt in dev when any source of either bundle changes.
      for (const input of [...worker.inputs, ...frame.inputs]) this.addWatchFile(join(ROOT, input));
      return `export default ${JSON.stringify(frame.text)};`;
    },
  };
}
