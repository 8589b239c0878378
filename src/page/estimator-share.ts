/**
 * Your estimator in a share link: `estimator=` plus the base64url of its UTF-8 source. Links stay
 * usable (address bars, chat apps) only up to a few KB, so a source over 6 KB gets a message instead
 * of a link. Pure: no DOM beyond the standard text codecs, so it is tested in Node.
 *
 * Code that arrives by link never runs before the visitor consents (src/ui/consent-dialog.ts).
 */

export const ESTIMATOR_PARAM = 'estimator';
/** The largest source a share link carries, in bytes of UTF-8. */
export const MAX_SHARED_SOURCE_BYTES = 6 * 1024;

/** The parameter's value for `source`, or why the link cannot carry it. */
export function encodeEstimatorParam(source: string): { value: string } | { error: string } {
  const bytes = new TextEncoder().encode(source);
  if (bytes.length > MAX_SHARED_SOURCE_BYTES) {
    return {
      error: `your estimator is ${(bytes.length / 1024).toFixed(1)} KB (${bytes.length} bytes); a share link carries at most 6 KB (${MAX_SHARED_SOURCE_BYTES} bytes): the link leaves it out, so share the file or shorten the code`,
    };
  }
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return { value: btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') };
}

/** The source in a parameter's value, or an error naming the parameter and what it must be. */
export function decodeEstimatorParam(value: string): { source: string } | { error: string } {
  const bad = (why: string) => ({ error: `${ESTIMATOR_PARAM} must be the base64url of the estimator's UTF-8 source; ${why}; the code was not loaded` });
  if (!/^[A-Za-z0-9_-]*$/.test(value)) return bad('it has characters outside A–Z, a–z, 0–9, "-" and "_"');
  if (value.length % 4 === 1) return bad(`its length (${value.length}) is not that of base64`);
  if (value.length > Math.ceil((MAX_SHARED_SOURCE_BYTES * 4) / 3)) return bad(`it is over 6 KB of code`);
  const binary = atob(
    value
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(value.length / 4) * 4, '='),
  );
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    const source = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    if (source.trim() === '') return bad('it is empty');
    return { source };
  } catch {
    return bad('it is not UTF-8 text');
  }
}

/** The query without `estimator=`, and the parameter's value if it had one (the first, if repeated). */
export function takeEstimatorParam(search: string): { rest: URLSearchParams; value: string | null } {
  const rest = new URLSearchParams(search);
  const value = rest.get(ESTIMATOR_PARAM);
  rest.delete(ESTIMATOR_PARAM);
  return { rest, value };
}
