/**
 * Share links with your estimator: base64url of UTF-8, round trip for any text (non-ASCII included),
 * a message instead of a link over 6 KB, and every malformed value refused with a message naming it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEstimatorParam, encodeEstimatorParam, MAX_SHARED_SOURCE_BYTES, takeEstimatorParam } from '../../src/page/estimator-share.ts';
import { GRPO_TEMPLATE } from '../../src/estimator/templates.ts';

const encode = (s: string) => {
  const r = encodeEstimatorParam(s);
  if ('error' in r) throw new Error(r.error);
  return r.value;
};

describe('estimator= share links', () => {
  it('round-trip any source up to 6 KB, with only URL-safe characters', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 }).filter((s) => s.trim() !== ''),
        (source) => {
          const value = encode(source);
          expect(value).toMatch(/^[A-Za-z0-9_-]*$/);
          expect(decodeEstimatorParam(value)).toEqual({ source });
        },
      ),
    );
    expect(decodeEstimatorParam(encode(GRPO_TEMPLATE))).toEqual({ source: GRPO_TEMPLATE });
    // base64url of "λ → ✓" (UTF-8), by hand: no padding, "-" and "_" where base64 has "+" and "/".
    expect(encode('λ → ✓')).toBe(Buffer.from('λ → ✓', 'utf8').toString('base64url'));
  });

  it('give a message instead of a link over 6 KB (counted in UTF-8 bytes)', () => {
    expect('value' in encodeEstimatorParam('x'.repeat(MAX_SHARED_SOURCE_BYTES))).toBe(true);
    const over = encodeEstimatorParam('é'.repeat(MAX_SHARED_SOURCE_BYTES / 2 + 1)); // 2 bytes each
    expect(over).toEqual({ error: expect.stringMatching(/^your estimator is 6\.0 KB \(6146 bytes\); a share link carries at most 6 KB \(6144 bytes\)/) });
  });

  it('refuse malformed values, naming the parameter', () => {
    expect(decodeEstimatorParam('a+b/')).toEqual({ error: expect.stringMatching(/^estimator must be the base64url .* characters outside/) });
    expect(decodeEstimatorParam('abcde')).toEqual({ error: expect.stringMatching(/length \(5\) is not that of base64/) });
    expect(decodeEstimatorParam(Buffer.from([0xff, 0xfe]).toString('base64url'))).toEqual({ error: expect.stringMatching(/not UTF-8 text/) });
    expect(decodeEstimatorParam('')).toEqual({ error: expect.stringMatching(/it is empty/) });
  });

  it('come out of the query before the settings are read', () => {
    const { rest, value } = takeEstimatorParam('?methods=grpo,custom&estimator=YQ&seed=3');
    expect(value).toBe('YQ');
    expect(rest.toString()).toBe('methods=grpo%2Ccustom&seed=3');
    expect(takeEstimatorParam('?seed=3').value).toBeNull();
  });
});
