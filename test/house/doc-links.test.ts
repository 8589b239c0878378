/**
 * Every relative link of README.md, CONTRIBUTING.md and docs/**.md resolves (scripts/doc-links.ts): the
 * file exists inside the repository and a #anchor into Markdown names one of its headings by GitHub's
 * slug rules. The checker is also run on made-up documents, so a broken link is shown to fail.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenDocLinks, brokenLinks, documentedFiles, headingSlugs, markdownLinks } from '../../scripts/doc-links.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A made-up tree: docs/a.md and docs/b.md, an image, and a folder. */
function fakeTree(files: Record<string, string>) {
  const all = { ...files, 'docs/picture.png': '', 'src/x.ts': '' };
  return {
    exists: (path: string) => path in all || Object.keys(all).some((f) => f.startsWith(`${path}/`)),
    read: (path: string) => (path in all && path.endsWith('.md') ? all[path as keyof typeof all] : null),
  };
}

describe('doc links', () => {
  it('every relative link of README.md, CONTRIBUTING.md and docs/ resolves', () => {
    const files = documentedFiles(ROOT);
    expect(files).toContain('README.md');
    expect(files).toContain('docs/maths.md');
    const broken = brokenDocLinks(ROOT);
    expect(broken.map((b) => `${b.file}: (${b.link}) ${b.reason}`)).toEqual([]);
  });

  it('slugs headings as GitHub does: punctuation dropped, spaces to hyphens, repeats numbered', () => {
    const slugs = headingSlugs(
      [
        '# Beacon Live',
        "## 10. The shop environment: WebShop's milestones",
        '### Measured: `npm run bench:page`',
        '## Speed — history',
        '## Speed — history',
        '## [Linked](x.md) *title* é',
        '```',
        '# not a heading',
        '```',
        '<a id="custom-anchor"></a>',
      ].join('\n'),
    );
    expect([...slugs]).toEqual([
      'beacon-live',
      '10-the-shop-environment-webshops-milestones',
      'measured-npm-run-benchpage',
      'speed--history',
      'speed--history-1',
      'linked-title-é',
      'custom-anchor',
    ]);
  });

  it('finds inline links, images, reference definitions and HTML links, not links inside code', () => {
    const md = [
      'See [a](a.md#top), ![pic](picture.png "title") and [ext](https://example.org).',
      '[ref]: ../src/x.ts',
      '<img src="picture.png" alt="">',
      'Code: `[no](nowhere.md)`',
      '```md',
      '[no](nowhere.md)',
      '```',
    ].join('\n');
    expect(markdownLinks(md)).toEqual(['a.md#top', 'picture.png', 'https://example.org', '../src/x.ts', 'picture.png']);
  });

  it('fails with the file, the link and why: a missing file, a missing anchor, a link out of the repository', () => {
    const a = [
      '# Top',
      '## Section two',
      '[fine](b.md#the-end) [fine too](#section-two) [folder](../src) [image](picture.png)',
      '[gone](preregistration.md) [bad anchor](b.md#no-such-heading) [self](#nope) [out](../../shared/x.md) [stray](b%zz.md)',
    ].join('\n');
    const tree = fakeTree({ 'docs/a.md': a, 'docs/b.md': '# B\n\n## The end\n' });
    expect(brokenLinks('docs/a.md', a, tree)).toEqual([
      { file: 'docs/a.md', link: 'preregistration.md', reason: 'docs/preregistration.md does not exist' },
      { file: 'docs/a.md', link: 'b.md#no-such-heading', reason: 'docs/b.md has no heading with the anchor #no-such-heading' },
      { file: 'docs/a.md', link: '#nope', reason: 'docs/a.md has no heading with the anchor #nope' },
      { file: 'docs/a.md', link: '../../shared/x.md', reason: 'points outside the repository' },
      { file: 'docs/a.md', link: 'b%zz.md', reason: 'is not a valid URL (a stray %)' },
    ]);
  });
});
