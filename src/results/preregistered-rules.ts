/**
 * The decision rules the pre-registration fixes (docs/results/preregistration.md, "Tests", and its
 * machine-readable block), read from that file itself so the page draws each claim's interval against
 * the same minimal effect or equivalence margin the study applied, and never a copy that could drift.
 */
import type { ClaimRecord } from '../study/confirmatory-types.ts';

export interface PreregisteredRules {
  /** Minimal effect of interest for "A beats B": AUC in 0…1, steps to 60% as a fraction of the cell's budget. */
  minimalEffect: { auc: number; stepsTo60Fraction: number };
  /** TOST margin for "A agrees with B", in the same units. */
  equivalenceMargin: { auc: number; stepsTo60Fraction: number };
  alpha: number;
}

/** "0.10 x budget" → 0.1; a number stays a number. */
function budgetFraction(v: unknown, field: string): number {
  if (typeof v === 'number') return v;
  const m = typeof v === 'string' ? /^\s*([0-9.]+)\s*x\s*budget\s*$/.exec(v) : null;
  if (!m) throw new Error(`preregistration: ${field} must be a number or "<fraction> x budget"; got ${JSON.stringify(v)}`);
  return Number(m[1]);
}

function num(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`preregistration: ${field} must be a number; got ${JSON.stringify(v)}`);
  return v;
}

/** The rules of the ```json preregistration block of the pre-registration's Markdown. */
export function preregisteredRules(markdown: string): PreregisteredRules {
  const m = /```json preregistration\n([\s\S]*?)\n```/.exec(markdown);
  if (!m) throw new Error('preregistration: no ```json preregistration block');
  const tests = (JSON.parse(m[1]) as { tests?: Record<string, Record<string, unknown>> }).tests;
  if (!tests?.minimalEffect || !tests.equivalenceMargin) throw new Error('preregistration: tests.minimalEffect and tests.equivalenceMargin are required');
  return {
    minimalEffect: {
      auc: num(tests.minimalEffect.auc, 'tests.minimalEffect.auc'),
      stepsTo60Fraction: budgetFraction(tests.minimalEffect.stepsTo60, 'tests.minimalEffect.stepsTo60'),
    },
    equivalenceMargin: {
      auc: num(tests.equivalenceMargin.auc, 'tests.equivalenceMargin.auc'),
      stepsTo60Fraction: budgetFraction(tests.equivalenceMargin.stepsTo60, 'tests.equivalenceMargin.stepsTo60'),
    },
    alpha: num(tests.alpha as unknown, 'tests.alpha'),
  };
}

/** What a claim's interval is drawn against, beside zero: the minimal effect (one side) or the margin (± both). */
export interface EffectReference {
  kind: 'minimal effect' | 'equivalence margin';
  value: number;
}

/** The families of paired tests: study v3's P and M, amendment 2's D, S and E (the same rules). */
const PAIRED_FAMILIES: readonly ClaimRecord['family'][] = ['P', 'M', 'D', 'S', 'E'];

/**
 * The reference lines of a paired claim (families P, M, D, S and E), from the decisions its rule names: "beats:"
 * (one-sided, at least the minimal effect) and "agrees:" (TOST within the margin); a claim of both (M4)
 * gets both. In steps to 60% the amount is a fraction of the budget of the cell judged (the long
 * horizon for per-environment claims). None for family T and identities (measured values, not
 * differences), for a rule that names neither decision, or for an endpoint without a threshold.
 */
export function effectReferences(
  claim: Pick<ClaimRecord, 'family' | 'kind' | 'endpoint' | 'rule' | 'env' | 'horizon'>,
  rules: PreregisteredRules,
  budgetOf: (env: string, horizon: string) => number | undefined,
): EffectReference[] {
  if (claim.kind !== 'empirical' || !PAIRED_FAMILIES.includes(claim.family)) return [];
  const kinds: { kind: EffectReference['kind']; set: PreregisteredRules['minimalEffect'] }[] = [];
  if (/\bbeats:/.test(claim.rule)) kinds.push({ kind: 'minimal effect', set: rules.minimalEffect });
  if (/\bagrees:/.test(claim.rule)) kinds.push({ kind: 'equivalence margin', set: rules.equivalenceMargin });
  return kinds.flatMap(({ kind, set }): EffectReference[] => {
    if (claim.endpoint === 'auc') return [{ kind, value: set.auc }];
    if (claim.endpoint !== 'stepsTo60' || !claim.env) return [];
    const budget = budgetOf(claim.env, claim.horizon ?? 'long');
    return budget === undefined ? [] : [{ kind, value: set.stepsTo60Fraction * budget }];
  });
}
