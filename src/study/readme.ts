/**
 * The study's README, generated from its document (report.ts). The generated text only states figures
 * and the fixed rules; what we think explains a result is written by hand, after reading the results, in
 * analysis.md beside it, and included verbatim.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import type { NamedFigure } from './charts.ts';
import type { CellSummary, ClaimRecord } from './confirmatory-types.ts';
import { HORIZON_ORDER } from './matrix.ts';
import { DEFINITIONS, type StudyDocument } from './report.ts';
import { BOUND_RULE, boundOf, type CellBound, type ClaimBound, studyBounds } from './seed-bounds.ts';
import { meanSd, medianIters, selectRuns, type RunResult } from './summary.ts';
import { VARIANT_NAMES, variantLabel, variantSpec, type VariantName } from './variants.ts';

const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(100 * x).toFixed(0)}%`);
const num = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? 'n/a' : x.toFixed(d));
const cell = (s: string) => s.replace(/\|/g, '\\|');
const kilo = (x: number) => (x >= 10000 ? `${(x / 1000).toFixed(0)}k` : String(Math.round(x)));

function medianOrNever(xs: (number | null)[]): string {
  const m = medianIters(xs);
  return m === null ? 'n/a' : Number.isFinite(m) ? String(m) : 'never';
}

const envsOf = (runs: readonly RunResult[]) => [...new Set(runs.map((r) => r.env))].sort() as EnvName[];
const horizonsOf = (runs: readonly RunResult[]) =>
  [...new Set(runs.filter((r) => r.ablation === null).map((r) => r.horizon))].sort((a, b) => HORIZON_ORDER[a] - HORIZON_ORDER[b]);

/** The paper's ALFWorld figures for the methods it reports (BEACON.md §6), by variant. */
const PAPER_FIGURES: Partial<Record<VariantName, { all: string; long: string }>> = {
  grpo: { all: '72.8', long: '53.5' },
  beacon: { all: '91.4', long: '92.9' },
  sft: { all: '43', long: '—' },
  gamma1: { all: '71.8', long: '—' },
  gamma0: { all: '81.2', long: '—' },
  randomSegments: { all: '74.2', long: '—' },
  milestoneDropout: { all: '82.8', long: '—' },
  noTrajectoryTerm: { all: '23.4', long: '—' },
};

/** "Paper vs ours", laid out like the paper's main table: methods × horizons, both environments. */
function paperTable(runs: readonly RunResult[]): string {
  const envs = envsOf(runs);
  const horizons = horizonsOf(runs);
  const cols = envs.flatMap((env) => horizons.map((h) => `${env} ${h}`));
  const rows = [`| method | paper: ALFWorld all | paper: ALFWorld long | ${cols.join(' | ')} |`, `| --- | --- | --- | ${cols.map(() => '---').join(' | ')} |`];
  for (const v of VARIANT_NAMES.filter((n) =>
    runs.some((r) => r.variant === n && r.ablation === null && horizons.includes(r.horizon) && runs.some((q) => q.variant === n && q.horizon !== 'long')),
  )) {
    const paper = PAPER_FIGURES[v];
    const ours = envs.flatMap((env) =>
      horizons.map((h) => {
        const s = meanSd(selectRuns(runs, { env, horizon: h, variant: v }).map((r) => r.finalSuccess));
        return s.mean === null ? '—' : `${(100 * s.mean).toFixed(1)} ± ${(100 * (s.sd ?? 0)).toFixed(1)}`;
      }),
    );
    rows.push(`| ${variantLabel(v)} | ${paper?.all ?? '—'} | ${paper?.long ?? '—'} | ${ours.join(' | ')} |`);
  }
  return rows.join('\n');
}

