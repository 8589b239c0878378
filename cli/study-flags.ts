/**
 * The study command's flags: `--seeds N --workers N --quick --fresh --report-only --help`. Errors name
 * the flag and its allowed values (UsageError; the command exits with 2).
 */
import { availableParallelism } from 'node:os';
import { PROFILES, type StudyProfile } from '../src/study/profile.ts';
import { flagsHelp, parseFlags, UsageError } from './flags.ts';

const FLAGS = {
  seeds: { kind: { type: 'int', min: 1, max: 20 }, doc: `seeds per cell (full study: at least 3, default ${PROFILES.full.seeds}; --quick: default ${PROFILES.quick.seeds})` },
  workers: { kind: { type: 'int', min: 1, max: 64 }, doc: `worker threads (default: one per core, here ${availableParallelism()})` },
  quick: { kind: 'switch', doc: `smoke run of a few minutes, written to ${PROFILES.quick.outDir}/` },
  fresh: { kind: 'switch', doc: 'forget the stored runs and start over' },
  'report-only': { kind: 'switch', doc: 'rewrite study.json, charts and README from the stored runs; train nothing' },
} as const;

export const STUDY_USAGE = `usage: npm run study -- [--seeds N] [--workers N] [--quick] [--fresh] [--report-only]\n${flagsHelp(FLAGS)}`;

export interface StudyOptions {
  profile: StudyProfile;
  seeds: number;
  workers: number;
  fresh: boolean;
  reportOnly: boolean;
}

/** Parses the study's flags; throws UsageError naming the flag. Returns null for --help. */
export function parseStudyFlags(argv: readonly string[]): StudyOptions | null {
  const { flags, help } = parseFlags(argv, FLAGS);
  if (help) return null;
  const profile = flags.quick ? PROFILES.quick : PROFILES.full;
  const seeds = flags.seeds ?? profile.seeds;
  if (profile.name !== 'quick' && seeds < 3) throw new UsageError(`--seeds must be an integer in [3, 20] for the full study; got ${seeds}`);
  if (flags.fresh && flags['report-only']) throw new UsageError('--fresh and --report-only cannot go together (--fresh forgets the runs --report-only would report)');
  return { profile, seeds, workers: flags.workers ?? availableParallelism(), fresh: flags.fresh === true, reportOnly: flags['report-only'] === true };
}
