/**
 * Page entry: defines <beacon-live-app>, which reads the URL, starts the training worker and draws
 * everything. The backend badge inside it carries `data-backend` (webgpu | wasm | cpu) and each method
 * panel `data-method` and `data-iteration`: the contract the end-to-end tests read.
 */
// First: the race's workers start loading their scripts while the page builds itself.
import { earlyWorkersStarting } from './ui/early-workers.ts';
import { methodColorCss } from './ui/theme.ts';
import { BeaconLiveApp } from './ui/beacon-live-app.ts';
import { markOnce, TIMELINE_MARKS } from './timeline-marks.ts';

markOnce(TIMELINE_MARKS.pageScript);

// The page builds itself (defining the element renders it) once the workers' threads may start: in
// Chromium they start from this thread, which the first render holds for a long task. A failure here
// goes to the boot guard (src/boot/boot-guard.js), which shows it in the page: a rejected top-level
// await reaches no error listener in WebKit.
try {
  await earlyWorkersStarting();
  customElements.define('beacon-live-app', BeaconLiveApp);
} catch (e) {
  console.error(e);
  dispatchEvent(new CustomEvent('beacon-start-failed', { detail: e }));
}

const methodColors = document.createElement('style');
methodColors.textContent = methodColorCss();
document.head.append(methodColors);

/** True in a build, which emits sw.js (vite.config.ts). */
declare const __SERVICE_WORKER__: boolean;

// Offline and cross-origin isolation on static hosts (src/sw/service-worker.js).
if (__SERVICE_WORKER__ && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch((e: unknown) => {
    // The page works without it (online, no threads on hosts without the headers); say why in the console.
    console.warn(`service worker not registered: ${e instanceof Error ? e.message : String(e)}`);
  });
}
