/**
 * The page's test contract read as JavaScript source text, for the browsers driven over WebDriver
 * (Firefox over BiDi, WebKit over HTTP): `[data-method][data-iteration]` on each method panel,
 * `[data-backend]` on the badge, `role="alert"` messages, through the shadow roots. Source text, because
 * the test runner's transform may wrap named functions in helpers that exist only in Node.
 */
const DEEP_ALL = `const all = (root, sel, out = []) => { for (const e of root.querySelectorAll('*')) { if (e.matches(sel)) out.push(e); if (e.shadowRoot) all(e.shadowRoot, sel, out); } return out; };`;

/** Each method panel's completed iterations, by its `data-method`: `Record<string, number>`. */
export const ITERATIONS = `(() => { ${DEEP_ALL} return Object.fromEntries(all(document, 'method-panel').map((e) => [e.dataset.method, Number(e.dataset.iteration)])); })()`;

/** The backend the badge reports, and its text (the reason for a fallback is in it): `{ backend, text }`. */
export const BADGE = `(() => { ${DEEP_ALL} const b = all(document, 'backend-badge')[0]; return { backend: b?.getAttribute('data-backend') ?? null, text: (b?.shadowRoot?.textContent ?? '').replace(/\\s+/g, ' ').trim() }; })()`;

/** The text of every `role="alert"` element: `string[]`. */
export const ALERTS = `(() => { ${DEEP_ALL} return all(document, '[role=alert]').map((e) => e.textContent.replace(/\\s+/g, ' ').trim()); })()`;

/** Whether an element matching `selector` exists anywhere: `boolean`. */
export const has = (selector: string) => `(() => { ${DEEP_ALL} return all(document, ${JSON.stringify(selector)}).length > 0; })()`;
