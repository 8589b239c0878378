/**
 * The detector study's claims, exactly as amendment 2 of docs/results/preregistration.md fixes them before
 * any of its runs: family D (a detector that lies, is gameable, fires late, is coarser or finer; BEACON as
 * the paper writes it), family S (a sloppy teacher), both confirmatory, and family E (the same questions
 * for the released BEACON and shaped-reward PPO, and the careful teacher: secondary, reported but not
 * headline). Each is judged by study v3's rules (claim-tests.ts): paired by seed, bootstrap interval, exact
 * sign-flip p (TOST for "agrees"), Holm within the family, minimal effect 0.03 AUC, margin ±0.05 AUC. The
 * reference arms (GRPO, BEACON, SFT, … with the task detector and an exact teacher) are study v3's runs of
 * the same seed. All on the long horizon, per environment. A claim whose arms have not run is untestable
 * with the reason "no runs yet", never failed.
 */
import { ENV_NAMES, type EnvName, type Horizon } from '../../envs/index.ts';
import { aucDiff, cellMean, combineBySeed, mean, type Paired } from './claim-cells.ts';
import { type ClaimText, f2, signed } from './claim-texts.ts';
import { adjustFamily, contrastClaim, MARGIN_AUC, MIN_EFFECT_AUC, type PendingClaim, ruleText, singleComparison, untestable } from './claim-tests.ts';
import type { ClaimRecord } from './confirmatory-types.ts';
import {
  type DetectorBase,
  detectorArm,
  type DetectorSetting,
  DETECTOR_SETTINGS,
  MILESTONE_DELAY,
  MILESTONE_STRIDE,
  TEACHER_SETTINGS,
  type TeacherSetting,
} from './detector-variants.ts';
import { labelOf, type StudyCells } from './study-cells.ts';
import { releasedVariantFor, type VariantName } from './variants.ts';

const LONG: Horizon = 'long';
/** The share of the reference arm's AUC gain over GRPO a "keeps half its gain" claim asks for. */
export const GAIN_KEPT = 0.5;
export const NO_RUNS_YET = 'no runs yet';

const setting = (s: DetectorSetting) => DETECTOR_SETTINGS[s].label;
const teacher = (s: TeacherSetting) => TEACHER_SETTINGS[s].label;
const PAPER_FA = 'not tested in the paper (its one test of Φ drops half the milestones: 82.8% against GRPO’s 72.8% on ALFWorld)';
const PAPER_LIMIT = 'the paper names milestone granularity as a limit, untested (too sparse becomes GRPO, too dense makes segment advantages noisy)';

/**
 * The detector claims' words for one base (`who` names it in the sentence), numbered from `first`; the
 * trajectory-term claim only for BEACON as the paper writes it (the baselines run no loose arm without it).
 */
function texts(family: 'D' | 'E', first: number, who: string, withTrajectory: boolean): Record<string, ClaimText> {
  const words: [string, string][] = [
    [`${who} keeps at least half its AUC gain over GRPO with ${setting('FalseAlarmsLow')} per step.`, PAPER_FA],
    [`${who} keeps at least half its AUC gain over GRPO with ${setting('FalseAlarmsHigh')} per step.`, PAPER_FA],
    [
      `${who} with the loose (gameable) detector beats GRPO.`,
      'not tested in the paper; its case for Φ is that Φ reads verifiable side effects, not the agent’s claim',
    ],
    ...(withTrajectory
      ? ([
          [
            'The trajectory term protects against a gameable detector: BEACON with the loose detector beats the same without the trajectory term.',
            'the paper’s lesson that checking each sub-task does not replace checking the result (§6 ablation, no trajectory term)',
          ],
        ] as [string, string][])
      : []),
    [`${who} keeps at least half its AUC gain over GRPO when Φ fires ${MILESTONE_DELAY} steps late.`, 'not tested in the paper'],
    [`${who} with milestone stride ${MILESTONE_STRIDE} (coarser segments: one milestone in ${MILESTONE_STRIDE} counts) still beats GRPO.`, PAPER_LIMIT],
    [`${who} with the fine detector agrees with ${lowerFirst(who)} with the task detector.`, PAPER_LIMIT],
  ];
  return Object.fromEntries(
    words.map(([claim, paper], i) => {
      const id = `${family}${first + i}`;
      return [id, { id, family, claim, paper, endpoint: 'auc' }];
    }),
  );
}

