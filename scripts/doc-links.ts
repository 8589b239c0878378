/**
 * The relative links of the project's Markdown (README.md, CONTRIBUTING.md, docs/**) and whether each
 * resolves: the file or folder it names exists inside the repository, and its #anchor, where the target
 * is a Markdown file, is one of that file's headings (GitHub's slugs) or an explicit `<a id>`/`<a name>`.
 * Links with a scheme (https:, mailto:) are not checked: nothing outside the repository is reachable
 * from a test. test/house/doc-links.test.ts runs it over the tree and on made-up documents.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';

/** A link that does not resolve: the file it is in, the link as written, and why. */
export interface BrokenLink {
  file: string;
  link: string;
  reason: string;
}

/** The Markdown files whose links are checked: README.md and CONTRIBUTING.md at the root, and docs/**. */
export function documentedFiles(root: string): string[] {
  const files = ['README.md', 'CONTRIBUTING.md'].filter((f) => existsSync(join(root, f)));
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path.split(sep).join('/'));
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  return files;
}

/** The lines of a Markdown text with the lines of fenced code blocks (``` or ~~~) blanked out. */
function linesOutsideFences(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      return '';
    }
    if (marker) {
      fence = marker;
      return '';
    }
    return line;
  });
}

/** The text without code (links in code are not links): fenced blocks and inline code spans blanked out. */
function withoutCode(markdown: string): string {
  return linesOutsideFences(markdown)
    .map((line) => line.replace(/(`+)[^`]*?\1/g, ''))
    .join('\n');
}

/** Every link target of a Markdown text: inline links and images, reference definitions, HTML href/src. */
export function markdownLinks(markdown: string): string[] {
  const text = withoutCode(markdown);
  const links: string[] = [];
  // [text](target) and ![alt](target), the target up to whitespace or ')' (an optional "title" after).
  for (const m of text.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) links.push(m[1]);
  for (const m of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) links.push(m[1]);
  for (const m of text.matchAll(/<(?:a|img)\b[^>]*?\s(?:href|src)="([^"]*)"/g)) links.push(m[1]);
  return links;
}

/**
 * GitHub's anchor for a heading: the rendered text, lower-cased, with every character that is not a
 * letter, mark, digit, connector (underscore), space or hyphen removed and spaces made hyphens; a
 * repeated slug gets -1, -2, … (the `github-slugger` rules).
 */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of linesOutsideFences(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const rendered = heading[1]
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/<[^>]+>/g, '')
        .replace(/[`*]/g, '');
      const base = rendered
        .toLowerCase()
        .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
        .replace(/ /g, '-');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      slugs.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s[^>]*?(?:id|name)="([^"]+)"/g)) slugs.add(m[1]);
  }
  return slugs;
}

/**
 * The broken links of one Markdown text at `file` (a path relative to `root`, with '/'). `read` gives a
 * file's text or null when it does not exist; `exists` says whether a path (file or folder) exists.
 */
export function brokenLinks(file: string, markdown: string, fs: { exists: (path: string) => boolean; read: (path: string) => string | null }): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const link of markdownLinks(markdown)) {
    if (link === '' || /^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) continue;
    const hash = link.indexOf('#');
    let pathPart: string;
    let anchor: string | null;
    try {
      pathPart = decodeURI(hash < 0 ? link : link.slice(0, hash));
      anchor = hash < 0 ? null : decodeURIComponent(link.slice(hash + 1));
    } catch {
      broken.push({ file, link, reason: 'is not a valid URL (a stray %)' });
      continue;
    }
    const target =
      pathPart === ''
        ? file
        : normalize(join(dirname(file), pathPart))
            .split(sep)
            .join('/');
    if (pathPart.startsWith('/') || target === '..' || target.startsWith('../')) {
      broken.push({ file, link, reason: 'points outside the repository' });
      continue;
    }
    if (!fs.exists(target)) {
      broken.push({ file, link, reason: `${target} does not exist` });
      continue;
    }
    if (anchor === null || anchor === '' || !target.endsWith('.md')) continue;
    const text = target === file ? markdown : fs.read(target);
    if (text === null) {
      broken.push({ file, link, reason: `${target} is not a readable file` });
      continue;
    }
    if (!headingSlugs(text).has(anchor)) broken.push({ file, link, reason: `${target} has no heading with the anchor #${anchor}` });
  }
  return broken;
}

/** Every broken link of the project's Markdown under `root`. */
export function brokenDocLinks(root: string): BrokenLink[] {
  const fs = {
    exists: (path: string) => existsSync(join(root, path)),
    read: (path: string) => {
      const full = join(root, path);
      return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : null;
    },
  };
  return documentedFiles(root).flatMap((file) => brokenLinks(file, readFileSync(join(root, file), 'utf8'), fs));
}
