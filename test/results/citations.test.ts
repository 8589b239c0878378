/**
 * The study's words say what its numbers say: every claim the prose cites (README.md, docs/study.md,
 * docs/results/analysis.md, the tour's narratives) is checked against docs/results/study.json by
 * scripts/citations.ts, the summaries made from study.json are what its generator gives
 * (scripts/study-docs.ts), and the AUC erratum is in the pre-registration. The check is shown failing on
 * analysis.md as it read before these rules (test/fixtures/analysis-before-43.md).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CitationChecker, type CitationProblem, idsIn, sentencesOf } from '../../scripts/citations.ts';
import { readStudyDocument, studyDocs } from '../../scripts/study-docs.ts';
import { SCENARIOS } from '../../src/page/scenarios.ts';
import type { StudyDocument } from '../../src/study/report.ts';
import { studyBounds } from '../../src/study/seed-bounds.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const CHECKED = ['README.md', 'docs/study.md', 'docs/results/analysis.md'] as const;

let study: StudyDocument;
let checker: CitationChecker;

beforeAll(() => {
  study = readStudyDocument();
  checker = new CitationChecker({ claims: study.claims, cells: study.cells, aucReadings: study.aucReadings, bounds: studyBounds(study).claims });
});

const problemsOf = (file: string, text: string): CitationProblem[] => checker.check(file, text);
const found = (problems: readonly CitationProblem[], sentence: string, problem: RegExp) =>
  problems.some((p) => p.sentence.includes(sentence) && problem.test(p.problem));

describe('the prose that cites the study', () => {
  it.each(CHECKED)('%s cites only what study.json says', (file) => {
    const text = read(file);
    expect(idsIn(text).length).toBeGreaterThan(0);
    expect(problemsOf(file, text)).toEqual([]);
  });

  it('the tour’s narratives cite only what study.json says', () => {
    const cited = SCENARIOS.filter((s) => idsIn(s.narrative).length > 0).map((s) => s.id);
    expect(cited).toEqual(expect.arrayContaining(['gameable-detector', 'coarse-milestones', 'fine-milestones', 'sloppy-teacher', 'reward-shaping']));
    expect(SCENARIOS.flatMap((s) => problemsOf(`scenario ${s.id}`, s.narrative))).toEqual([]);
  });

  it('reports the wrong sentences of analysis.md as it read before (the fixture), each for its reason', () => {
    const problems = problemsOf('analysis-before-43.md', read('test/fixtures/analysis-before-43.md'));
    // E12 in TextHouse: not held as coded (Holm p 0.053), held as written; the text had it the other way round.
    expect(found(problems, 'E12 in TextHouse (held as coded, not as written)', /E12 \(TextHouse\) is not held as coded/)).toBe(true);
    expect(found(problems, 'E12 in TextHouse (held as coded, not as written)', /E12 \(TextHouse\) is held as written/)).toBe(true);
    // Shaped PPO at 10% "falls below GRPO everywhere": the shop is 0.058 against 0.052.
    expect(found(problems, 'falls below GRPO everywhere', /says "everywhere" but gives GridHouse and TextHouse only/)).toBe(true);
    // "2% false alarms everywhere": D1 is not held in the shop, and the sentence names no claim.
    expect(found(problems, '2% false alarms everywhere', /says "everywhere" of a result without naming the claim/)).toBe(true);
    // "costs it nothing in the household (E4 held)": E4 is a keeps-half-gain test; TextHouse drops 0.70 to 0.62.
    expect(found(problems, 'costs it nothing in the household', /"costs it nothing" citing E4 \(TextHouse\)/)).toBe(true);
    // "never beats GRPO (D3 …)": D3 in GridHouse is +0.07 [+0.003, +0.154]: not shown is not shown absent.
    expect(found(problems, 'never beats GRPO', /says "never" of D3, but D3 \(GridHouse\)/)).toBe(true);
    // BEACON against shaped PPO at 10% false alarms, presented as a finding three times, never labelled.
    const unlabelled = problems.filter((p) => /without "not pre-registered"/.test(p.problem)).map((p) => p.sentence);
    expect(unlabelled).toEqual([
      expect.stringContaining('at 10% it falls below GRPO everywhere'),
      expect.stringContaining('with a noisy detector, BEACON degrades gracefully and shaped rewards do not'),
      expect.stringContaining('fires falsely one step in ten'),
    ]);
  });

  it('fails a number, an interval, a verdict or an arm mean that differs at the precision written', () => {
    const ok = 'BEACON keeps its gain (D5 (GridHouse: held, +0.15 [0.11, 0.19], 0.56 against 0.19, 14/15 seeds, Holm p 0.001)).';
    expect(checker.sentenceProblems(ok)).toEqual([]);
    expect(checker.sentenceProblems(ok.replace('+0.15', '+0.16'))).toEqual(['D5 (GridHouse): effect 0.150, the text says +0.16']);
    expect(checker.sentenceProblems(ok.replace('+0.15', '+0.150'))).toEqual([]);
    expect(checker.sentenceProblems(ok.replace('+0.15', '+0.1503'))).toEqual([expect.stringMatching(/effect 0\.150, the text says \+0\.1503/)]);
    expect(checker.sentenceProblems(ok.replace('[0.11, 0.19]', '[0.10, 0.19]'))).toEqual([expect.stringMatching(/interval \[0\.107, 0\.192\]/)]);
    expect(checker.sentenceProblems(ok.replace('GridHouse: held', 'GridHouse: not held'))).toEqual(['D5 (GridHouse) is held, the text says not held']);
    expect(checker.sentenceProblems(ok.replace('0.56 against', '0.58 against'))).toEqual([
      expect.stringMatching(/against GRPO 0\.188, the text says 0\.58 against 0\.19/),
    ]);
    expect(checker.sentenceProblems(ok.replace('14/15', '15/15'))).toEqual(['D5 (GridHouse): 14/15 seeds ahead, the text says 15/15']);
    expect(checker.sentenceProblems('The delay (D5 (TextHouse: held)).')).toEqual(['D5 (TextHouse) is not held, the text says held']);
    expect(checker.sentenceProblems('A claim (D9 (GridHouse: held)).')).toEqual(['D9 (GridHouse): no such claim record in study.json']);
    expect(checker.sentenceProblems('Here D7 (shop: held, at the floor) agrees.')).toEqual([]);
    expect(checker.sentenceProblems('Here S2 (shop: held, at the floor).')).toEqual([
      'S2 (shop) rests on neither a floor nor a ceiling, the text says at the floor',
    ]);
  });

  it('fails "everywhere", "never" and sameness said of records that do not all say it', () => {
    expect(checker.sentenceProblems('BEACON keeps half its gain everywhere (D1).')).toEqual([
      'says "everywhere" of D1, whose verdicts differ: GridHouse held, TextHouse held, shop not held',
    ]);
    expect(checker.sentenceProblems('BEACON beats GRPO under a sloppy teacher everywhere (S2).')).toEqual([]);
    expect(checker.sentenceProblems('A gameable detector never beats GRPO (D3).')).toEqual([expect.stringMatching(/says "never" of D3, but D3 \(GridHouse\)/)]);
    expect(checker.sentenceProblems('Without its term the policy never starts (D4).')).toEqual([]);
    expect(checker.sentenceProblems('BEACON ties shaped PPO in GridHouse (P4).')).toEqual([
      expect.stringMatching(/"ties" citing P4 \(GridHouse\), which shows no sameness/),
    ]);
    expect(checker.sentenceProblems('The fine detector costs nothing in GridHouse (D7).')).toEqual([]);
  });

  it('asks the comparisons no registered test makes to say "not pre-registered"', () => {
    const sentence = 'At 10% false alarms BEACON kept 0.49 where shaped-reward PPO fell to 0.04.';
    expect(checker.sentenceProblems(sentence)).toEqual([expect.stringMatching(/BEACON against shaped-reward PPO under a noisy detector/)]);
    expect(checker.sentenceProblems(`Not pre-registered: ${sentence}`)).toEqual([]);
    const analysis = read('docs/results/analysis.md').replace(/\s+/g, ' ');
    expect(analysis).toContain('Not pre-registered: BEACON at the same 10% false alarms kept 0.49 and 0.45');
  });

  it('reads sentences from Markdown: paragraphs and items joined, code, tables and headings left out', () => {
    const md = '# D1 heading\n\nOne line\ncontinued (e.g. this). Two.\n\n- An item\n  wrapped.\n\n| D1 | table |\n\n```\nD1 code\n```\n';
    expect(sentencesOf(md)).toEqual(['One line continued (e.g. this).', 'Two.', 'An item wrapped.']);
  });
});

describe('the summaries made from study.json', () => {
  it('README.md’s "What we found", docs/results/README.md and the tour’s sentences are what npm run -s study:docs writes', () => {
    const generated = studyDocs();
    expect(Object.keys(generated).sort()).toEqual(['README.md', 'docs/results/README.md', 'src/page/study-findings.ts']);
    for (const [path, text] of Object.entries(generated)) expect(read(path), `${path}: run npm run -s study:docs`).toBe(text);
  });

  it('study.json carries no derived field of these checks: its runs and claims are read, never rewritten', () => {
    expect(study).not.toHaveProperty('bounds');
    expect(study.runs).toHaveLength(2340);
  });
});

describe('the AUC erratum', () => {
  const preregistration = read('docs/results/preregistration.md');

  it('is a dated section added to the pre-registration, after its amendments, giving the AUC as coded, when it arrived and what it changes', () => {
    const at = preregistration.indexOf('## Erratum (2026-12-07): the AUC as coded');
    expect(at).toBeGreaterThan(preregistration.indexOf('## Amendment 2 (2026-12-02)'));
    const erratum = preregistration.slice(at);
    expect(erratum).toContain('B − n_0');
    expect(erratum).toContain('last-5 success');
    expect(erratum).toContain('ab56ca7');
    expect(erratum).toContain('20 of 56');
    expect(erratum).toMatch(/M2 in TextHouse[\s\S]*M9 in TextHouse/);
    // What it says of the flips is what study.json's readings say.
    const flips = (study.aucReadings?.claims ?? []).filter((c) => c.differs).map((c) => `${c.id} ${c.env}`);
    expect(flips).toEqual(['M2 texthouse', 'M9 texthouse', 'E12 texthouse']);
  });

  it('is named among analysis.md’s departures from the plan', () => {
    const analysis = read('docs/results/analysis.md');
    const departures = analysis.slice(analysis.indexOf('### What it does not show, and where it departs from the plan'), analysis.indexOf('### Curves'));
    expect(departures).toContain('(preregistration.md#erratum-2026-12-07-the-auc-as-coded)');
  });
});
