/**
 * The README's speed claims against WebAssembly name the baseline's threads: a sentence that says
 * webgpu is "faster than WebAssembly" (or wasm) must say how many threads that wasm ran on, since
 * tfjs's wasm backend runs one thread in Node and several in a cross-origin isolated page.
 * test/house/speed-claims.test.ts runs it on README.md and on made-up text.
 */

/** The sentences of Markdown `text`, joined across its line breaks (a sentence ends at ". ", "? " or "! " before a capital, or a blank line). */
export function sentences(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z[(*])/))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A speed claim against WebAssembly: "faster than WebAssembly", "faster than wasm", "faster than tfjs's WebAssembly backend". */
export const WASM_CLAIM = /faster than (tfjs['’]s )?(WebAssembly|wasm)/i;

/** The sentences of `text` that claim a speed-up over WebAssembly without saying "thread". */
export function claimsWithoutThreads(text: string): string[] {
  return sentences(text).filter((s) => WASM_CLAIM.test(s) && !/thread/i.test(s));
}
