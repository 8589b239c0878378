/**
 * Writes the page's boot guard (src/boot/boot-guard.js) into the <head> of every HTML page, first, as a
 * classic inline script: it runs before any module of the page, whatever the bundler makes of them, and
 * costs no request. It gives Intl a valid locale and shows a plain message when the page fails before
 * its app renders (docs/page.md, "When the page cannot start").
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const BOOT_GUARD = new URL('../src/boot/boot-guard.js', import.meta.url);

export function bootGuardPlugin(): Plugin {
  return {
    name: 'beacon-live:boot-guard',
    transformIndexHtml: {
      order: 'pre',
      handler: () => [{ tag: 'script', children: readFileSync(BOOT_GUARD, 'utf8'), injectTo: 'head-prepend' }],
    },
  };
}