/** Per-method cost on the ablation horizon, and the whole matrix's worker time per method. */
function costTable(runs: readonly RunResult[], horizon: Horizon): string {
  const rows = [
    '| env | method | iterations | env steps used | s / iteration | rollout | advantage | update | critic | learning | worker time, all horizons |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const env of envsOf(runs)) {
    for (const v of VARIANT_NAMES.filter((n) => variantSpec(n).ablation === null && selectRuns(runs, { env, horizon, variant: n }).length > 0)) {
      const sel = selectRuns(runs, { env, horizon, variant: v });
      const m = (f: (r: RunResult) => number | null) => meanSd(sel.map(f)).mean;
      const perKilo = (k: 'rollout' | 'advantage' | 'update' | 'critic') => m((r) => (r.cost && r.envSteps ? (r.cost[k] / r.envSteps) * 1000 : null));
      const all = selectRuns(runs, { env, variant: v }).reduce((a, r) => a + r.seconds, 0);
      rows.push(
        `| ${env} | ${variantLabel(v)} | ${num(
          m((r) => r.iterations),
          0,
        )} | ${kilo(m((r) => r.envSteps) ?? 0)} | ${num(m((r) => r.secondsPerIteration))} | ${num(perKilo('rollout'), 0)} | ${num(perKilo('advantage'), 1)} | ${num(perKilo('update'), 0)} | ${num(perKilo('critic'), 0)} | ${num(
          m((r) => r.learnMsPerKiloStep),
          0,
        )} | ${(all / 60).toFixed(1)} min |`,
      );
    }
  }
  return rows.join('\n');
}

function variantTable(runs: readonly RunResult[]): string {
  const rows: string[] = [
    '| env | horizon | variant | seeds | start | final success | iters to 60% (median) | steps used | utilisation | zero-advantage | contradictory (peak) | signal retention | CCR |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const keys = new Map<string, RunResult>();
  for (const r of runs) keys.set(`${r.env}|${r.horizon}|${r.variant}`, r);
  const sorted = [...keys.values()].sort(
    (a, b) =>
      a.env.localeCompare(b.env) || HORIZON_ORDER[a.horizon] - HORIZON_ORDER[b.horizon] || VARIANT_NAMES.indexOf(a.variant) - VARIANT_NAMES.indexOf(b.variant),
  );
  for (const k of sorted) {
    const sel = selectRuns(runs, { env: k.env, horizon: k.horizon, variant: k.variant });
    const m = (f: (r: RunResult) => number | null) => meanSd(sel.map(f));
    const fs = m((r) => r.finalSuccess);
    rows.push(
      `| ${k.env} | ${k.horizon} | ${variantLabel(k.variant)} | ${sel.length} | ${pct(m((r) => r.start?.success ?? null).mean)} | ${pct(fs.mean)} ± ${pct(fs.sd)} | ${medianOrNever(sel.map((r) => r.itersTo60))} | ${kilo(m((r) => r.envSteps).mean ?? 0)} | ${pct(m((r) => r.sampleUtilization).mean)} | ${pct(m((r) => r.zeroAdvantageRatio).mean)} | ${pct(m((r) => r.contradictoryRatio).mean)} (${pct(m((r) => r.contradictoryPeak).mean)}) | ${pct(m((r) => r.signalRetention).mean)} | ${num(m((r) => r.ccr).mean)} |`,
    );
  }
  return rows.join('\n');
}

export interface ReadmeInput {
  study: StudyDocument;
  figures: readonly NamedFigure[];
  /** Hand-written analysis (analysis.md), or null if not written yet. */
  analysis: string | null;
  /** How the budget was chosen, one line each (profile.ts documents the same). */
  budgetNotes: readonly string[];
  /** The folder the README is written to, from the repository root (the profile's outDir): its links are relative to it. */
  dir: string;
}

/**
 * `path` (from the repository root) as a relative link from a file in `dir`: docs/results/preregistration.md
 * is preregistration.md from docs/results and ../preregistration.md from docs/results/shop-pilot.
 */
export function linkFrom(dir: string, path: string): string {
  const from = dir.split('/').filter((p) => p !== '' && p !== '.');
  const to = path.split('/').filter((p) => p !== '' && p !== '.');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => '..'), ...to.slice(common)].join('/');
}

