/**
 * The results page's one URL parameter: `present`, the main page's presenter mode (large text for a
 * projector), read with the main page's own field and codec (src/page/page-settings.ts), so `present=1`
 * means the same on both pages and a bad value gets the same message. Any other parameter is the main
 * page's: the results page names it as ignored rather than pretending to apply it.
 */
import { pageFieldSpec, parsePageField } from '../page/page-settings.ts';

export interface ResultsView {
  present: boolean;
  /** Messages for the alert area: a bad `present`, parameters this page does not read. */
  issues: string[];
}

export function resultsView(search: string): ResultsView {
  const params = new URLSearchParams(search);
  const issues: string[] = [];
  let present = false;
  const spec = pageFieldSpec('present');
  const raw = params.get('present');
  if (spec && raw !== null) {
    const parsed = parsePageField(spec, raw);
    if ('error' in parsed) issues.push(parsed.error);
    else present = parsed.value === true;
  }
  const others = [...new Set([...params.keys()].filter((k) => k !== 'present'))];
  if (others.length) issues.push(`The results page reads only "present"; ignored: ${others.map((k) => JSON.stringify(k)).join(', ')}.`);
  return { present, issues };
}
