/**
 * Results page entry (results.html): defines <results-app>, which fetches the study's document
 * (`./study.json`, copied into the build by scripts/results-page-plugin.ts) and renders its cells, claims
 * and failures. The method colours are the main page's (src/ui/theme.ts), light and dark.
 */
import { methodColorCss } from './ui/theme.ts';
import './ui/results/results-app.ts';

const methodColors = document.createElement('style');
methodColors.textContent = methodColorCss();
document.head.append(methodColors);

/** True in a build, which emits sw.js (vite.config.ts). */
declare const __SERVICE_WORKER__: boolean;

// The same service worker as the main page's: it precaches the whole build, this page and study.json included.
if (__SERVICE_WORKER__ && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('./sw.js').catch((e: unknown) => {
    console.warn(`service worker not registered: ${e instanceof Error ? e.message : String(e)}`);
  });
}
