/**
 * What the results page (results.html, src/results-main.ts) needs from Vite, beside its entry:
 *
 * - `study.json` (docs/results/study.json, written by `npm run study`) served by the dev server and
 *   copied into the build, at the site's root, so the page fetches it at the relative URL `./study.json`
 *   under any base path. In a build it is emitted before the offline plugin lists the bundle, so the
 *   service worker precaches it with the page. The copy leaves out `runs` (every run's curves, most of
 *   the file's megabytes): the view reads only the summaries (cells, claims, failures), and every visitor's
 *   first visit precaches it. In their place it carries `bounds`, derived from the runs here
 *   (src/study/seed-bounds.ts): each cell's seeds at the floor and at the ceiling, and each claim whose
 *   verdict rests on them; study.json itself is not changed.
 * - The page's colour and font tokens: the main page's `<style>` (index.html) is copied into
 *   results.html where it says `<!-- page-tokens -->`, so both pages share one set, light and dark.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import type { ClaimRecord, CellSummary } from '../src/study/confirmatory-types.ts';
import { type BoundRun, studyBounds } from '../src/study/seed-bounds.ts';

const STUDY_JSON = new URL('../docs/results/study.json', import.meta.url);
const INDEX_HTML = new URL('../index.html', import.meta.url);
const TOKENS_MARK = '<!-- page-tokens -->';

/** The first `<style>` element of the main page, the tokens included. */
function pageTokens(): string {
  const m = /<style>[\s\S]*?<\/style>/.exec(readFileSync(INDEX_HTML, 'utf8'));
  if (!m) throw new Error('index.html has no <style> element to share with results.html');
  return m[0];
}

/** A study.json's text without its runs, with the floors and ceilings derived from them (the view's copy). */
export function studyForThePage(json: string = readFileSync(STUDY_JSON, 'utf8')): string {
  const study = JSON.parse(json) as { runs?: BoundRun[]; cells?: CellSummary[]; claims?: ClaimRecord[] };
  const { runs, ...summary } = study;
  const bounds = runs && study.cells && study.claims ? studyBounds({ runs, cells: study.cells, claims: study.claims }) : undefined;
  return JSON.stringify({ ...summary, bounds });
}

export function resultsPagePlugin(): Plugin {
  return {
    name: 'beacon-live:results-page',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (!new URL(req.url ?? '/', 'http://x').pathname.endsWith('/study.json')) return next();
        if (!existsSync(STUDY_JSON)) {
          res.statusCode = 404;
          res.end('docs/results/study.json does not exist: run npm run study');
          return;
        }
        res.setHeader('content-type', 'application/json');
        res.end(studyForThePage());
      });
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        return html.includes(TOKENS_MARK) ? html.replace(TOKENS_MARK, pageTokens()) : html;
      },
    },
    generateBundle() {
      if (!existsSync(STUDY_JSON)) this.error('docs/results/study.json does not exist: run npm run study before building the results page');
      this.emitFile({ type: 'asset', fileName: 'study.json', source: studyForThePage() });
    },
  };
}
