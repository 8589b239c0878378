/**
 * `npx tsx scripts/pilot-budgets.ts [docs/results/shop-pilot/study.json] [--check docs/results/study.json]`:
 * the pre-registration's budget rule (src/study/pilot-budget.ts) applied to a study document's GRPO runs,
 * one line per (env, horizon): final success, where half of it was reached, and the limitIterations it
 * gives. Used for the shop pilot's amendment, and on study v2's document to show how the rule's
 * computation compares with the pre-registered household budgets.
 */
import { readFileSync } from 'node:fs';
import { pilotBudget } from '../src/study/pilot-budget.ts';
import { stepLimit } from '../src/study/matrix.ts';
import type { EnvName, Horizon } from '../envs/index.ts';

const file = process.argv[2] ?? 'docs/results/shop-pilot/study.json';
const doc = JSON.parse(readFileSync(file, 'utf8')) as {
  budget: { tasksPerIteration: number; groupSize: number };
  runs: { env: EnvName; horizon: Horizon; variant: string; curves: { success: (number | null)[]; envSteps: (number | null)[] } }[];
};
const cells = [...new Set(doc.runs.filter((r) => r.variant === 'grpo').map((r) => `${r.env}|${r.horizon}`))];
for (const cell of cells) {
  const [env, horizon] = cell.split('|') as [EnvName, Horizon];
  const curves = doc.runs.filter((r) => r.variant === 'grpo' && r.env === env && r.horizon === horizon).map((r) => r.curves);
  const full = doc.budget.tasksPerIteration * doc.budget.groupSize * stepLimit(env, horizon);
  const b = pilotBudget(curves, full, 8);
  process.stdout.write(
    `${env} ${horizon}: ${curves.length} seeds, final ${(100 * b.final).toFixed(1)}%, half reached at ${b.halfReachedAt === null ? 'never' : Math.round(b.halfReachedAt)} env steps → limitIterations ${b.limitIterations} (${b.limitIterations * full} env steps)\n`,
  );
}
