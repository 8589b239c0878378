/**
 * Two readings the pre-registered study leaves open, computed from the same runs as the claims:
 *
 * - **The AUC as written and as coded** (docs/maths.md §11): the claims use the area as coded (over the
 *   budget less iteration 0's steps, unused steps counted at the run's last-5 success); the
 *   pre-registration's sentence, read literally, divides by the whole budget and counts unused steps at 0.
 *   Every AUC claim is evaluated under both readings and the claims whose verdict differs are marked.
 * - **Equal env steps are not equal updates**: a method whose episodes end sooner runs more iterations,
 *   so more PPO updates, within the same env-step budget. For each long cell, the mean success against
 *   iterations up to the last iteration every run of the environment's PPO-update methods reached, the
 *   mean iterations each ran, and each method's last-5 success at that common iteration.
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import { evaluateConfirmatoryClaims } from './confirmatory-claims.ts';
import { bootstrapMeanCI } from './confirmatory-stats.ts';
import type { ClaimRecord, MeanWithInterval } from './confirmatory-types.ts';
import { labelOf, StudyCells, type CellBudgets, type StudyRun } from './study-cells.ts';
import { finalSuccess } from './summary.ts';
import { releasedVariantFor, variantSpec, type VariantName } from './variants.ts';

/** One AUC claim's verdict under both readings. */
export interface AucReading {
  id: string;
  env: EnvName | null;
  horizon: Horizon | null;
  claim: string;
  asCoded: { effect: number | null; ci: [number, number] | null; held: boolean | null };
  asWritten: { effect: number | null; ci: [number, number] | null; held: boolean | null };
  /** True when the two readings give different verdicts. */
  differs: boolean;
}

export interface AucReadings {
  asCoded: string;
  asWritten: string;
  claims: AucReading[];
}

export const AUC_AS_CODED =
  'Σ_{i≥1} s_i·n_i over B − n_0 (the budget less iteration 0’s steps), the last iteration clipped, unused steps counted at the run’s last-5 success (0 after a stop): docs/maths.md §11, used by every claim';
export const AUC_AS_WRITTEN =
  'Σ_{i≥1} s_i·n_i over the whole budget B, the last iteration clipped, unused steps counted at 0: the pre-registration’s sentence read literally';

const verdict = (c: ClaimRecord) => ({ effect: c.effect, ci: c.ci, held: c.held });
const claimKey = (c: ClaimRecord) => `${c.id}|${c.env ?? ''}|${c.horizon ?? ''}`;

/** Every AUC claim of `coded` (the claims as the study reports them) beside the same claim under the literal reading. */
export function aucReadings(runs: readonly StudyRun[], budgets: CellBudgets, coded: readonly ClaimRecord[]): AucReadings {
  const written = new Map(evaluateConfirmatoryClaims(new StudyCells(runs, budgets, 'asWritten')).map((c) => [claimKey(c), c]));
  const claims = coded
    .filter((c) => c.endpoint === 'auc' && c.kind === 'empirical')
    .map((c) => {
      const w = written.get(claimKey(c));
      if (!w) throw new RangeError(`claim ${claimKey(c)} has no record under the written AUC`);
      return { id: c.id, env: c.env, horizon: c.horizon, claim: c.claim, asCoded: verdict(c), asWritten: verdict(w), differs: c.held !== w.held };
    });
  return { asCoded: AUC_AS_CODED, asWritten: AUC_AS_WRITTEN, claims };
}

/** One method of a long cell at equal updates. */
export interface EqualUpdatesVariant {
  variant: string;
  label: string;
  /** Mean over seeds of the iterations the run trained (iteration 0 not counted). */
  meanIterations: number;
  /** Mean over seeds of each run's last-5 success ending at the common iteration, with its bootstrap interval. */
  successAtCommon: MeanWithInterval;
  /** Mean success over every seed at iterations 0 … common (every run has each). */
  curve: number[];
}

export interface EqualUpdatesCell {
  env: EnvName;
  horizon: Horizon;
  /** PPO updates (epochs × minibatches) per iteration, the same for every method compared. */
  updatesPerIteration: number;
  /** The last iteration that every run of every compared method reached. */
  commonIterations: number;
  variants: EqualUpdatesVariant[];
}

/** The methods compared at equal updates: the charts' main methods that train by the PPO update (SFT does not). */
export function equalUpdateVariants(env: string): VariantName[] {
  return (['grpo', 'beacon', releasedVariantFor(env), 'gigpo', 'ppo', 'ppoShaped'] as VariantName[]).filter((v) => variantSpec(v).method !== 'sft');
}

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;

/** Success against iterations (so PPO updates) for every environment's `horizon` cell. */
export function equalUpdates(cells: StudyCells, horizon: Horizon, updatesPerIteration: number): EqualUpdatesCell[] {
  const envs = [...new Set(cells.list().map((c) => c.env))];
  const out: EqualUpdatesCell[] = [];
  for (const env of envs) {
    const present = equalUpdateVariants(env)
      .map((v) => ({ v, runs: cells.get(env, horizon, v) }))
      .filter((x) => x.runs.length > 0);
    if (present.length === 0) continue;
    const lengths = present.flatMap((x) => x.runs.map((r) => r.run.curves.success.length));
    const common = Math.min(...lengths) - 1;
    out.push({
      env,
      horizon,
      updatesPerIteration,
      commonIterations: common,
      variants: present.map(({ v, runs }) => {
        const successes = runs.map((r) => r.run.curves.success.slice(0, common + 1).map((x) => x ?? 0));
        const atCommon = successes.map((s) => finalSuccess(s));
        return {
          variant: v,
          label: labelOf(v),
          meanIterations: mean(runs.map((r) => r.run.curves.success.length - 1)),
          successAtCommon: { mean: mean(atCommon), ci: bootstrapMeanCI(atCommon), n: atCommon.length },
          curve: Array.from({ length: common + 1 }, (_, i) => mean(successes.map((s) => s[i]))),
        };
      }),
    });
  }
  return out;
}
