/*
 * The page's first script (scripts/boot-guard-plugin.ts writes it into the <head> of index.html and
 * results.html, before any module), so that a page never stays blank without a word:
 *
 * 1. A locale that Intl refuses becomes a valid one, before any module evaluates. WebKit in a minimal
 *    container (LANG=C.UTF-8) reports navigator.language as "C", and uPlot calls
 *    `new Intl.NumberFormat(navigator.language)` when its module evaluates: the RangeError stops the whole
 *    module graph. This is done here, not in a module imported first, because module order across the
 *    bundler's chunks is not ours to promise, and uPlot cannot be changed; it touches nothing where the
 *    browser's own tag is valid.
 * 2. A failure before the app element renders (a module that throws while it loads, a missing browser
 *    feature, a rejected start-up in the entry module, or no start at all within 10 s of the load event)
 *    shows a plain message in the page: what failed, what to try, and where to report it. A top-level-
 *    await rejection reaches no error listener in WebKit, hence the timer. Once the app renders, the
 *    message (if any) goes and the guard stops.
 *
 * A classic script without a build step: it avoids syntax newer than the features it checks for.
 */
(() => {
  const valid = (tag) => {
    try {
      return Intl.getCanonicalLocales(tag).length > 0;
    } catch {
      return false;
    }
  };
  if (typeof Intl === 'object' && typeof Intl.getCanonicalLocales === 'function' && !valid(navigator.language)) {
    // The browser's own list where it has a valid tag, else en-US (the page's texts are English).
    const languages = Array.from(navigator.languages || []).filter(valid);
    const language = languages[0] || 'en-US';
    const list = languages.length ? languages : [language];
    Object.defineProperty(navigator, 'language', { configurable: true, get: () => language });
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => list });
  }

  /** How long after the load event the app may take to render before the page says it did not start. */
  const START_BOUND_MS = 10000;
  const failures = [];
  const missing = [
    ['customElements' in window, 'custom elements'],
    ['noModule' in document.createElement('script'), 'JavaScript modules'],
    ['Worker' in window, 'Web Workers'],
  ]
    .filter((f) => !f[0])
    .map((f) => f[1]);
  if (missing.length) failures.push(`this browser lacks ${missing.join(', ')}`);

  /** The page's app element: the first custom element in the body (<beacon-live-app>, <results-app>). */
  const app = () => Array.from(document.body ? document.body.children : []).find((e) => e.localName.indexOf('-') > 0);
  const rendered = () => {
    const a = app();
    // biome-ignore lint/complexity/useOptionalChain: no syntax newer than the features checked for
    return Boolean(a && window.customElements && customElements.get(a.localName) && a.shadowRoot && a.shadowRoot.childNodes.length);
  };

  let box = null;
  let poll = 0;
  // biome-ignore lint/complexity/useOptionalChain: no syntax newer than the features checked for
  const describe = (e) => (e && e.message ? `${e.name ? `${e.name}: ` : ''}${e.message}` : String(e));
  const paragraph = (parts) => {
    const p = document.createElement('p');
    for (const part of parts) {
      if (typeof part === 'string') p.append(part);
      else {
        const a = document.createElement('a');
        a.href = part.href;
        a.textContent = part.text;
        p.append(a);
      }
    }
    return p;
  };
  /** The repository's new-issue page where the page is a GitHub Pages project site; else null. */
  const issuePage = () => {
    const host = location.hostname;
    if (!host.endsWith('.github.io')) return null;
    const owner = host.slice(0, -'.github.io'.length);
    const repository = location.pathname.split('/').filter(Boolean)[0] || host;
    return `https://github.com/${owner}/${repository}/issues/new?template=bug_report.md`;
  };

  const show = (what) => {
    if (box || !document.body) return;
    box = document.createElement('section');
    box.className = 'boot-failure';
    box.setAttribute('role', 'alert');
    box.style.cssText =
      'max-width:44rem;margin:2rem auto;padding:1rem 1.25rem;border:1px solid var(--danger, #b84a00);border-radius:8px;background:var(--danger-bg, #fdede5);color:var(--fg, #161a21);font-family:var(--font, system-ui, sans-serif)';
    const heading = document.createElement('h1');
    heading.style.cssText = 'font-size:1.25rem;margin:0 0 0.5rem';
    heading.textContent = 'This page could not start in this browser';
    const cpu = document.querySelector('beacon-live-app')
      ? [' or the same address with ', { href: '?backend=cpu', text: '?backend=cpu' }, ' (plain JavaScript, the slowest backend)']
      : [];
    const issues = issuePage();
    box.append(
      heading,
      paragraph([`What failed: ${what}.`]),
      paragraph(['What to try: reload the page; open it in another browser (a recent Chrome, Edge, Firefox or Safari)', ...cpu, '.']),
      paragraph(
        issues
          ? ['To report it: ', { href: issues, text: 'open an issue' }, ' with the text above, your browser and its version.']
          : [
              'To report it: open an issue on the repository this page was published from (its bug report template), with the text above, your browser and its version.',
            ],
      ),
    );
    document.body.prepend(box);
  };

  const listeners = {
    error: (e) => failed(e.error || e.message),
    unhandledrejection: (e) => failed(e.reason),
    // src/main.ts dispatches this when its start-up fails (a rejection there reaches no listener in WebKit).
    'beacon-start-failed': (e) => failed(e.detail, true),
  };
  const stop = () => {
    for (const name of Object.keys(listeners)) removeEventListener(name, listeners[name]);
    clearInterval(poll);
    if (box) box.remove();
  };
  const check = (timedOut) => {
    if (rendered()) return stop();
    if (failures.length) show(failures.join('; '));
    else if (timedOut) show(`the page's script did not start within ${START_BOUND_MS / 1000} s of loading, and reported no error`);
  };
  // An error before the app renders may still be harmless: it counts if the app has not rendered soon after.
  const failed = (reason, certain) => {
    failures.push(describe(reason));
    if (certain) check(false);
    else setTimeout(() => check(false), 1500);
  };
  for (const name of Object.keys(listeners)) addEventListener(name, listeners[name]);
  if (missing.length) addEventListener('DOMContentLoaded', () => check(false));
  addEventListener('load', () =>
    setTimeout(() => {
      check(true);
      // The app may still render late (a slow machine): the message then goes.
      if (!rendered()) poll = setInterval(() => rendered() && stop(), 1000);
    }, START_BOUND_MS),
  );
})();
