/**
 * The citation check: prose that states a result of the study names the claim record it rests on, and
 * says what the record says. test/results/citations.test.ts runs it over README.md, docs/study.md,
 * docs/results/analysis.md and the tour's narratives, against docs/results/study.json.
 *
 * A citation is a claim id with its places and what the text says of them:
 *
 *     D5 (GridHouse: held, +0.15 [0.11, 0.19], 0.56 against 0.19; TextHouse: not held)
 *     E12 in TextHouse (not held as coded, held as written)
 *
 * Each item is checked to the precision written: `held` / `not held`; a signed effect, with its interval;
 * `A against B`, the mean AUCs of the first two arms the record's tests compare; `p 0.047` and
 * `Holm p 0.053` (its first test); `12/15 seeds` ahead; `held as coded` / `as written` (study.json's
 * `aucReadings`); `at the floor` / `at the ceiling` (src/study/seed-bounds.ts). Other words are read, not
 * checked. A bare id followed by `held` or `not held` is checked in the environments the sentence names.
 *
 * Beyond the numbers, four rules about words:
 * - "everywhere", "every environment", "all three", "in all", "in any environment", "nowhere": every
 *   record of each claim the sentence cites has one verdict, and figures, if the sentence names
 *   environments, cover all three; a sentence that says so of a result must cite a claim.
 * - "never" (not "never start(s)" or "never reach(es)", the study's own terms for runs): absence shown,
 *   so each cited record is not held and its interval reaches zero. Not shown is not shown absent.
 * - "costs nothing", "ties", "no difference", "unchanged": sameness can only be cited from an "agrees"
 *   claim that held; a "beats" test that failed shows no difference was found, not that there is none.
 * - The comparisons no registered test makes (`UNREGISTERED`) carry "not pre-registered" in the sentence.
 */
import type { CellSummary, ClaimRecord } from '../src/study/confirmatory-types.ts';
import type { AucReadings } from '../src/study/readings.ts';
import { type ClaimBound, claimArms } from '../src/study/seed-bounds.ts';

export interface CitationStudy {
  claims: readonly ClaimRecord[];
  cells: readonly CellSummary[];
  aucReadings?: AucReadings;
  /** Floor and ceiling notes by record (studyBounds); without them `at the floor` is not checked. */
  bounds?: readonly ClaimBound[];
}

export interface CitationProblem {
  file: string;
  sentence: string;
  problem: string;
}

/** A comparison that no registered test makes, and how to recognise a sentence that states it. */
export interface UnregisteredComparison {
  what: string;
  states: (sentence: string) => boolean;
}

export const UNREGISTERED: readonly UnregisteredComparison[] = [
  {
    what: 'BEACON against shaped-reward PPO under a noisy detector (no registered test compares the two arms; family E is secondary)',
    states: (s) => /shaped/i.test(s) && /BEACON/.test(s) && /(10% false alarms|10% per step|at 10%|one step in ten|noisy detector|fires falsely)/.test(s),
  },
  {
    what: 'a sloppy teacher against the exact teacher (the registered tests compare methods under one teacher)',
    states: (s) => /teacher/.test(s) && /\bexact\b/.test(s) && /(better|worse|rises|falls from|where it had)/.test(s),
  },
];

const ENVS: Record<string, string> = { gridhouse: 'GridHouse', texthouse: 'TextHouse', shop: 'shop' };
const ENV_WORD = '(?:GridHouse|TextHouse|the shop|shop)';
const ID = '[PMTDSE]\\d{1,2}';
const envOf = (word: string) => (word.includes('shop') ? 'shop' : word.toLowerCase());
const minus = (s: string) => s.replace(/−/g, '-');

const ABBREVIATION_STOP = '\u2024';

