/**
 * The part of study.json (version 3, src/study/confirmatory-types.ts) that the results page reads, and
 * the check that a fetched document is one: the page works from the cell summaries, the claims, the
 * failures and the pre-registration, never from the runs one by one (the full document holds ~1,200 runs
 * with their curves). A document of another version, or one missing a field, gets a message naming it
 * instead of a broken page.
 */
import type { Horizon } from '../../envs/types.ts';
import type { CellSummary, ClaimRecord, FailureCount, PreregistrationRef } from '../study/confirmatory-types.ts';
import type { AucReadings, EqualUpdatesCell } from '../study/readings.ts';
import type { StudyBounds } from '../study/seed-bounds.ts';

/** The study.json version this page renders. */
export const RESULTS_VERSION = 3;

export interface StudyResults {
  version: typeof RESULTS_VERSION;
  purpose: string;
  /** The commit the document was written at. */
  commit: string;
  /** Distinct commits the runs were trained at. */
  runCommits: string[];
  /** Every (env, horizon)'s env-step budget. */
  envStepBudgets: Record<string, Partial<Record<Horizon, number>>>;
  /** Null when the study was written outside a git repository (no commit to record). */
  preregistration: PreregistrationRef | null;
  cells: CellSummary[];
  claims: ClaimRecord[];
  failures: FailureCount[];
  /** Absent from documents written before these readings (src/study/readings.ts). */
  aucReadings?: AucReadings;
  equalUpdates?: EqualUpdatesCell[];
  /**
   * Seeds at the floor and at the ceiling per cell, and the claims whose verdict rests on them: derived
   * from the runs when the page's copy is made (scripts/results-page-plugin.ts), never stored in study.json.
   */
  bounds?: StudyBounds;
}

export type StudyReading = { ok: true; study: StudyResults } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `json` as the results the page renders, or why it cannot be (the field and what it should be). */
export function readStudy(json: unknown): StudyReading {
  if (!isObject(json)) return { ok: false, message: 'study.json is not a JSON object.' };
  if (json.version !== RESULTS_VERSION) {
    const got = json.version === undefined ? 'has no version field (study v1)' : `is version ${JSON.stringify(json.version)}`;
    return {
      ok: false,
      message: `study.json ${got}; this page renders version ${RESULTS_VERSION} (the pre-registered study, written by npm run study). Re-run the study or serve a version ${RESULTS_VERSION} document.`,
    };
  }
  for (const field of ['cells', 'claims', 'failures', 'runCommits'] as const) {
    if (!Array.isArray(json[field])) return { ok: false, message: `study.json version ${RESULTS_VERSION} has no "${field}" list.` };
  }
  if (json.preregistration !== null && !isObject(json.preregistration))
    return { ok: false, message: `study.json version ${RESULTS_VERSION} has no "preregistration" object (or null).` };
  if (!isObject(json.envStepBudgets)) return { ok: false, message: `study.json version ${RESULTS_VERSION} has no "envStepBudgets" object.` };
  if (typeof json.commit !== 'string') return { ok: false, message: `study.json version ${RESULTS_VERSION} has no "commit" string.` };
  return { ok: true, study: json as unknown as StudyResults };
}
