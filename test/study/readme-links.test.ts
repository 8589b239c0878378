/** The study README's links are relative to the folder it is written to (src/study/readme.ts, linkFrom). */
import { describe, expect, it } from 'vitest';
import { linkFrom } from '../../src/study/readme.ts';

describe('study README links', () => {
  it('link the pre-registration from the README beside it and from a profile folder below it', () => {
    expect(linkFrom('docs/results', 'docs/results/preregistration.md')).toBe('preregistration.md');
    expect(linkFrom('docs/results/shop-pilot', 'docs/results/preregistration.md')).toBe('../preregistration.md');
    expect(linkFrom('./docs/results/quick/', 'docs/results/preregistration.md')).toBe('../preregistration.md');
    expect(linkFrom('out', 'docs/results/preregistration.md')).toBe('../docs/results/preregistration.md');
  });
});
