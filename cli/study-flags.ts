/**
 * The study command's flags: `--seeds N --workers N --quick --fresh --report-only --help`. Errors name
 * the flag and its allowed values (UsageError; the command exits with 2).
 */
import { availableParallelism } from 'node:os';
import { PROFILES, type StudyProfile } from '../src/study/profile.ts';
import { UsageError } from './config-flags.ts';

export const STUDY_USAGE = `usage: npm run study -- [--seeds N] [--workers N] [--quick] [--fresh] [--report-only]
  --seeds N        seeds per cell (full study: 3…20, default ${PROFILES.full.seeds}; --quick: 1…20, default ${PROFILES.quick.seeds})
  --workers N      worker threads, 1…64 (default: one per core, here ${availableParallelism()})
  --quick          smoke run of a few minutes, written to ${PROFILES.quick.outDir}/
  --fresh          forget the stored runs and start over
  --report-only    rewrite study.json, charts and README from the stored runs; train nothing`;

export interface StudyOptions {
  profile: StudyProfile;
  seeds: number;
  workers: number;
  fresh: boolean;
  reportOnly: boolean;
}

const SWITCHES = ['quick', 'fresh', 'report-only', 'help'] as const;
const VALUED = ['seeds', 'workers'] as const;

function intFlag(name: string, raw: string | undefined, min: number, max: number): number {
  const x = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(x) || x < min || x > max) throw new UsageError(`--${name} must be an integer in [${min}, ${max}]; got ${JSON.stringify(raw ?? '')}`);
  return x;
}

/** Parses the study's flags; throws UsageError naming the flag. Returns null for --help. */
export function parseStudyFlags(argv: readonly string[]): StudyOptions | null {
  const switches = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}; flags look like --name value`);
    let name = arg.slice(2);
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq >= 0) [name, value] = [name.slice(0, eq), name.slice(eq + 1)];
    if ((SWITCHES as readonly string[]).includes(name)) {
      if (value !== undefined) throw new UsageError(`--${name} takes no value`);
      switches.add(name);
    } else if ((VALUED as readonly string[]).includes(name)) {
      values.set(name, value ?? argv[++i]);
    } else {
      throw new UsageError(`unknown flag --${name}; known flags: ${[...VALUED, ...SWITCHES].map((f) => `--${f}`).join(', ')}`);
    }
  }
  if (switches.has('help')) return null;
  const profile = switches.has('quick') ? PROFILES.quick : PROFILES.full;
  const seeds = values.has('seeds') ? intFlag('seeds', values.get('seeds'), profile.name === 'quick' ? 1 : 3, 20) : profile.seeds;
  const workers = values.has('workers') ? intFlag('workers', values.get('workers'), 1, 64) : availableParallelism();
  if (switches.has('fresh') && switches.has('report-only')) throw new UsageError('--fresh and --report-only cannot go together (--fresh forgets the runs --report-only would report)');
  return { profile, seeds, workers, fresh: switches.has('fresh'), reportOnly: switches.has('report-only') };
}

