/**
 * The claims as the results page lists them: empirical claims grouped by the pre-registration's
 * families (P primary, M mechanism and baselines, T the paper's thresholds, descriptive; amendment 2's
 * D detector, S teacher and E secondary), identities
 * apart and never counted, and the count of verdicts over the empirical records (one record per claim
 * and environment, per cell for M8; docs/results/preregistration.md, "Claims").
 */
import type { ClaimFamily, ClaimRecord } from '../study/confirmatory-types.ts';
import { type Verdict, verdict } from './format.ts';

export interface ClaimGroup {
  /** P, M, T, D, S, E; '?' for a family the pre-registration does not name. */
  family: Exclude<ClaimFamily, 'I'> | '?';
  title: string;
  note: string;
  claims: ClaimRecord[];
}

const FAMILIES: readonly Omit<ClaimGroup, 'claims'>[] = [
  { family: 'P', title: 'P: primary claims', note: 'Paired by seed; Holm–Bonferroni over the family’s tests.' },
  { family: 'M', title: 'M: mechanism and baselines', note: 'Paired by seed; Holm–Bonferroni over the family’s tests.' },
  { family: 'T', title: 'T: the paper’s thresholds (descriptive)', note: 'Tested as written, with our definitions; no p-values.' },
  {
    family: 'D',
    title: 'D: the detector study (amendment 2)',
    note: 'BEACON when Φ lies, can be gamed, fires late, or is coarser or finer, against study v3’s GRPO and BEACON runs of the same seeds. Paired by seed; Holm–Bonferroni over the family’s tests.',
  },
  {
    family: 'S',
    title: 'S: a sloppy teacher (amendment 2)',
    note: 'Every method’s SFT prior, and SFT’s demonstrations, from a teacher that takes a random admissible action 30% of the time. Paired by seed; Holm–Bonferroni over the family’s tests.',
  },
  {
    family: 'E',
    title: 'E: the detector study’s secondary arms (amendment 2)',
    note: 'The released BEACON and shaped-reward PPO under the same detectors, and a careful (10%) teacher: pre-registered as secondary, run after the primary set. Paired by seed; Holm–Bonferroni over the family’s tests.',
  },
];

/** "P2" before "P10": ids compared with their numbers as numbers. */
function byId(a: ClaimRecord, b: ClaimRecord): number {
  return a.id.localeCompare(b.id, 'en', { numeric: true });
}

/** Empirical claims by family, in id order (records of one claim stay in the document's order). */
export function claimGroups(claims: readonly ClaimRecord[]): ClaimGroup[] {
  const empirical = claims.filter((c) => c.kind === 'empirical');
  const groups = FAMILIES.map((f) => ({ ...f, claims: empirical.filter((c) => c.family === f.family).sort(byId) }));
  // A record with a family the list above does not name still shows, in a group of its own, rather than vanishing.
  const other = empirical.filter((c) => !FAMILIES.some((f) => f.family === c.family));
  if (other.length) groups.push({ family: '?', title: 'Other claims', note: 'A family the pre-registration does not name.', claims: other.sort(byId) });
  return groups.filter((g) => g.claims.length > 0);
}

/** The identities (kind "identity"): shown in a section of their own, never among the held claims. */
export function identities(claims: readonly ClaimRecord[]): ClaimRecord[] {
  return claims.filter((c) => c.kind === 'identity').sort(byId);
}

export type VerdictCounts = Record<Verdict, number> & { total: number };

/** How many empirical records held, did not hold, or could not be tested. */
export function verdictCounts(claims: readonly ClaimRecord[]): VerdictCounts {
  const counts: VerdictCounts = { held: 0, 'not held': 0, untestable: 0, total: 0 };
  for (const c of claims) {
    if (c.kind !== 'empirical') continue;
    counts[verdict(c)]++;
    counts.total++;
  }
  return counts;
}

/** Where a record applies: "gridhouse", "shop, long", or "all environments". */
export function claimScope(c: Pick<ClaimRecord, 'env' | 'horizon'>): string {
  if (!c.env) return 'all environments';
  return c.horizon ? `${c.env}, ${c.horizon}` : c.env;
}
