/**
 * The study's summaries that are made from study.json rather than written by hand: the README's "What we
 * found" and the tour's measured sentences (src/page/study-findings.ts). Each cites the claim records it
 * states in the form the citation check reads (scripts/citations.ts): `ID (GridHouse: held, +0.43, 0.62
 * against 0.19; …)`, the effect and the two arms' mean AUCs to two decimals. The words that frame them
 * are fixed; every verdict, number and floor note comes from the document, so they move with the data.
 * `scripts/study-docs.ts` writes them; a test checks the committed text is what this gives.
 */
import type { CellSummary, ClaimRecord } from './confirmatory-types.ts';
import { type ClaimBound, claimArms, type StudyBounds } from './seed-bounds.ts';

/** What the summaries read of study.json, with the floors and ceilings derived from its runs. */
export interface FindingsInput {
  runs: readonly unknown[];
  seeds: number;
  cells: readonly CellSummary[];
  claims: readonly ClaimRecord[];
  bounds: StudyBounds;
}

export const ENV_ORDER = ['gridhouse', 'texthouse', 'shop'] as const;
export const ENV_TITLE: Record<string, string> = { gridhouse: 'GridHouse', texthouse: 'TextHouse', shop: 'shop' };

const f2 = (x: number) => x.toFixed(2);
const signed2 = (x: number) => `${x < 0 && f2(x) !== '-0.00' ? '−' : '+'}${f2(Math.abs(x))}`;
const thousands = (n: number) => n.toLocaleString('en-US');

export class Findings {
  constructor(readonly study: FindingsInput) {}

  records(id: string): ClaimRecord[] {
    const rs = this.study.claims.filter((c) => c.id === id && c.kind === 'empirical' && c.horizon === null);
    if (rs.length === 0) throw new RangeError(`study.json has no claim ${id}`);
    return ENV_ORDER.flatMap((e) => rs.filter((r) => r.env === e));
  }

  record(id: string, env: string): ClaimRecord {
    const r = this.records(id).find((c) => c.env === env);
    if (!r) throw new RangeError(`study.json has no claim ${id} in ${env}`);
    return r;
  }

  bound(c: ClaimRecord): ClaimBound | undefined {
    return this.study.bounds.claims.find((b) => b.id === c.id && b.env === c.env && b.horizon === c.horizon);
  }

  /** Mean AUC of a long cell. */
  auc(env: string, variant: string): number {
    const cell = this.study.cells.find((c) => c.env === env && c.horizon === 'long' && c.variant === variant);
    if (!cell) throw new RangeError(`study.json has no long ${env} cell of ${variant}`);
    return cell.auc.mean;
  }

  /** The two first arms' mean AUCs of a record ("0.62 against 0.19"). */
  arms(c: ClaimRecord): string {
    const [a, b] = claimArms(c, this.study.cells);
    return `${f2(this.auc(a.env, a.variant))} against ${f2(this.auc(b.env, b.variant))}`;
  }

  /** `ID (GridHouse: held, +0.43, 0.62 against 0.19; …)` over the environments given (all three by default). */
  cite(id: string, opts: { effect?: boolean; arms?: boolean; envs?: readonly string[] } = {}): string {
    const { effect = true, arms = true, envs = ENV_ORDER } = opts;
    const segments = this.records(id)
      .filter((c) => envs.includes(c.env as string))
      .map((c) => {
        const items = [c.held ? 'held' : 'not held'];
        if (effect && c.effect !== null) items.push(signed2(c.effect));
        if (arms) items.push(this.arms(c));
        if (this.bound(c)?.restsOn) items.push(`at the ${this.bound(c)?.restsOn}`);
        return `${ENV_TITLE[c.env as string]}: ${items.join(', ')}`;
      });
    return `${id} (${segments.join('; ')})`;
  }

