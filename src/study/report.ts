/**
 * The study's outputs as data and text: the study.json document and the README generated from it.
 *
 * The README's generated text only states figures and the fixed rules; what we think explains a failed
 * claim is written by hand, after reading the results, in analysis.md beside it, and included verbatim.
 */
import { DEFAULT_CONFIG, type TrainConfig } from '../config.ts';
import type { ClaimResult } from './claims.ts';
import type { NamedFigure } from './charts.ts';
import { variantLabel, VARIANTS } from './charts.ts';
import type { StudyBudget, StudyProfile } from './profile.ts';
import { FINAL_WINDOW, TARGET_SUCCESS, TRAILING_WINDOW, meanSd, medianIters, selectRuns, type RunResult } from './summary.ts';

export const DEFINITIONS: Record<string, string> = {
  finalSuccess: `mean success rate over the last ${FINAL_WINDOW} iterations of the run`,
  itersTo60: `first iteration i ≥ ${TRAILING_WINDOW} at which the mean success of iterations i−${TRAILING_WINDOW - 1}…i is ≥ ${TARGET_SUCCESS * 100}%; null if never within the budget`,
  sampleUtilization: 'run mean of the per-iteration share of runs with at least one step where |A| ≥ 1e-6 (docs/maths.md §5)',
  zeroAdvantageRatio: 'run mean of the per-iteration share of steps with |A| < 1e-6',
  contradictoryRatio: 'run mean of the per-iteration contradictory action ratio (iterations where it is undefined left out)',
  contradictoryPeak: `largest ${TRAILING_WINDOW}-iteration moving average of the contradictory action ratio`,
  signalRetention: 'run mean of Σ|ΣA| / ΣΣ|A| over repeated (group, state, action) keys',
  ccr: 'run mean of the credit concentration ratio (mean |A| of milestone steps / mean |A| of other steps)',
  'mean ± sd': 'over seeds; sd is the sample standard deviation (n − 1)',
};

export interface StudyDocument {
  profile: StudyProfile['name'];
  purpose: string;
  command: string;
  commit: string;
  /** True when the working tree had uncommitted changes. */
  dirty: boolean;
  /** Distinct commits the runs were trained at (resumed runs may come from earlier commits). */
  runCommits: string[];
  startedAt: string;
  finishedAt: string;
  /** Wall seconds of the invocation that trained the last runs (resumed runs not included; a
   *  --report-only rewrite keeps the previous figure). */
  wallSeconds: number;
  /** Sum of every run's own wall seconds, resumed runs included. */
  runSeconds: number;
  workers: number;
  seeds: number;
  budget: StudyBudget;
  /** The settings every run shares (its env, horizon, method, seed and ablation are its own). */
  hyperparameters: SharedHyperparameters;
  definitions: Record<string, string>;
  runs: RunResult[];
  claims: ClaimResult[];
}

/** study.json: indented, but arrays of plain numbers (the curves) kept on one line each. */
export function studyJson(doc: StudyDocument): string {
  const text = JSON.stringify(doc, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 1);
  return `${text.replace(/\[\n[\s\d.eE+\-,null]*\]/g, (m) => m.replace(/\s+/g, ''))}\n`;
}

export type SharedHyperparameters = Omit<TrainConfig, 'env' | 'horizon' | 'method' | 'seed'>;