/** The Markdown's sentences: code, tables, headings and comments left out, lines of a paragraph or item joined. */
export function sentencesOf(markdown: string): string[] {
  const text = markdown.replace(/<!--[\s\S]*?-->/g, '').replace(/```[\s\S]*?```/g, '');
  const passages: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) passages.push(current.join(' '));
    current = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('|') || /^ {4}/.test(raw)) {
      flush();
      continue;
    }
    if (/^([-*]|\d+\.) /.test(line)) flush();
    current.push(line.replace(/^([-*]|\d+\.) /, ''));
  }
  flush();
  const out: string[] = [];
  for (const p of passages) {
    // An abbreviation's full stop ends no sentence: it is held as a placeholder while the passage is split.
    const plain = p.replace(/\*\*|`/g, '').replace(/\b(e\.g|i\.e|cf|vs)\./g, `$1${ABBREVIATION_STOP}`);
    for (const s of plain.split(/(?<=[.!?])\s+(?=[A-Z“"(])/)) out.push(s.split(ABBREVIATION_STOP).join('.').trim());
  }
  return out.filter((s) => s.length > 0);
}

/** Close to `actual` at the precision `written` shows (±half its last digit). */
function agreesTo(written: string, actual: number): boolean {
  const w = Number(minus(written));
  const decimals = written.split('.')[1]?.length ?? 0;
  return Math.abs(w - actual) <= 0.5 * 10 ** -decimals + 1e-9;
}

function envsNamed(sentence: string): string[] {
  const envs = new Set<string>();
  if (/GridHouse/.test(sentence)) envs.add('gridhouse');
  if (/TextHouse/.test(sentence)) envs.add('texthouse');
  if (/\bshop\b/.test(sentence)) envs.add('shop');
  if (/\bhousehold\b/.test(sentence)) {
    envs.add('gridhouse');
    envs.add('texthouse');
  }
  return [...envs];
}

/** Every claim id the sentence names, ranges (P1–P3) spelled out. */
export function idsIn(sentence: string): string[] {
  const ids = new Set<string>();
  for (const m of sentence.matchAll(/\b([PMTDSE])(\d{1,2})(?:[–-]\1?(\d{1,2}))?\b/g)) {
    const last = m[3] ? Number(m[3]) : Number(m[2]);
    for (let i = Number(m[2]); i <= last; i++) ids.add(`${m[1]}${i}`);
  }
  return [...ids];
}

/** The parenthesis that opens at `open`, up to its matching close (nested ones kept). */
function balanced(text: string, open: number): string | null {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return null;
}

interface Segment {
  id: string;
  envs: string[];
  horizon: string | null;
  items: string[];
}

/** `ID (Env: items; Env: items)` and `ID in Env (items)`. */
function segmentsOf(sentence: string): Segment[] {
  const out: Segment[] = [];
  for (const m of sentence.matchAll(new RegExp(`\\b(${ID}) \\(`, 'g'))) {
    const inner = balanced(sentence, (m.index ?? 0) + m[0].length - 1);
    if (inner === null) continue;
    for (const part of splitOutside(inner, ';')) {
      const seg = new RegExp(`^(${ENV_WORD}(?:(?:, | and )${ENV_WORD})*)(?: (short|medium|long))?(?:\\s*:\\s*(.*))?$`).exec(part.trim());
      if (!seg) continue;
      const envs = seg[1].split(/, | and /).map(envOf);
      out.push({ id: m[1], envs, horizon: seg[2] ?? null, items: seg[3] ? splitOutside(seg[3], ',') : [] });
    }
  }
  for (const m of sentence.matchAll(new RegExp(`\\b(${ID}) in (${ENV_WORD})\\b(?: \\(([^()]*)\\))?`, 'g')))
    out.push({ id: m[1], envs: [envOf(m[2])], horizon: null, items: m[3] ? splitOutside(m[3].replace(/;/g, ','), ',') : [] });
  return out;
}

/** `text` split at `sep` outside brackets. */
function splitOutside(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '[' || text[i] === '(') depth++;
    if (text[i] === ']' || text[i] === ')') depth--;
    if (text[i] === sep && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter((p) => p.length > 0);
}

/** Words that make a sentence a statement about a result (a design sentence says "all three" too). */
const RESULT_WORDS = /\b(held|holds?|beats?|beat|loses?|lost|falls?|fell|keeps?|kept|survives?|learn(s|ed|t)?|better|worse|met|gains?)\b/;

const verdictWord = (held: boolean | null) => (held === null ? 'untestable' : held ? 'held' : 'not held');

export class CitationChecker {
  constructor(private readonly study: CitationStudy) {}

  private records(id: string, envs?: readonly string[], horizon: string | null = null): ClaimRecord[] {
    return this.study.claims.filter(
      (c) => c.id === id && c.kind === 'empirical' && (!envs || envs.includes(c.env as string)) && (horizon === null || c.horizon === horizon),
    );
  }

  private meanAuc(env: string, horizon: string, variant: string): number | undefined {
    return this.study.cells.find((c) => c.env === env && c.horizon === horizon && c.variant === variant)?.auc.mean;
  }

  /** What is wrong with one item said of one record, or null. */
  private itemProblem(c: ClaimRecord, item: string): string | null {
    const where = `${c.id} (${ENVS[c.env as string]}${c.horizon ? ` ${c.horizon}` : ''})`;
    const reading = /^(not )?(?:held )?as (coded|written)$/.exec(item);
    if (reading) {
      const held = !reading[1];
      const r = this.study.aucReadings?.claims.find((x) => x.id === c.id && x.env === c.env && x.horizon === c.horizon);
      if (!r) return `${where}: no AUC reading to check "${item}" against`;
      const actual = reading[2] === 'coded' ? r.asCoded.held : r.asWritten.held;
      return actual === held ? null : `${where} is ${verdictWord(actual)} as ${reading[2]}, the text says ${verdictWord(held)}`;
    }
    if (/^(not held|held)$/.test(item)) return verdictWord(c.held) === item ? null : `${where} is ${verdictWord(c.held)}, the text says ${item}`;
    const effect = /^([+−-]\d+\.\d+)(?: AUC)?(?: \[([+−-]?\d+\.\d+), ([+−-]?\d+\.\d+)\])?$/.exec(item);
    if (effect) {
      if (c.effect === null) return `${where} has no effect to quote`;
      if (!agreesTo(effect[1], c.effect)) return `${where}: effect ${c.effect.toFixed(3)}, the text says ${effect[1]}`;
      if (effect[2] && c.ci && !(agreesTo(effect[2], c.ci[0]) && agreesTo(effect[3], c.ci[1])))
        return `${where}: interval [${c.ci[0].toFixed(3)}, ${c.ci[1].toFixed(3)}], the text says [${effect[2]}, ${effect[3]}]`;
      return null;
    }
    const against = /^(\d+\.\d+) against (\d+\.\d+)$/.exec(item);
    if (against) {
      const [a, b] = claimArms(c, this.study.cells);
      const means = [a, b].map((x) => (x ? this.meanAuc(x.env, x.horizon, x.variant) : undefined));
      if (means.some((m) => m === undefined)) return `${where}: no two arms to compare`;
      return agreesTo(against[1], means[0] as number) && agreesTo(against[2], means[1] as number)
        ? null
        : `${where}: ${a.label} ${(means[0] as number).toFixed(3)} against ${b.label} ${(means[1] as number).toFixed(3)}, the text says ${item}`;
    }
    const p = /^(Holm )?p (\d+\.\d+)$/.exec(item);
    if (p) {
      const t = c.tests[0];
      const actual = p[1] ? t?.pAdjusted : t?.p;
      if (actual === null || actual === undefined) return `${where} has no ${p[1] ? 'Holm ' : ''}p`;
      return agreesTo(p[2], actual) ? null : `${where}: ${p[1] ? 'Holm ' : ''}p ${actual.toFixed(4)}, the text says ${p[2]}`;
    }
    const seeds = /^(\d+)\/(\d+) seeds(?: ahead)?$/.exec(item);
    if (seeds) {
      const t = c.tests[0];
      const ahead = t ? t.diffs.filter((d) => d > 0).length : -1;
      return t && ahead === Number(seeds[1]) && t.diffs.length === Number(seeds[2])
        ? null
        : `${where}: ${ahead}/${t?.diffs.length ?? 0} seeds ahead, the text says ${seeds[1]}/${seeds[2]}`;
    }
    const bound = /^at the (floor and ceiling|floor|ceiling)$/.exec(item);
    if (bound && this.study.bounds) {
      const b = this.study.bounds.find((x) => x.id === c.id && x.env === c.env && x.horizon === c.horizon);
      return b?.restsOn === bound[1] ? null : `${where} rests on ${b?.restsOn ?? 'neither a floor nor a ceiling'}, the text says ${item}`;
    }
    return null;
  }

  /** Every problem of one sentence. */
  sentenceProblems(sentence: string): string[] {
    const problems: string[] = [];
    for (const seg of segmentsOf(sentence)) {
      const rs = this.records(seg.id, seg.envs, seg.horizon);
      if (rs.length === 0) {
        problems.push(`${seg.id} (${seg.envs.map((e) => ENVS[e]).join(', ')}): no such claim record in study.json`);
        continue;
      }
      for (const c of rs)
        for (const item of seg.items) {
          const p = this.itemProblem(c, item);
          if (p) problems.push(p);
        }
    }
    const named = envsNamed(sentence);
    for (const m of sentence.matchAll(new RegExp(`\\b(${ID}) (not held|held)\\b(?! as)`, 'g'))) {
      for (const c of this.records(m[1], named.length ? named : undefined))
        if (verdictWord(c.held) !== m[2]) problems.push(`${c.id} (${ENVS[c.env as string]}) is ${verdictWord(c.held)}, the text says ${m[2]}`);
    }
    problems.push(...this.wordProblems(sentence, named));
    return problems;
  }

  /**
   * The ids a word at `at` speaks of: those of the first parenthesis after it that names one (and that
   * parenthesis's text), else every id of the sentence.
   */
  private scope(sentence: string, at: number): { ids: string[]; text: string } {
    const known = (ids: string[]) => ids.filter((id) => this.records(id).length > 0);
    for (let open = sentence.indexOf('(', at); open >= 0; open = sentence.indexOf('(', open + 1)) {
      const inner = balanced(sentence, open);
      const ids = inner === null ? [] : known(idsIn(inner));
      if (ids.length) return { ids, text: inner as string };
    }
    return { ids: known(idsIn(sentence)), text: sentence };
  }

  private wordProblems(sentence: string, named: readonly string[]): string[] {
    const problems: string[] = [];
    const universal = /\b(everywhere|anywhere|every environment|(?:in )?all three(?: environments)?|in any environment|nowhere)\b/.exec(sentence);
    if (universal) {
      const scope = this.scope(sentence, universal.index);
      if (scope.ids.length === 0 && RESULT_WORDS.test(sentence)) problems.push(`says "${universal[1]}" of a result without naming the claim`);
      for (const id of scope.ids) {
        const verdicts = new Set(this.records(id).map((c) => verdictWord(c.held)));
        if (verdicts.size > 1)
          problems.push(
            `says "${universal[1]}" of ${id}, whose verdicts differ: ${this.records(id)
              .map((c) => `${ENVS[c.env as string]} ${verdictWord(c.held)}`)
              .join(', ')}`,
          );
      }
      const explicit = ['GridHouse', 'TextHouse', 'shop'].filter((e) => new RegExp(`\\b${e}\\b`).test(scope.text));
      if (scope.ids.length && scope.text !== sentence && explicit.length > 0 && explicit.length < 3 && !/\bhousehold\b/.test(scope.text))
        problems.push(`says "${universal[1]}" but gives ${explicit.join(' and ')} only`);
    }
    const never = /\bnever\b(?! (start|starts|started|reach|reaches|reached)\b)/.exec(sentence);
    if (never) {
      for (const id of this.scope(sentence, never.index).ids)
        for (const c of this.records(id).filter((r) => r.held || (r.ci !== null && r.ci[0] > 0)))
          problems.push(
            `says "never" of ${id}, but ${id} (${ENVS[c.env as string]}) is ${verdictWord(c.held)} with ${c.effect?.toFixed(3)} [${c.ci?.[0].toFixed(3)}, ${c.ci?.[1].toFixed(3)}]: not shown is not shown absent`,
          );
    }
    const same = /\b(costs? (it )?nothing|ties|tied|no difference|unchanged)\b/.exec(sentence);
    if (same) {
      for (const id of this.scope(sentence, same.index).ids)
        for (const c of this.records(id, named.length ? named : undefined))
          if (!(c.rule.startsWith('agrees') && c.held))
            problems.push(
              `says "${same[1]}" citing ${id} (${ENVS[c.env as string]}), which shows no sameness (${c.rule.split(':')[0]}, ${verdictWord(c.held)})`,
            );
    }
    if (!/not pre-registered/i.test(sentence) && RESULT_WORDS.test(sentence))
      for (const u of UNREGISTERED) if (u.states(sentence)) problems.push(`states ${u.what} without "not pre-registered"`);
    return problems;
  }

  /** Every problem of a document, sentence by sentence. */
  check(file: string, markdown: string): CitationProblem[] {
    return sentencesOf(markdown).flatMap((sentence) => this.sentenceProblems(sentence).map((problem) => ({ file, sentence, problem })));
  }
}