  /** "GridHouse and TextHouse", or "no environment", from the records with the verdict asked. */
  where(id: string, held: boolean): string {
    const envs = this.records(id)
      .filter((c) => c.held === held)
      .map((c) => (c.env === 'shop' ? 'the shop' : ENV_TITLE[c.env as string]));
    return envs.length === 0 ? 'no environment' : envs.length === 1 ? envs[0] : `${envs.slice(0, -1).join(', ')} and ${envs.at(-1)}`;
  }

  count(families: readonly string[]): { held: number; all: number } {
    const rs = this.study.claims.filter((c) => c.kind === 'empirical' && families.includes(c.family));
    return { held: rs.filter((c) => c.held).length, all: rs.length };
  }

  /** "D4 (shop) rests on runs at the floor (…)" for each record of `id` in `env` that rests on a floor or a ceiling. */
  floorNotes(id: string, env: string): string[] {
    return this.records(id)
      .filter((c) => c.env === env)
      .flatMap((c) => {
        const note = this.bound(c)?.note;
        return note ? [`${id} (${ENV_TITLE[env]}) ${note}`] : [];
      });
  }

  /** The three long cells' mean AUCs of a variant, "0.49 / 0.45 / 0.06". */
  aucs(variant: string | ((env: string) => string)): string {
    return ENV_ORDER.map((e) => f2(this.auc(e, typeof variant === 'string' ? variant : variant(e)))).join(' / ');
  }
}

const HEADLINES: readonly [string, string][] = [
  ['P1', 'BEACON beats GRPO on long tasks'],
  ['P3', 'its gain grows from short to long tasks'],
  ['P4', 'BEACON beats shaped-reward PPO'],
  ['M3', 'BEACON beats SFT on oracle steps'],
  ['D1', 'BEACON keeps half its gain over GRPO with 2% false alarms per step'],
  ['D2', '… with 10% false alarms per step'],
  ['D5', '… when Φ fires 2 steps late'],
  ['D6', 'BEACON with half the milestones (stride 2) beats GRPO'],
  ['D3', 'BEACON with a gameable detector beats GRPO'],
  ['D4', 'the trajectory term protects against a gameable detector'],
  ['S1', 'BEACON beats SFT when the teacher is sloppy (30% random)'],
  ['S2', 'BEACON beats GRPO when the teacher is sloppy'],
];

/** The README's "What we found", between its markers (scripts/study-docs.ts puts it in place). */
export function whatWeFound(f: Findings): string {
  const v3 = f.count(['P', 'M', 'T']);
  const amendment = f.count(['D', 'S', 'E']);
  const cellText = (c: ClaimRecord) => {
    const floor = f.bound(c)?.restsOn ? ` (at the ${f.bound(c)?.restsOn})` : '';
    return `${c.held ? '**held**' : 'not held'} ${signed2(c.effect ?? 0)}${floor}`;
  };
  const rows = HEADLINES.map(([id, words]) => `| ${id} | ${words} | ${f.records(id).map(cellText).join(' | ')} |`);
  const floorNotes = ['D4', 'D7'].flatMap((id) => f.floorNotes(id, 'shop'));
  return [
    `Study v3, pre-registered: three environments × three horizons × seven methods, ${f.study.seeds} seeds per cell; then the detector study (amendment 2), ${thousands(f.study.runs.length)} runs in all. Long tasks; the effect is the paired difference in area under the success curve (AUC, 0 to 1), and a verdict is the pre-registered test's ([docs/study.md](docs/study.md); every claim, interval and rule: [docs/results/README.md](docs/results/README.md#claims)). ${v3.held} of ${v3.all} study v3 claim records held, and ${amendment.held} of ${amendment.all} of the detector study's.`,
    '',
    '| id | claim (long tasks, AUC) | GridHouse | TextHouse | shop |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `“At the floor” (“at the ceiling”): at least a third of an arm’s seeds stayed under 5% success over the whole budget (over 95% from its first quarter on), so the verdict says more about the budget than about the methods (the rule: [docs/results/README.md](docs/results/README.md#whole-seed-failures)). Two verdicts held in the shop rest on such runs: ${floorNotes.join('; ')}.`,
    '',
    `- **Not pre-registered:** at 10% false alarms per step BEACON kept ${f.aucs('beaconFalseAlarmsHigh')} AUC (GridHouse / TextHouse / shop) and shaped-reward PPO ${f.aucs('ppoShapedFalseAlarmsHigh')}. No registered test compares these two arms, and shaped PPO’s own detector claims (family E) are secondary.`,
    `- BEACON’s released config scores ${f.aucs((e) => (e === 'shop' ? 'beaconReleasedWebshop' : 'beaconReleased'))} AUC, SFT on oracle steps ${f.aucs('sft')}, GRPO ${f.aucs('grpo')}.`,
  ].join('\n');
}