export const D_TEXT = texts('D', 1, 'BEACON', true);

export const S_TEXT = {
  S1: {
    id: 'S1',
    family: 'S',
    claim: `BEACON beats SFT when the teacher is sloppy (${teacher('Demo30')}; every method's SFT prior from the same teacher).`,
    paper: 'RL above the SFT baseline; study v3 found the opposite with an exact oracle (M3)',
    endpoint: 'auc',
  },
  S2: {
    id: 'S2',
    family: 'S',
    claim: `BEACON beats GRPO when the teacher is sloppy (${teacher('Demo30')}).`,
    paper: 'BEACON above GRPO (P1), here from a worse prior',
    endpoint: 'auc',
  },
} satisfies Record<string, ClaimText>;

/** The secondary family: E1–E6 the released BEACON, E7–E12 shaped-reward PPO, E13–E14 the careful teacher. */
export const E_TEXT: Record<string, ClaimText> = {
  ...texts('E', 1, 'The released BEACON', false),
  ...texts('E', 7, 'Shaped-reward PPO', false),
  E13: {
    id: 'E13',
    family: 'E',
    claim: `BEACON beats SFT with a careful teacher (${teacher('Demo10')}).`,
    paper: 'RL above the SFT baseline',
    endpoint: 'auc',
  },
  E14: { id: 'E14', family: 'E', claim: `BEACON beats GRPO with a careful teacher (${teacher('Demo10')}).`, paper: 'BEACON above GRPO (P1)', endpoint: 'auc' },
};

// ——— Claim construction ———

/** The claim's rule when one of its arms has not run (the same words the tested claim would carry). */
function untestableYet(t: ClaimText, env: EnvName, kind: 'beats' | 'agrees' | 'contrast', contrast = ''): PendingClaim {
  const rule =
    kind === 'agrees'
      ? ruleText('agrees', 'auc', MARGIN_AUC, null)
      : kind === 'beats'
        ? ruleText('beats', 'auc', MIN_EFFECT_AUC, null)
        : `${ruleText('beats', 'auc', MIN_EFFECT_AUC, null)} (the contrast ${contrast} > 0)`;
  return untestable(t, env, null, NO_RUNS_YET, rule);
}

const ran = (cells: StudyCells, env: EnvName, arms: readonly VariantName[]) => arms.every((a) => cells.get(env, LONG, a).length > 0);

/** "a beats b" (or agrees with it) on long tasks, untestable "no runs yet" while an amendment arm is absent. */
function compare(
  cells: StudyCells,
  t: ClaimText,
  env: EnvName,
  a: VariantName,
  b: VariantName,
  kind: 'beats' | 'agrees',
  arms: readonly VariantName[],
): PendingClaim {
  if (!ran(cells, env, arms)) return untestableYet(t, env, kind);
  return singleComparison(cells, t, env, { a, b, horizon: LONG }, kind, 'auc', false);
}

const scaled = (p: Paired, k: number): Paired => ({ seeds: p.seeds, diffs: p.diffs.map((d) => k * d) });

/**
 * "`arm` keeps at least half of `reference`'s AUC gain over GRPO": per seed (arm − GRPO) − ½ (reference −
 * GRPO) > 0, over the seeds all three ran. Where the reference gains little over GRPO, this asks the arm
 * to beat GRPO by about the minimal effect.
 */
function keepsHalfGain(cells: StudyCells, t: ClaimText, env: EnvName, arm: VariantName, reference: VariantName): PendingClaim {
  const la = labelOf(arm);
  const lr = labelOf(reference);
  const comparison = `(${la} − GRPO) − ${GAIN_KEPT} × (${lr} − GRPO)`;
  if (!ran(cells, env, [arm])) return untestableYet(t, env, 'contrast', comparison);
  const needs: [EnvName, Horizon, VariantName][] = [
    [env, LONG, arm],
    [env, LONG, reference],
    [env, LONG, 'grpo'],
  ];
  const build = () => combineBySeed(aucDiff(cells, env, LONG, arm, 'grpo'), scaled(aucDiff(cells, env, LONG, reference, 'grpo'), GAIN_KEPT));
  const auc = (v: VariantName) => f2(cellMean(cells.get(env, LONG, v), 'auc'));
  const lead = () => {
    const gain = mean(aucDiff(cells, env, LONG, reference, 'grpo').diffs);
    const kept = mean(aucDiff(cells, env, LONG, arm, 'grpo').diffs);
    return `${la} ${auc(arm)}, ${lr} ${auc(reference)}, GRPO ${auc('grpo')} AUC (long); gain over GRPO ${signed(kept, f2)} against ${signed(gain, f2)}`;
  };
  return contrastClaim(t, env, needs, cells, build, comparison, lead);
}

