/**
 * What study v3's claims say (docs/results/preregistration.md): each claim's sentence, the paper's
 * figure it stands for and its endpoint, by family (P, M, T, I); the record a claim starts from before
 * any number; and how the `ours` and `rule` sentences write numbers. The tests and verdicts are in
 * confirmatory-claims.ts (families P and M) and descriptive-claims.ts (families T and I).
 */
import type { EnvName, Horizon } from '../../envs/index.ts';
import type { ClaimFamily, ClaimRecord } from './confirmatory-types.ts';

// ——— Formatting for the `ours` and `rule` sentences ———

/** An AUC or a CCR: two decimals. */
export const f2 = (x: number) => x.toFixed(2);
/** `fmt(x)` with its sign, '+' or '−'. */
export const signed = (x: number, fmt: (x: number) => string) => (x >= 0 ? `+${fmt(x)}` : `−${fmt(-x)}`);
/** Env steps: a whole number with thousands separators. */
export const steps = (x: number) => Math.round(x).toLocaleString('en-US');
/** A share as a percentage with one decimal. */
export const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
/** A p-value: four decimals, or one significant digit in exponent form below 10⁻⁴. */
export const pFmt = (p: number) => (p < 1e-4 ? p.toExponential(1) : p.toFixed(4));
/** An interval as [low, high] in `fmt`. */
export const ciFmt = (ci: [number, number], fmt: (x: number) => string) => `[${fmt(ci[0])}, ${fmt(ci[1])}]`;

// ——— The claims' words ———

export interface ClaimText {
  id: string;
  family: ClaimFamily;
  claim: string;
  paper: string;
  endpoint: string;
}

/** The record of claim `t` in `env` (and `horizon`, for a per-cell claim) before anything is measured. */
export function baseRecord(t: ClaimText, env: EnvName | null, horizon: Horizon | null): ClaimRecord {
  return {
    id: t.id,
    family: t.family,
    kind: t.family === 'I' ? 'identity' : 'empirical',
    env,
    horizon,
    claim: t.claim,
    paper: t.paper,
    ours: '',
    endpoint: t.endpoint,
    effect: null,
    ci: null,
    held: null,
    untestable: null,
    rule: '',
    tests: [],
  };
}

export const P_TEXT = {
  P1: {
    id: 'P1',
    family: 'P',
    claim: 'BEACON beats GRPO on long tasks.',
    paper: 'BEACON above GRPO on every long-horizon benchmark (ALFWorld, WebShop)',
    endpoint: 'auc',
  },
  P2: {
    id: 'P2',
    family: 'P',
    claim: 'BEACON reaches 60% success in fewer env steps than GRPO on long tasks.',
    paper: 'BEACON reaches 60% in about 50 iterations, GRPO in about 120',
    endpoint: 'stepsTo60',
  },
  P3: {
    id: 'P3',
    family: 'P',
    claim: "BEACON's gain over GRPO grows from short to long tasks.",
    paper: 'the gain over GRPO is largest on the longest tasks',
    endpoint: 'auc',
  },
  P4: {
    id: 'P4',
    family: 'P',
    claim: 'BEACON beats shaped-reward PPO on long tasks: credit assignment, not reward shaping.',
    paper: 'not in the paper; the "why not just reward milestones?" control (docs/maths.md §8)',
    endpoint: 'auc',
  },
} satisfies Record<string, ClaimText>;

export const M_TEXT = {
  M1: { id: 'M1', family: 'M', claim: 'BEACON beats GiGPO on long tasks.', paper: 'BEACON above GiGPO on ALFWorld and WebShop', endpoint: 'auc' },
  M2: { id: 'M2', family: 'M', claim: 'BEACON beats critic PPO on long tasks.', paper: 'BEACON above PPO on ALFWorld and WebShop', endpoint: 'auc' },
  M3: { id: 'M3', family: 'M', claim: 'BEACON beats SFT at equal env steps on long tasks.', paper: 'RL above the SFT baseline', endpoint: 'auc' },
  M4: {
    id: 'M4',
    family: 'M',
    claim: 'Random segmentation agrees with GRPO, and BEACON beats it, on long tasks.',
    paper: 'random segments lose most of the gain (§6 ablation)',
    endpoint: 'auc',
  },
  M5: {
    id: 'M5',
    family: 'M',
    claim: 'Milestone dropout p = 0.5 beats GRPO on long tasks.',
    paper: 'dropping half the milestones keeps most of the gain (§6 ablation)',
    endpoint: 'auc',
  },
  M6: {
    id: 'M6',
    family: 'M',
    claim: 'Without the trajectory term BEACON loses more in this household environment than in the shop.',
    paper: 'the trajectory term matters more on ALFWorld than on WebShop (§6 ablation)',
    endpoint: 'auc',
  },
  M7: {
    id: 'M7',
    family: 'M',
    claim: 'Full BEACON beats γ = 0 on long tasks.',
    paper: 'γ = 0 (no temporal shaping) loses to full BEACON (§6 ablation)',
    endpoint: 'auc',
  },
  M8: {
    id: 'M8',
    family: 'M',
    claim: 'The released variant of BEACON agrees with the paper variant.',
    paper: 'the released code (ALFWorld γ 0.9, λ 10; WebShop γ 0.95, λ 1) implements the paper',
    endpoint: 'auc',
  },
  M9: {
    id: 'M9',
    family: 'M',
    claim: "BEACON's AUC gain over GRPO, long minus short, exceeds GiGPO's.",
    paper: "BEACON's advantage grows with the horizon more than GiGPO's",
    endpoint: 'auc',
  },
} satisfies Record<string, ClaimText>;

export const T_TEXT = {
  T1: {
    id: 'T1',
    family: 'T',
    claim: "GRPO's signal retention is below 20% on long tasks.",
    paper: 'signal retention below 20% under GRPO',
    endpoint: 'signalRetention',
  },
  T2: {
    id: 'T2',
    family: 'T',
    claim: "GRPO's contradictory ratio exceeds 40% at its peak on long tasks.",
    paper: 'contradictory action ratio above 40% at its peak under GRPO',
    endpoint: 'contradictoryPeakSigned',
  },
  T3: { id: 'T3', family: 'T', claim: "BEACON's CCR is below GiGPO's on long tasks.", paper: 'CCR: BEACON 0.84, GiGPO 2.36', endpoint: 'ccr' },
  T4: {
    id: 'T4',
    family: 'T',
    claim: "Partial successes are 39–47% of GRPO's samples and full successes under 27% on long tasks.",
    paper: 'partial successes 39–47% of samples, full successes under 27%',
    endpoint: 'outcomeMix',
  },
} satisfies Record<string, ClaimText>;

export const I_TEXT = {
  I1: {
    id: 'I1',
    family: 'I',
    claim: 'γ = 1 reproduces GRPO.',
    paper: 'with γ = 1 and no segment term BEACON reduces to GRPO (docs/maths.md §4)',
    endpoint: 'success curve',
  },
  I2: {
    id: 'I2',
    family: 'I',
    claim: "BEACON's utilisation on advantages is near 100% whenever one segment completes.",
    paper: 'effective sample utilisation 82.0% (BEACON) vs 23.7% (GRPO)',
    endpoint: 'sampleUtilization',
  },
} satisfies Record<string, ClaimText>;
