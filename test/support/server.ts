/**
 * Serves the page on a free localhost port for end-to-end tests.
 *
 * `dist` mode serves the run's one build of the page (built-page.ts) with `vite preview`: what a
 * visitor of the static site gets, including bundled wasm binaries and relative asset URLs. `dev` mode
 * runs the Vite dev server (faster to start on a warm cache, no build). localhost counts as a secure
 * context, so WebGPU is available to the page.
 */
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer, preview } from 'vite';
import { INSECURE_HOST } from '../../scripts/browser.ts';
import { sharedBuild } from './built-page.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface PageServer {
  /** Base URL of the page on localhost (a secure context), ending in '/'. */
  url: string;
  /** The same page under INSECURE_HOST: not a secure context, so no WebGPU API (browser.ts). */
  insecureUrl: string;
  close(): Promise<void>;
}

function urls(resolved: { local: string[] } | null, what: string): { url: string; insecureUrl: string } {
  const url = resolved?.local[0];
  if (!url) throw new Error(`vite ${what} server did not report a URL`);
  const insecure = new URL(url);
  insecure.hostname = INSECURE_HOST;
  return { url, insecureUrl: insecure.href };
}

export async function startPageServer(mode: 'dist' | 'dev' = 'dist'): Promise<PageServer> {
  if (mode === 'dev') {
    const server = await createServer({
      root: ROOT,
      logLevel: 'error',
      server: { host: '127.0.0.1', port: 0, strictPort: false, allowedHosts: [INSECURE_HOST] },
    });
    await server.listen();
    return { ...urls(server.resolvedUrls, 'dev'), close: () => server.close() };
  }
  const { site: outDir, owned } = await sharedBuild();
  const server = await preview({
    root: ROOT,
    logLevel: 'error',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, allowedHosts: [INSECURE_HOST] },
  });
  return {
    ...urls(server.resolvedUrls, 'preview'),
    close: async () => {
      await server.close();
      if (owned) rmSync(outDir, { recursive: true, force: true });
    },
  };
}