const ci = (c: [number, number] | null, f: (x: number) => string) => (c ? `[${f(c[0])}, ${f(c[1])}]` : '');
const signed = (x: number, d = 3) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(d)}`;
const pValue = (p: number | null) => (p === null ? '—' : p < 0.001 ? p.toExponential(1) : p.toFixed(3));
const claimVerdict = (c: ClaimRecord) => (c.held === null ? 'untestable' : c.held ? '**held**' : '**not held**');
/** The verdict, and beside it whether it rests on runs at a floor or a ceiling (seed-bounds.ts). */
const verdictWithBound = (c: ClaimRecord, bounds: readonly ClaimBound[]) => {
  const note = boundOf(bounds, c)?.note;
  return note ? `${claimVerdict(c)} (${note})` : claimVerdict(c);
};

/** Effect and interval in the claim's own unit (AUC, fractions, or env steps). */
function effectText(c: ClaimRecord): string {
  if (c.effect === null) return '—';
  const f = Math.abs(c.effect) >= 100 ? (x: number) => kilo(x) : (x: number) => signed(x);
  return `${f(c.effect)} ${ci(c.ci, f)}`;
}

function claimRow(c: ClaimRecord, bounds: readonly ClaimBound[]): string {
  const p = c.tests.length ? c.tests.map((t) => `${pValue(t.p)} (${pValue(t.pAdjusted)})`).join('; ') : '—';
  const where = [c.env, c.horizon].filter((x) => x !== null).join(' ');
  return `| ${c.id} | ${where || 'all'} | ${cell(c.claim)} | ${c.endpoint} | ${effectText(c)} | ${p} | ${cell(verdictWithBound(c, bounds))}${c.untestable ? `: ${cell(c.untestable)}` : ''} |`;
}

const count = (cs: readonly ClaimRecord[], held: boolean | null) => cs.filter((c) => c.held === held).length;

/**
 * Per env: AUC, steps to 60% and final success with their intervals, failures to start, and the seeds at
 * the floor and at the ceiling (seed-bounds.ts), by variant and horizon.
 */
function cellTable(cells: readonly CellSummary[], env: EnvName, bounds: readonly CellBound[]): string {
  const rows = [
    '| horizon | method | seeds | AUC [95% CI] | env steps to 60% [95% CI] (never) | final success [95% CI] | failures to start | at the floor | at the ceiling |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const bound = (c: CellSummary) => bounds.find((b) => b.env === c.env && b.horizon === c.horizon && b.variant === c.variant);
  const share = (n: number | undefined, of: number | undefined) => (n === undefined || !of ? '—' : `${n} / ${of}`);
  const p = (x: number) => `${(100 * x).toFixed(0)}%`;
  for (const c of cells
    .filter((x) => x.env === env)
    .sort(
      (a, b) =>
        HORIZON_ORDER[a.horizon] - HORIZON_ORDER[b.horizon] ||
        VARIANT_NAMES.indexOf(a.variant as VariantName) - VARIANT_NAMES.indexOf(b.variant as VariantName),
    ))
    rows.push(
      `| ${c.horizon} | ${c.label} | ${c.seeds.length} | ${c.auc.mean.toFixed(3)} ${ci(c.auc.ci, (x) => x.toFixed(3))} | ${kilo(c.stepsTo60.mean)} ${ci(c.stepsTo60.ci, kilo)} (${c.never60}) | ${p(c.finalSuccess.mean)} ${ci(c.finalSuccess.ci, p)} | ${c.failures} | ${share(bound(c)?.floor, bound(c)?.seeds)} | ${share(bound(c)?.ceiling, bound(c)?.seeds)} |`,
    );
  return rows.join('\n');
}

export function renderReadme({ study, figures, analysis, budgetNotes, dir }: ReadmeInput): string {
  const s = study;
  const empirical = s.claims.filter((c) => c.kind === 'empirical');
  const identities = s.claims.filter((c) => c.kind === 'identity');
  const bounds = studyBounds(s);
  const out: string[] = [];
  const push = (...lines: string[]) => out.push(...lines);
  push(
    '# Study v3: the paper’s claims, pre-registered, in Beacon Live',
    '',
    '<!-- Generated by `npm run study` from study.json: edit analysis.md, not this file. -->',
    '',
  );
  if (s.profile !== 'full') push(`> **${s.profile} profile: ${s.purpose}.** These are not the study’s results; see docs/results/README.md.`, '');
  push(`- Command: \`${s.command}\``);
  push(`- Commit: \`${s.commit}\` (a clean working tree)`);
  if (s.preregistration) {
    const pr = s.preregistration;
    push(
      `- Pre-registration: [${linkFrom(dir, pr.path)}](${linkFrom(dir, pr.path)}), committed at \`${pr.commit}\`${pr.amendments.length ? `; amendments: ${pr.amendments.map((a) => `${a.title} (\`${a.commit.slice(0, 12)}\`, ${a.runsAfterIt} of ${s.runs.length} runs after it)`).join('; ')}` : ''}. Every run’s commit comes after the pre-registration: **${pr.runsAfter ? 'yes' : 'no'}**.`,
    );
  } else push('- Pre-registration: not found in the git history (the document was written outside the repository)');
  if (s.runCommits.length > 1 || (s.runCommits.length === 1 && s.runCommits[0] !== s.commit))
    push(`- Runs trained at: ${s.runCommits.map((c) => `\`${c}\``).join(', ')}`);
  push(
    `- Finished: ${s.finishedAt}; ${s.shards > 1 ? `${s.shards} shards, the longest` : 'this invocation'} ${(s.wallSeconds / 60).toFixed(1)} min wall with ${s.workers} workers; all runs together ${(s.runSeconds / 60).toFixed(1)} min of worker time`,
  );
  push(`- Runs: ${s.runs.length} (${s.seeds} seeds per cell), wasm backend, one worker thread per run at a time`);
  push(
    `- Empirical claims: ${count(empirical, true)} held, ${count(empirical, false)} not held, ${count(empirical, null)} untestable (of ${empirical.length} records: one per claim and environment); identities apart (${identities.length})`,
  );
  push(
    '',
    '## Claims',
    '',
    `Tests: ${DEFINITIONS['paired test']}. Family T is descriptive: the paper’s threshold as written, on our definition (docs/results/preregistration.md).`,
    '',
  );
  push('| id | where | claim | endpoint | effect [95% CI] | p (Holm) | verdict |', '| --- | --- | --- | --- | --- | --- | --- |');
  for (const c of empirical) push(claimRow(c, bounds.claims));
  push('', '### Each claim', '');
  for (const c of empirical)
    push(
      `- **${c.id}${c.env ? ` ${c.env}` : ''}${c.horizon ? ` ${c.horizon}` : ''}** — ${verdictWithBound(c, bounds.claims)}. Paper: ${c.paper}. Ours: ${c.ours}. Rule: ${c.rule}.`,
    );
  push('', '## Identities (checked, not counted as claims)', '', '| id | where | identity | value | verdict |', '| --- | --- | --- | --- | --- |');
  for (const c of identities)
    push(`| ${c.id} | ${c.env ?? 'all'} | ${cell(c.claim)} | ${c.effect === null ? '—' : c.effect.toExponential(2)} | ${claimVerdict(c)} |`);
  push(
    '',
    '## Whole-seed failures',
    '',
    'Runs that never started (their last-5 mean success never rose 0.10 above iteration 0’s). Every test includes them; the cell tables show means with them, and the results view without them too.',
    '',
    `Floors and ceilings (the cell tables’ last two columns, and the note beside a verdict): ${BOUND_RULE}.`,
    '',
  );
  const failed = s.failures.filter((f) => f.failures > 0);
  if (failed.length === 0) push('None.');
  else {
    push('| env | horizon | method | failures / runs |', '| --- | --- | --- | --- |');
    for (const f of failed) push(`| ${f.env} | ${f.horizon} | ${variantLabel(f.variant as VariantName)} | ${f.failures} / ${f.runs} |`);
  }
  for (const env of envsOf(s.runs)) push('', `## ${env}: every cell`, '', cellTable(s.cells, env, bounds.cells));
  push(
    '',
    '## Paper vs ours',
    '',
    `Final success (%, mean ± sd over ${s.seeds} seeds) at the same env-step budget. The paper's columns are its ALFWorld figures (Qwen 1.5B; "long": its long-task split), where BEACON.md gives one.`,
    '',
    paperTable(s.runs),
  );
  push(
    '',
    '## Cost per method',
    '',
    `On the long horizon, mean over seeds; the split columns are ms per 1000 env steps; "learning" is advantage + update + critic; the last column sums each method's runs over every horizon. Measured on a shared 2-core machine, so wall times carry its load.`,
    '',
    costTable(s.runs, 'long'),
  );
  push('', '## Every cell', '', 'Mean ± sd over seeds of each run’s figures (definitions below).', '', variantTable(s.runs));
  push('', '## Charts', '');
  for (const f of figures) push(`![${f.caption}](${f.name}.svg)`, '');
  push('## Budget and settings', '');
  push(
    `Every run has the same env-step budget in its (env, horizon) cell and the same shared hyperparameters; a variant differs from its method only by its overrides (src/study/variants.ts), and an ablation is BEACON plus one override (src/config.ts \`ABLATIONS\`). Every method of a seed starts from the same SFT prior (\`sftEpisodes: auto\`) and sees the same task stream.`,
    '',
  );
  push(
    '| env | ' + Object.keys(Object.values(s.envStepBudgets)[0] ?? {}).join(' | ') + ' |',
    '| --- | ' +
      Object.keys(Object.values(s.envStepBudgets)[0] ?? {})
        .map(() => '---')
        .join(' | ') +
      ' |',
  );
  for (const [env, b] of Object.entries(s.envStepBudgets))
    push(
      `| ${env} env-step budget | ${Object.values(b)
        .map((x) => String(x))
        .join(' | ')} |`,
    );
  push('', '| variant | method | overrides |', '| --- | --- | --- |');
  for (const v of s.variants)
    push(
      `| ${v.label} | ${v.method} | ${
        Object.keys(v.overrides).length
          ? cell(
              Object.entries(v.overrides)
                .map(([k, x]) => `${k} = ${String(x)}`)
                .join(', '),
            )
          : '—'
      } |`,
    );
  push('', '| setting | value |', '| --- | --- |');
  for (const [k, v] of Object.entries(s.budget)) push(`| ${k} | ${v} (study budget) |`);
  for (const [k, v] of Object.entries(s.hyperparameters)) if (!(k in s.budget)) push(`| ${k} | ${String(v)} |`);
  if (budgetNotes.length) {
    push('');
    for (const n of budgetNotes) push(`- ${n}`);
  }
  push('', '## Definitions', '');
  for (const [k, v] of Object.entries(s.definitions)) push(`- **${k}**: ${v}`);
  push('', '## Running it', '');
  push(
    '`npm run study` trains every run of the matrix on one machine (resumable: finished runs are kept under `runs/`). The same study spreads over many machines as an array job: each task trains one shard and writes `shards/shard-I-of-N.json`; `npm run study -- merge` checks that the shards cover every run exactly once and writes this document, exactly as one invocation would. With GNU parallel, four shards of one worker each:',
    '',
  );
  push(
    '```sh',
    `parallel --jobs 4 --halt now,fail=1 npm run study -- --shard {}/4 --workers 1${s.profile === 'quick' ? ' --quick' : ''} ::: 1 2 3 4`,
    `npm run study -- merge${s.profile === 'quick' ? ' --quick' : ''}`,
    '```',
    '',
  );
  push(
    '(A Slurm job array does the same with `--shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT` and `#SBATCH --array=1-N`; copy every `shards/*.json` into one checkout before merging.)',
  );
  push('', '## What it shows, what it does not, and what we think explains it', '');
  push(analysis?.trim() || '_Not written yet: analysis.md beside this file is written by hand after reading the results._', '');
  return out.join('\n');
}