/**
 * The tour's measured sentences, by scenario id (src/page/scenarios.ts appends each to its narrative):
 * every figure and verdict from study.json.
 */
export function tourFindings(f: Findings): Record<string, string> {
  const aboveZero = (id: string) =>
    f
      .records(id)
      .filter((c) => !c.held && c.ci && c.ci[0] > 0)
      .map((c) => ENV_TITLE[c.env as string]);
  const d3Above = aboveZero('D3');
  const noTrajectory = f.records('D4').map((c) => f.bound(c)?.arms.find((a) => a.variant === 'beaconLooseNoTrajectory'));
  return {
    'reward-shaping': `Study v3 measured it on long tasks (15 seeds): BEACON against shaped-reward PPO, ${f.cite('P4')}. Shaped-reward PPO matched or beat BEACON here: “credit assignment, not reward shaping” was not supported with an exact detector.`,
    'ccr-paradox': `Study v3 measured the CCR on long tasks (15 seeds): BEACON’s is below GiGPO’s in ${f.where('T3', true)} (T3 (${f
      .records('T3')
      .map((c) => `${ENV_TITLE[c.env as string]}: ${c.held ? 'held' : 'not held'}`)
      .join('; ')})), so the paradox holds in these tasks, though both ratios sit above 1, where the paper’s BEACON sits below it.`,
    'gameable-detector': `The detector study (long tasks, 15 seeds) measured it: with this detector BEACON was not shown to beat GRPO in any environment, ${f.cite('D3')}, where the task detector gave ${f.aucs('beacon')}.${d3Above.length ? ` In ${d3Above.join(' and ')} the interval lies above zero but the effect does not survive Holm: not shown, which is not the same as shown absent.` : ''}`,
    'gameable-detector-no-trajectory': `In the detector study this arm’s AUC on long tasks was ${f.aucs('beaconLooseNoTrajectory')} (GridHouse / TextHouse / shop; at the floor on ${noTrajectory.map((a) => `${a?.floor ?? 0} of ${a?.seeds ?? 0}`).join(', ')} seeds), and the trajectory term’s protection held: ${f.cite('D4')}.`,
    'coarse-milestones': `Measured on long tasks (15 seeds): it drifted, but still beat GRPO in ${f.where('D6', true)}: ${f.cite('D6')}; the task detector gave ${f.aucs('beacon')}.`,
    'fine-milestones': `Measured on long tasks (15 seeds), the finer detector against the task detector: ${f.cite('D7')}. Agreement within ±0.05 AUC held in ${f.where('D7', true)} and was not shown in ${f.where('D7', false)}.`,
    'sloppy-teacher': `What the detector study measured (long tasks, 15 seeds): SFT on the sloppy teacher still beat BEACON in ${f.where('S1', false)} and fell below it in ${f.where('S1', true)}, ${f.cite('S1')}; BEACON beat GRPO under the same teacher in ${f.where('S2', true)}, ${f.cite('S2')}. Not pre-registered: against the exact teacher, the sloppy one gave SFT ${f.aucs('sftDemo30')} AUC where it had ${f.aucs('sft')}, and BEACON ${f.aucs('beaconDemo30')} where it had ${f.aucs('beacon')}.`,
  };
}
