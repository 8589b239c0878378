/**
 * What the estimator-sandbox tests try from inside a visitor's estimator: a loopback server standing in
 * for someone else's host (it counts every connection, whatever the protocol), and an estimator that, on
 * its first call, tries every way out and throws what each attempt gave, so that the test reads it in the
 * custom panel's alert.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackHost {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Every TCP connection, request and upgrade that reached it (none should). */
  reached: string[];
  close(): Promise<void>;
}

export async function loopbackHost(): Promise<LoopbackHost> {
  const reached: string[] = [];
  const server: Server = createServer((req, res) => {
    reached.push(`request ${req.method} ${req.url}`);
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/javascript' }).end('/* reached */');
  });
  server.on('connection', () => reached.push('connection'));
  server.on('upgrade', (req, socket) => {
    reached.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    reached,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The attempts the probe makes, in its report's order. */
export const ATTEMPTS = [
  'fetch',
  'xhr',
  'sendBeacon',
  'webSocket',
  'eventSource',
  'importScripts',
  'remoteImport',
  'remoteWorker',
  'indexedDB',
  'newDatabase',
  'cachesOpen',
  'cachesPut',
  'broadcastChannel',
] as const;

export const PROBE_MARK = 'SANDBOX-PROBE';

/**
 * The probe estimator: `host` is the loopback server, `pageUrl` the page (whose cached copy it tries to
 * replace), `channel` a BroadcastChannel name the page listens on. Each attempt answers `ok: …` or
 * `failed: <error>`; one that neither succeeds nor fails within 2 s answers `failed: no answer`; the attempts run
 * concurrently.
 */
export function probeEstimator(host: string, pageUrl: string, channel: string): string {
  return `const HOST = ${JSON.stringify(host)};
const PAGE = ${JSON.stringify(pageUrl)};
const within = (p) => Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error('no answer in 2 s')), 2000))]);
async function attempt(fn) {
  try { return 'ok: ' + String(await within(Promise.resolve().then(fn))); }
  catch (e) { return 'failed: ' + (e && e.name ? e.name + ': ' + e.message : String(e)); }
}
const event = (target, ok, fail) => new Promise((resolve, reject) => {
  target.addEventListener(ok, () => resolve(ok));
  target.addEventListener(fail, () => reject(new Error(fail + ' event')));
});
let probed = false;
export default async function estimate(batch) {
  if (probed) return batch.groups.map((runs) => runs.map(() => 0));
  probed = true;
  // All at once: an attempt that never answers costs its 2 s once, not once per attempt, so that the
  // probe stays well inside the estimator's time limit on a loaded machine.
  const attempts = {
    fetch: () => fetch(HOST + '/fetch', { mode: 'no-cors' }).then((r) => r.type),
    xhr: () => { const x = new XMLHttpRequest(); x.open('GET', HOST + '/xhr'); const done = event(x, 'load', 'error'); x.send(); return done; },
    sendBeacon: () => navigator.sendBeacon(HOST + '/beacon', 'x') ? 'queued' : Promise.reject(new Error('sendBeacon refused')),
    webSocket: () => event(new WebSocket(HOST.replace('http', 'ws') + '/ws'), 'open', 'error'),
    eventSource: () => { const s = new EventSource(HOST + '/events'); return event(s, 'open', 'error').finally(() => s.close()); },
    importScripts: () => { importScripts(HOST + '/script.js'); return 'loaded'; },
    remoteImport: () => import(HOST + '/module.js').then(() => 'loaded'),
    remoteWorker: () => event(new Worker(HOST + '/worker.js'), 'message', 'error'),
    indexedDB: () => { const r = indexedDB.open('beacon-live'); return event(r, 'success', 'error').then(() => 'opened ' + Array.from(r.result.objectStoreNames).join()); },
    newDatabase: () => { const r = indexedDB.open('estimator-was-here'); return event(r, 'success', 'error'); },
    cachesOpen: () => caches.keys().then((keys) => 'keys ' + keys.join()),
    cachesPut: async () => {
      const keys = await caches.keys();
      const cache = await caches.open(keys[0] || 'beacon-live-altered');
      await cache.put(PAGE, new Response('<h1>altered by an estimator</h1>', { headers: { 'content-type': 'text/html' } }));
      return 'put';
    },
    broadcastChannel: () => { const c = new BroadcastChannel(${JSON.stringify(channel)}); c.postMessage('from the estimator'); c.close(); return 'posted'; },
  };
  const answers = await Promise.all(Object.values(attempts).map(attempt));
  const seen = Object.fromEntries(Object.keys(attempts).map((name, i) => [name, answers[i]]));
  throw new Error(${JSON.stringify(PROBE_MARK)} + JSON.stringify(seen) + ${JSON.stringify(PROBE_MARK)});
}
`;
}

/** The probe's report, out of the text of the custom panel's alert. */
export function probeReport(alert: string): Record<string, string> {
  const m = new RegExp(`${PROBE_MARK}(.*)${PROBE_MARK}`).exec(alert);
  if (!m) throw new Error(`no probe report in the alert: ${alert}`);
  return JSON.parse(m[1]) as Record<string, string>;
}
