/**
 * Builds the page and serves `dist/` under a sub-path (as a project page on a static host would), so the
 * end-to-end tests prove that every asset, the worker and the wasm binaries load from relative URLs.
 * Anything requested outside the sub-path is a 404. A build can be served by several servers at once (the
 * test run builds the page once: test/support/built-page.ts).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SUB_PATH = '/projects/beacon-live/';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export interface SubPathServer {
  /** URL of the page, ending in the sub-path. */
  url: string;
  /** Requests that fell outside the sub-path or found no file. */
  misses: string[];
  /** Every request path served or missed, in order (to prove a page loaded without the network). */
  requests: string[];
  /** Requests that came while the server was down (`setReachable(false)`): their connections were dropped. */
  refused: string[];
  /** Send (or stop sending) the isolation headers from the next request on, without rebuilding. */
  setIsolated(isolated: boolean): void;
  /**
   * Take the server down (every connection is dropped, as when the host is gone) or bring it back: the
   * offline check for browsers whose driver cannot emulate a lost network.
   */
  setReachable(reachable: boolean): void;
  /**
   * Serve `script` (JavaScript) at `path` instead of its file, or the file again with null: how a test
   * makes a module of the built page fail while it loads, in any browser.
   */
  replaceScript(path: string, script: string | null): void;
  close(): Promise<void>;
}

export interface ServeOptions {
  /**
   * Send the cross-origin isolation headers (COOP/COEP), as the dev and preview servers do: the page is
   * then cross-origin isolated and the wasm backend can use threads.
   */
  isolated?: boolean;
  /** The checkout to build (default: this one); bench:first-point's `--compare` builds another. */
  root?: string;
}

/** The headers that make a page cross-origin isolated (SharedArrayBuffer, hence wasm threads). */
export const ISOLATION_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
} as const;

/** Builds the page (`root`, default this checkout) into `outDir`, a fresh temporary folder unless given; returns the folder. */
export async function buildPage(root = ROOT, outDir = mkdtempSync(join(tmpdir(), 'beacon-live-dist-'))): Promise<string> {
  await build({ root, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  return outDir;
}

/** Builds the page into a temporary folder and serves it; closing the server removes the folder. */
export async function buildAndServe(options: ServeOptions = {}): Promise<SubPathServer> {
  const outDir = await buildPage(options.root);
  const server = await serveBuild(outDir, options);
  return {
    ...server,
    close: async () => {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** Serves a build that is already in `outDir` (left in place on close: others may serve it too). */
export async function serveBuild(outDir: string, options: Pick<ServeOptions, 'isolated'> = {}): Promise<SubPathServer> {
  const misses: string[] = [];
  const requests: string[] = [];
  const refused: string[] = [];
  let isolated = options.isolated ?? false;
  let reachable = true;
  const replaced = new Map<string, string>();
  const server = createServer((req, res) => {
    if (!reachable) {
      refused.push(req.url ?? '/');
      req.socket.destroy();
      return;
    }
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const replacement = replaced.get(path);
    if (replacement !== undefined) {
      res.writeHead(200, { 'content-type': TYPES['.js'], 'cache-control': 'no-store', ...(isolated ? ISOLATION_HEADERS : {}) }).end(replacement);
      return;
    }
    if (!path.startsWith(SUB_PATH)) {
      misses.push(path);
      res.writeHead(404).end();
      return;
    }
    const rel = normalize(path.slice(SUB_PATH.length) || 'index.html');
    const file = join(outDir, rel.endsWith('/') || rel === '.' ? 'index.html' : rel);
    if (!file.startsWith(outDir) || !isFile(file)) {
      misses.push(path);
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...(isolated ? ISOLATION_HEADERS : {}) });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${SUB_PATH}`,
    misses,
    requests,
    refused,
    setIsolated: (on) => {
      isolated = on;
    },
    setReachable: (on) => {
      reachable = on;
      if (!on) server.closeAllConnections();
    },
    replaceScript: (path, script) => {
      if (script === null) replaced.delete(path);
      else replaced.set(path, script);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
