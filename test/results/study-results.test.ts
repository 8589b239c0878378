/**
 * The results page's data helpers against the synthetic study v3 fixture (test/fixtures/study-v3.json,
 * from test/fixtures/make-study-v3.ts): version check, claim groups and counts, cell ordering, failures,
 * and the pre-registration's rules read from docs/results/preregistration.md itself.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { budgetOf, cellEnvs, cellHorizons, chartCells, envFailures, envRows } from '../../src/results/cell-tables.ts';
import { claimGroups, identities, verdictCounts } from '../../src/results/claim-groups.ts';
import { effectReferences, preregisteredRules } from '../../src/results/preregistered-rules.ts';
import { studyForThePage } from '../../scripts/results-page-plugin.ts';
import { readStudy, type StudyResults } from '../../src/results/study-document.ts';
import type { ClaimRecord } from '../../src/study/confirmatory-types.ts';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/study-v3.json', import.meta.url), 'utf8')) as StudyResults;
const preregistration = readFileSync(new URL('../../docs/results/preregistration.md', import.meta.url), 'utf8');

describe('readStudy', () => {
  it('accepts a version 3 document', () => {
    const read = readStudy(fixture);
    expect(read.ok).toBe(true);
  });

  it('refuses another version, naming the version found and the one it renders', () => {
    const read = readStudy({ ...fixture, version: 2 });
    expect(read).toEqual({ ok: false, message: expect.stringMatching(/is version 2; this page renders version 3/) });
    expect(readStudy({ runs: [] })).toEqual({ ok: false, message: expect.stringMatching(/has no version field/) });
    expect(readStudy([1, 2])).toEqual({ ok: false, message: 'study.json is not a JSON object.' });
  });

  it('refuses a version 3 document missing a field the page reads, naming it', () => {
    const { claims: _claims, ...rest } = fixture;
    expect(readStudy(rest)).toEqual({ ok: false, message: 'study.json version 3 has no "claims" list.' });
    expect(readStudy({ ...fixture, preregistration: 'docs/results/preregistration.md' })).toEqual({
      ok: false,
      message: 'study.json version 3 has no "preregistration" object (or null).',
    });
    // Written outside a git repository, the study records no pre-registration: still a document to show.
    expect(readStudy({ ...fixture, preregistration: null }).ok).toBe(true);
  });
});

describe('claims', () => {
  it('counts the verdicts of the empirical records only', () => {
    const empirical = fixture.claims.filter((c) => c.kind === 'empirical');
    const counts = verdictCounts(fixture.claims);
    expect(counts.total).toBe(empirical.length);
    expect(counts.held).toBe(empirical.filter((c) => c.held === true).length);
    expect(counts['not held']).toBe(empirical.filter((c) => c.held === false).length);
    expect(counts.untestable).toBe(empirical.filter((c) => c.held === null).length);
    expect(counts.held + counts['not held'] + counts.untestable).toBe(counts.total);
    // The fixture's identities hold; counting them would change the held count.
    expect(fixture.claims.some((c) => c.kind === 'identity' && c.held)).toBe(true);
  });

  it('groups empirical claims by family in id order and keeps identities apart', () => {
    const groups = claimGroups(fixture.claims);
    expect(groups.map((g) => g.family)).toEqual(['P', 'M', 'T']);
    for (const g of groups) expect(g.claims.every((c) => c.family === g.family && c.kind === 'empirical')).toBe(true);
    expect(groups[0].claims.map((c) => c.id)).toEqual(['P1', 'P1', 'P1', 'P2', 'P2', 'P4']);
    expect(identities(fixture.claims).map((c) => c.id)).toEqual(['I1', 'I2']);
    const shown = groups.reduce((s, g) => s + g.claims.length, 0) + identities(fixture.claims).length;
    expect(shown).toBe(fixture.claims.length);
  });

  it('gives the detector study’s families (amendment 2) titled groups of their own, after study v3’s', () => {
    const c = (id: string, family: ClaimRecord['family']) => ({ ...fixture.claims[0], id, family }) as ClaimRecord;
    const groups = claimGroups([...fixture.claims, c('E2', 'E'), c('D2', 'D'), c('D1', 'D'), c('S1', 'S'), c('X1', 'X' as ClaimRecord['family'])]);
    expect(groups.map((g) => g.family)).toEqual(['P', 'M', 'T', 'D', 'S', 'E', '?']);
    const d = groups.find((g) => g.family === 'D')!;
    expect(d.title).toBe('D: the detector study (amendment 2)');
    expect(d.note).toMatch(/Holm–Bonferroni/);
    expect(d.claims.map((x) => x.id)).toEqual(['D1', 'D2']);
    expect(groups.find((g) => g.family === 'E')?.title).toMatch(/secondary/);
  });

  it('orders ids with their numbers as numbers (M10 after M9)', () => {
    const c = (id: string) => ({ ...fixture.claims[0], id, family: 'M' }) as ClaimRecord;
    expect(claimGroups([c('M10'), c('M9'), c('M1')])[0].claims.map((x) => x.id)).toEqual(['M1', 'M9', 'M10']);
  });
});

describe('cells', () => {
  it('orders environments and horizons as the registries do', () => {
    expect(cellEnvs(fixture.cells)).toEqual(['gridhouse', 'texthouse', 'shop']);
    expect(cellHorizons(fixture.cells, 'shop')).toEqual(['short', 'medium', 'long']);
  });

  it('lists an environment’s rows by horizon, then variant, with the ablations at the end of the long horizon', () => {
    const rows = envRows(fixture.cells, 'gridhouse');
    expect(rows.length).toBe(fixture.cells.filter((c) => c.env === 'gridhouse').length);
    expect(rows[0]).toMatchObject({ horizon: 'short', variant: 'grpo' });
    expect(rows.at(-1)).toMatchObject({ horizon: 'long' });
    expect(rows.slice(-2).map((r) => r.variant)).toEqual(['gamma1', 'randomSegments']);
  });

  it('charts the main methods with the released variant that belongs to the environment, never the ablations', () => {
    expect(chartCells(fixture.cells, 'shop', 'long').map((c) => c.variant)).toEqual([
      'grpo',
      'beacon',
      'beaconReleasedWebshop',
      'gigpo',
      'ppo',
      'ppoShaped',
      'sft',
    ]);
    expect(chartCells(fixture.cells, 'gridhouse', 'long').map((c) => c.variant)).not.toContain('gamma1');
    expect(chartCells(fixture.cells, 'gridhouse', 'long').map((c) => c.variant)).toContain('beaconReleased');
  });

  it('reads budgets from the document’s table, else from a cell', () => {
    expect(budgetOf(fixture.envStepBudgets, fixture.cells, 'gridhouse', 'long')).toBe(90112);
    expect(budgetOf({}, fixture.cells, 'texthouse', 'medium')).toBe(30720);
    expect(budgetOf({}, fixture.cells, 'texthouse', 'tiny')).toBeUndefined();
  });

  it('counts whole-seed failures apart, listing only the cells that have some', () => {
    const grid = envFailures(fixture.failures, 'gridhouse');
    expect(grid.rows.map((f) => [f.horizon, f.variant, f.failures])).toEqual([['long', 'grpo', 2]]);
    expect(grid.failed).toBe(2);
    expect(grid.runs).toBe(fixture.failures.filter((f) => f.env === 'gridhouse').reduce((s, f) => s + f.runs, 0));
    expect(envFailures(fixture.failures, 'texthouse').failed).toBe(0);
  });
});

describe('preregistered rules', () => {
  const rules = preregisteredRules(preregistration);

  it('reads the minimal effect and the margin from the pre-registration’s block', () => {
    expect(rules).toEqual({ minimalEffect: { auc: 0.03, stepsTo60Fraction: 0.1 }, equivalenceMargin: { auc: 0.05, stepsTo60Fraction: 0.1 }, alpha: 0.05 });
  });

  it('says what is wrong with a block it cannot read', () => {
    expect(() => preregisteredRules('# no block')).toThrow(/no ```json preregistration block/);
    const bad = preregistration.replace(
      '"minimalEffect": { "auc": 0.03, "stepsTo60": "0.10 x budget" }',
      '"minimalEffect": { "auc": 0.03, "stepsTo60": "a tenth" }',
    );
    expect(bad).not.toBe(preregistration);
    expect(() => preregisteredRules(bad)).toThrow(/tests.minimalEffect.stepsTo60 must be a number or "<fraction> x budget"; got "a tenth"/);
  });

  it('draws a beats-claim against its minimal effect, an agrees-claim against its margin, a claim of both against both', () => {
    const budget = (env: string, horizon: string) => budgetOf(fixture.envStepBudgets, fixture.cells, env, horizon);
    const byId = (id: string, env: string) => fixture.claims.find((c) => c.id === id && c.env === env)!;
    expect(effectReferences(byId('P1', 'gridhouse'), rules, budget)).toEqual([{ kind: 'minimal effect', value: 0.03 }]);
    expect(effectReferences(byId('M8', 'gridhouse'), rules, budget)).toEqual([{ kind: 'equivalence margin', value: 0.05 }]);
    expect(effectReferences(byId('M4', 'gridhouse'), rules, budget)).toEqual([
      { kind: 'minimal effect', value: 0.03 },
      { kind: 'equivalence margin', value: 0.05 },
    ]);
    // Steps to 60%: a fraction of the judged cell's budget (the long horizon of a per-environment claim).
    expect(effectReferences(byId('P2', 'gridhouse'), rules, budget)).toEqual([{ kind: 'minimal effect', value: 0.1 * 90112 }]);
    expect(effectReferences({ ...byId('P1', 'gridhouse'), rule: 'a rule naming no decision' }, rules, budget)).toEqual([]);
    expect(effectReferences(byId('T1', 'texthouse'), rules, budget)).toEqual([]);
    // Amendment 2's families are judged by the same rules: a D claim's interval is drawn against the same lines.
    expect(effectReferences({ ...byId('P1', 'gridhouse'), family: 'D' as const }, rules, budget)).toEqual([{ kind: 'minimal effect', value: 0.03 }]);
    expect(effectReferences({ ...byId('M8', 'gridhouse'), family: 'D' as const }, rules, budget)).toEqual([{ kind: 'equivalence margin', value: 0.05 }]);
    expect(effectReferences(byId('I1', 'gridhouse'), rules, budget)).toEqual([]);
  });
});

describe('the page’s copy of study.json', () => {
  it('leaves out the runs and carries the floors and ceilings derived from them, every cell and every empirical claim', () => {
    const full = readFileSync(new URL('../../docs/results/study.json', import.meta.url), 'utf8');
    const copy = JSON.parse(studyForThePage(full)) as StudyResults & { runs?: unknown };
    const source = JSON.parse(full) as StudyResults;
    expect(copy.runs).toBeUndefined();
    expect(readStudy(copy).ok).toBe(true);
    expect(copy.bounds?.cells).toHaveLength(source.cells.length);
    expect(copy.bounds?.claims).toHaveLength(source.claims.filter((c) => c.kind === 'empirical').length);
    expect(copy.bounds?.rule).toMatch(/under 5%.*from the first quarter of the budget on is over 95%/);
    expect(copy.bounds?.claims.find((c) => c.id === 'D7' && c.env === 'shop')?.note).toMatch(/^rests on runs at the floor/);
    // A document without runs (the synthetic fixture) has nothing to derive them from.
    expect(JSON.parse(studyForThePage(JSON.stringify({ ...fixture, runs: undefined }))).bounds).toBeUndefined();
  });
});
