/*
 * Beacon Live's service worker (plain JavaScript: it runs as a classic worker script, not bundled).
 * The build fills in __VERSION__ and __FILES__ (vite.config.ts, `offlinePlugin`).
 *
 * - Offline: on install it precaches the whole build (HTML, JS chunks and workers, the wasm binaries; the
 *   WGSL sources are inside the JS), so after one visit the page loads and trains with no network.
 * - Only the build, as built: FILES maps each file of the build to the SHA-256 of its bytes, recorded at
 *   build time. The worker answers only for those files; a cached copy is served only if its hash
 *   matches (checked with crypto.subtle on every answer, since anything of this origin could have
 *   rewritten the cache since); one that does not is dropped and fetched again, and checked again. If the
 *   network is gone too, the visitor gets a page saying that the page is offline and its saved copy
 *   stale, never the altered copy.
 * - Versioned: the cache is named after the build's content hash. A new build changes this file, the
 *   browser installs the new worker, and activation deletes every older Beacon Live cache.
 * - Cross-origin isolation on static hosts: responses it serves carry COOP/COEP, so pages it controls
 *   are cross-origin isolated and the wasm backend may use threads, even where the host cannot send
 *   those headers itself (the page is controlled from its second load on).
 */
const VERSION = '__VERSION__';
/** Each file of the build, relative to the scope ('./' is the page itself), and the SHA-256 of its bytes (hex). */
const FILES = __FILES__;
const PREFIX = 'beacon-live-';
const CACHE = PREFIX + VERSION;
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

/** The file of the build that `url` names ('./', 'index.html', 'assets/…'), or null for anything else. */
function buildFile(url) {
  const scope = new URL(self.registration.scope);
  const u = new URL(url);
  if (u.origin !== scope.origin || !u.pathname.startsWith(scope.pathname)) return null;
  const file = u.pathname.slice(scope.pathname.length) || './';
  return Object.hasOwn(FILES, file) ? file : null;
}

const fileUrl = (file) => new URL(file, self.registration.scope).href;

async function sha256(response) {
  const digest = await crypto.subtle.digest('SHA-256', await response.clone().arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fresh copy of `file` from the network, put in the cache only if its hash is the build's. */
async function fetchChecked(cache, file) {
  const response = await fetch(fileUrl(file), { cache: 'reload' });
  if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
  if ((await sha256(response)) !== FILES[file]) throw new Error(`${file}: the server's copy is not this build's`);
  await cache.put(fileUrl(file), response.clone());
  return response;
}

/** What the visitor sees when the cached copy of `file` is altered and the network is gone. */
function offlineStale(file) {
  const body =
    '<!doctype html><meta charset="utf-8"><title>Beacon Live: offline</title>' +
    '<p role="alert">Beacon Live is offline, and the copy of this page saved in your browser is stale: it does not match the build (' +
    file.replace(/[<&]/g, '') +
    '). It was not used. Reconnect and reload to get the page again.</p>';
  return new Response(body, {
    status: 503,
    statusText: 'Offline and stale',
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** The cached copy of `file` if its hash is the build's; else it is dropped and fetched again (checked). */
async function checked(file) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(fileUrl(file));
  if (hit && (await sha256(hit)) === FILES[file]) return hit;
  if (hit) await cache.delete(fileUrl(file));
  try {
    return await fetchChecked(cache, file);
  } catch {
    return offlineStale(file);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => Promise.all(Object.keys(FILES).map((file) => fetchChecked(cache, file))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** The same response with the isolation headers added (opaque and error responses pass unchanged). */
function isolated(response) {
  if (!response || response.status === 0 || response.type === 'opaque') return response;
  const headers = new Headers(response.headers);
  for (const [k, v] of Object.entries(ISOLATION)) headers.set(k, v);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  if (request.mode === 'navigate') {
    if (new URL(request.url).origin !== self.location.origin) return;
    // A page (index.html, results.html): the network first (a new build is picked up at once), its checked
    // cached copy offline, and the main page for any other address.
    event.respondWith(
      fetch(request)
        .catch(() => checked(buildFile(request.url) ?? 'index.html'))
        .then(isolated),
    );
    return;
  }
  // Build assets have content-hashed names: the checked cached copy is always right. Anything the build
  // does not list goes to the network as if there were no service worker.
  const file = buildFile(request.url);
  if (file === null) return;
  event.respondWith(checked(file).then(isolated));
});
