/*
 * Beacon Live's service worker (plain JavaScript: it runs as a classic worker script, not bundled).
 * The build fills in __VERSION__ and __FILES__ (vite.config.ts, `offlinePlugin`).
 *
 * - Offline: on install it precaches the whole build (HTML, JS chunks and workers, the wasm binaries; the
 *   WGSL sources are inside the JS), so after one visit the page loads and trains with no network.
 * - Versioned: the cache is named after the build's content hash. A new build changes this file, the
 *   browser installs the new worker, and activation deletes every older Beacon Live cache.
 * - Cross-origin isolation on static hosts: responses it serves carry COOP/COEP, so pages it controls
 *   are cross-origin isolated and the wasm backend may use threads, even where the host cannot send
 *   those headers itself (the page is controlled from its second load on).
 */
const VERSION = '__VERSION__';
const FILES = __FILES__;
const PREFIX = 'beacon-live-';
const CACHE = PREFIX + VERSION;
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((f) => new URL(f, self.registration.scope).href)))
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
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    // A page (index.html, results.html): the network first (a new build is picked up at once), its cached
    // copy offline, and the main page for any other address.
    event.respondWith(
      fetch(request)
        .catch(() =>
          caches
            .open(CACHE)
            .then((cache) =>
              cache.match(request, { ignoreSearch: true }).then((hit) => hit || cache.match(new URL('index.html', self.registration.scope).href)),
            ),
        )
        .then(isolated),
    );
    return;
  }
  // Build assets have content-hashed names: the cached copy is always right.
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch: true }))
      .then((hit) => hit || fetch(request))
      .then(isolated),
  );
});
