/** README's speed claims against WebAssembly name the baseline's threads (scripts/speed-claims.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claimsWithoutThreads, sentences, WASM_CLAIM } from '../../scripts/speed-claims.ts';

describe('speed claims', () => {
  it('every README sentence that says faster than WebAssembly or wasm says on how many threads', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(
      sentences(readme).some((s) => WASM_CLAIM.test(s)),
      'the README should still make its claim',
    ).toBe(true);
    expect(claimsWithoutThreads(readme)).toEqual([]);
  });

  it('finds a claim without threads across a line break, and passes one that names them', () => {
    const text = 'Intro line.\nOn a GPU it runs 2× faster than\nWebAssembly at the defaults. Next one.\n\nIt is 3× faster than wasm on one thread (Node).';
    expect(claimsWithoutThreads(text)).toEqual(['On a GPU it runs 2× faster than WebAssembly at the defaults.']);
    expect(sentences(text)).toHaveLength(4);
  });
});