/** The detector claims of one base in one environment, in id order of `t` (D1–D7 or E's block). */
function detectorBlock(cells: StudyCells, env: EnvName, base: DetectorBase, reference: VariantName, t: readonly ClaimText[]): PendingClaim[] {
  const a = (s: DetectorSetting) => detectorArm(base, s);
  const [fa1, fa2, loose, ...rest] = t;
  const out = [
    keepsHalfGain(cells, fa1, env, a('FalseAlarmsLow'), reference),
    keepsHalfGain(cells, fa2, env, a('FalseAlarmsHigh'), reference),
    compare(cells, loose, env, a('Loose'), 'grpo', 'beats', [a('Loose')]),
  ];
  const trajectory = base === 'beacon' ? rest.shift() : undefined;
  const [delay, stride, fine] = rest;
  if (trajectory) out.push(compare(cells, trajectory, env, a('Loose'), a('LooseNoTrajectory'), 'beats', [a('Loose'), a('LooseNoTrajectory')]));
  out.push(
    keepsHalfGain(cells, delay, env, a('Delay'), reference),
    compare(cells, stride, env, a('Stride'), 'grpo', 'beats', [a('Stride')]),
    compare(cells, fine, env, a('Fine'), reference, 'agrees', [a('Fine')]),
  );
  return out;
}

function familyD(cells: StudyCells): PendingClaim[] {
  return ENV_NAMES.flatMap((env) => detectorBlock(cells, env, 'beacon', 'beacon', Object.values(D_TEXT)));
}

function familyS(cells: StudyCells): PendingClaim[] {
  const beacon = detectorArm('beacon', 'Demo30');
  return ENV_NAMES.flatMap((env) => [
    compare(cells, S_TEXT.S1, env, beacon, detectorArm('sft', 'Demo30'), 'beats', [beacon, detectorArm('sft', 'Demo30')]),
    compare(cells, S_TEXT.S2, env, beacon, detectorArm('grpo', 'Demo30'), 'beats', [beacon, detectorArm('grpo', 'Demo30')]),
  ]);
}

function familyE(cells: StudyCells): PendingClaim[] {
  const e = (ids: readonly number[]) => ids.map((i) => E_TEXT[`E${i}`]);
  const beacon = detectorArm('beacon', 'Demo10');
  return ENV_NAMES.flatMap((env) => {
    const released = releasedVariantFor(env) as DetectorBase;
    return [
      ...detectorBlock(cells, env, released, released, e([1, 2, 3, 4, 5, 6])),
      ...detectorBlock(cells, env, 'ppoShaped', 'ppoShaped', e([7, 8, 9, 10, 11, 12])),
      compare(cells, E_TEXT.E13, env, beacon, detectorArm('sft', 'Demo10'), 'beats', [beacon, detectorArm('sft', 'Demo10')]),
      compare(cells, E_TEXT.E14, env, beacon, detectorArm('grpo', 'Demo10'), 'beats', [beacon, detectorArm('grpo', 'Demo10')]),
    ];
  });
}

/** Families D, S and E, each adjusted by Holm over its own tests, in id then environment order. */
export function evaluateDetectorClaims(cells: StudyCells): ClaimRecord[] {
  const families = [familyD(cells), familyS(cells), familyE(cells)];
  const byId = (a: PendingClaim, b: PendingClaim) =>
    Number(a.record.id.slice(1)) - Number(b.record.id.slice(1)) || ENV_NAMES.indexOf(a.record.env as EnvName) - ENV_NAMES.indexOf(b.record.env as EnvName);
  return families.flatMap((f) => {
    adjustFamily(f);
    return f.sort(byId).map((c) => c.record);
  });
}

/** `who` inside a sentence: "The released BEACON" → "the released BEACON" (a name such as BEACON stays). */
function lowerFirst(who: string): string {
  return /^[A-Z][a-z]/.test(who) ? who[0].toLowerCase() + who.slice(1) : who;
}