export function sharedHyperparameters(budget: StudyBudget): SharedHyperparameters {
  const { env: _env, horizon: _horizon, method: _method, seed: _seed, ...shared } = { ...DEFAULT_CONFIG, ...budget, backend: 'wasm' as const };
  return shared;
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(100 * x).toFixed(0)}%`);
const num = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? 'n/a' : x.toFixed(d));
const cell = (s: string) => s.replace(/\|/g, '\\|');
const verdict = (h: boolean | null) => (h === null ? 'not measured' : h ? '**held**' : '**failed**');

function medianOrNever(xs: (number | null)[]): string {
  const m = medianIters(xs);
  return m === null ? 'n/a' : Number.isFinite(m) ? String(m) : 'never';
}

function variantTable(runs: readonly RunResult[]): string {
  const rows: string[] = [
    '| env | horizon | method | seeds | final success | iters to 60% (median) | utilisation | zero-advantage | contradictory (peak) | signal retention | CCR |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const keys = new Map<string, RunResult>();
  for (const r of runs) keys.set(`${r.env}|${r.horizon}|${r.variant}`, r);
  const order = ['tiny', 'short', 'medium', 'long'];
  const variants: readonly string[] = VARIANTS;
  const sorted = [...keys.values()].sort((a, b) => a.env.localeCompare(b.env) || order.indexOf(a.horizon) - order.indexOf(b.horizon) || variants.indexOf(a.variant) - variants.indexOf(b.variant));
  for (const k of sorted) {
    const sel = selectRuns(runs, { env: k.env, horizon: k.horizon, variant: k.variant });
    const m = (f: keyof RunResult) => meanSd(sel.map((r) => r[f] as number | null));
    const fs = m('finalSuccess');
    rows.push(`| ${k.env} | ${k.horizon} | ${variantLabel(k.variant)} | ${sel.length} | ${pct(fs.mean)} ± ${pct(fs.sd)} | ${medianOrNever(sel.map((r) => r.itersTo60))} | ${pct(m('sampleUtilization').mean)} | ${pct(m('zeroAdvantageRatio').mean)} | ${pct(m('contradictoryRatio').mean)} (${pct(m('contradictoryPeak').mean)}) | ${pct(m('signalRetention').mean)} | ${num(m('ccr').mean)} |`);
  }
  return rows.join('\n');
}

export interface ReadmeInput {
  study: StudyDocument;
  figures: readonly NamedFigure[];
  /** Hand-written analysis (analysis.md), or null if not written yet. */
  analysis: string | null;
  /** Measured iteration times behind the budget, one line each (profile.ts documents the same). */
  budgetNotes: readonly string[];
}

export function renderReadme({ study, figures, analysis, budgetNotes }: ReadmeInput): string {
  const s = study;
  const held = s.claims.filter((c) => c.held === true).length;
  const failed = s.claims.filter((c) => c.held === false).length;
  const out: string[] = [];
  out.push('# Reproducing the paper’s claims in Beacon Live');
  out.push('');
  out.push('<!-- Generated by `npm run study` from study.json: edit analysis.md, not this file. -->');
  out.push('');
  if (s.profile !== 'full') out.push(`> **${s.profile} profile: ${s.purpose}.** These are not the study’s results; see docs/results/README.md.\n`);
  out.push(`- Command: \`${s.command}\``);
  out.push(`- Commit: \`${s.commit}\`${s.dirty ? ' (with uncommitted changes in the working tree)' : ''}`);
  if (s.runCommits.length > 1 || (s.runCommits.length === 1 && s.runCommits[0] !== `${s.commit}${s.dirty ? '+dirty' : ''}`)) {
    out.push(`- Runs trained at: ${s.runCommits.map((c) => `\`${c}\``).join(', ')}`);
  }
  out.push(`- Finished: ${s.finishedAt}; this invocation ${(s.wallSeconds / 60).toFixed(1)} min wall with ${s.workers} workers; all runs together ${(s.runSeconds / 60).toFixed(1)} min of worker time`);
  out.push(`- Runs: ${s.runs.length} (${s.seeds} seeds per cell), wasm backend, one worker thread per run at a time`);
  out.push(`- Claims: ${held} held, ${failed} failed${s.claims.length - held - failed ? `, ${s.claims.length - held - failed} not measured` : ''} (of ${s.claims.length})`);
  out.push('');
  out.push('## Claims at a glance');
  out.push('');
  out.push('| # | claim | paper | ours | verdict |');
  out.push('| --- | --- | --- | --- | --- |');
  for (const c of s.claims) out.push(`| ${c.id} | ${cell(c.claim)} | ${cell(c.paper)} | ${cell(c.ours)} | ${verdict(c.held)} |`);
  out.push('');
  out.push('## Each claim');
  for (const c of s.claims) {
    out.push('');
    out.push(`### ${c.id}. ${c.claim} — ${verdict(c.held)}`);
    out.push('');
    out.push(`Paper: ${c.paper}. Rule: ${c.rule}. ${c.note.charAt(0).toUpperCase()}${c.note.slice(1)}.`);
    out.push('');
    out.push('| env | ours | verdict |');
    out.push('| --- | --- | --- |');
    for (const d of c.details) out.push(`| ${String(d.env)} | ${cell(String(d.ours))} | ${verdict(d.held as boolean | null)} |`);
  }
  out.push('');
  out.push('## Every cell');
  out.push('');
  out.push('Mean ± sd over seeds of each run’s figures (definitions below).');
  out.push('');
  out.push(variantTable(s.runs));
  out.push('');
  out.push('## Charts');
  out.push('');
  for (const f of figures) {
    out.push(`![${f.caption}](${f.name}.svg)`);
    out.push('');
  }
  out.push('## Budget and settings');
  out.push('');
  out.push('Every run, of every method and ablation, has the same budget and hyperparameters; ablations are BEACON plus one override (src/config.ts `ABLATIONS`).');
  out.push('');
  out.push('| setting | value |');
  out.push('| --- | --- |');
  for (const [k, v] of Object.entries(s.budget)) out.push(`| ${k} | ${v} (study budget) |`);
  for (const [k, v] of Object.entries(s.hyperparameters)) if (!(k in s.budget)) out.push(`| ${k} | ${String(v)} |`);
  if (budgetNotes.length) {
    out.push('');
    for (const n of budgetNotes) out.push(`- ${n}`);
  }
  out.push('');
  out.push('## Definitions');
  out.push('');
  for (const [k, v] of Object.entries(s.definitions)) out.push(`- **${k}**: ${v}`);
  out.push('');
  out.push('## What we think explains the failed claims');
  out.push('');
  out.push(analysis?.trim() || '_Not written yet: analysis.md beside this file is written by hand after reading the results._');
  out.push('');
  return out.join('\n');
}
