/**
 * The study command's flags: `[merge] --seeds N --workers N --quick --fresh --report-only --shard I/N
 * --detector none|primary|all --help`. Errors name the flag and its allowed values (UsageError; the command exits with 2).
 * `merge` (first argument) merges the shard files of a sharded study into the study's outputs.
 */
import { availableParallelism } from 'node:os';
import type { EnvName } from '../envs/index.ts';
import { parseShard, STUDY_BACKENDS, type Shard, type StudyBackend } from '../src/study/matrix.ts';
import { DETECTOR_PRIMARY } from '../src/study/detector-variants.ts';
import { PROFILES, type StudyProfile } from '../src/study/profile.ts';
import { ESTIMATOR_FLAGS } from './estimator-flags.ts';
import { flagsHelp, parseFlags, UsageError } from './flags.ts';

const FLAGS = {
  seeds: {
    kind: { type: 'int', min: 1, max: 20 },
    doc: `seeds per cell, counted from the profile's first seed (full study: ${PROFILES.full.firstSeed}…, at least 3, default ${PROFILES.full.seeds} as pre-registered; --quick: default ${PROFILES.quick.seeds})`,
  },
  workers: { kind: { type: 'int', min: 1, max: 64 }, doc: `worker threads (default: one per core, here ${availableParallelism()})` },
  quick: { kind: 'switch', doc: `smoke run of a few minutes, written to ${PROFILES.quick.outDir}/` },
  'shop-pilot': {
    kind: 'switch',
    doc: `the pre-registration's shop pilot (GRPO, seeds ${PROFILES['shop-pilot'].firstSeed}–${PROFILES['shop-pilot'].firstSeed + PROFILES['shop-pilot'].seeds - 1}), written to ${PROFILES['shop-pilot'].outDir}/`,
  },
  fresh: { kind: 'switch', doc: 'forget the stored runs and start over' },
  'report-only': { kind: 'switch', doc: 'rewrite study.json, charts and README from the stored runs; train nothing' },
  envs: {
    kind: 'string',
    placeholder: 'A,B',
    doc: "train only these environments' runs of the matrix (stored under runs/ for a later invocation; writes no study.json)",
  },
  detector: {
    kind: { type: 'enum', values: ['none', 'primary', 'all'] },
    doc: "the detector study's arms (pre-registration amendment 2) in the matrix: none (study v3 alone), primary (its primary set, one invocation of about 90 minutes on 2 workers), all (default; the secondary set too)",
  },
  backend: {
    kind: { type: 'enum', values: STUDY_BACKENDS },
    doc: "wasm (default: the pre-registered study, a worker thread per run) or webgpu: a GPU study, each cell's seeds trained as one batch in this process, written to <outDir>/webgpu/",
  },
  shard: { kind: 'string', placeholder: 'I/N', doc: 'train only shard I of N (1 ≤ I ≤ N) and write shards/shard-I-of-N.json; `merge` then writes the outputs' },
  ...ESTIMATOR_FLAGS,
} as const;

export const STUDY_USAGE = `usage: npm run study -- [--seeds N] [--workers N] [--quick | --shop-pilot] [--detector none|primary|all] [--fresh] [--report-only] [--shard I/N]
       npm run study -- --backend webgpu [--seeds N] [--quick | --shop-pilot] [--detector none|primary|all] [--fresh] [--report-only]
       npm run study -- merge [--seeds N] [--quick | --shop-pilot] [--detector none|primary|all]     (merge shards/*.json into the outputs)
       npm run study -- --estimator FILE.js [--estimatorTimeout S] [--seeds N] [--workers N] [--quick]
                                                   (race your estimator in the study's cells and seeds)
${flagsHelp(FLAGS)}`;

export interface StudyOptions {
  /** `merge`: merge shard files instead of training. */
  merge: boolean;
  /** The profile, its detector arms narrowed by `--detector`. */
  profile: StudyProfile;
  /** `--detector`: which of the detector study's arms the matrix holds. */
  detector: DetectorChoice;
  seeds: number;
  workers: number;
  fresh: boolean;
  reportOnly: boolean;
  shard: Shard | null;
  /** `--envs`: train only these environments' runs (and write no document); null for all. */
  envs: EnvName[] | null;
  /** `--backend`: wasm (the pre-registered study) or webgpu (a GPU study, in <outDir>/webgpu/). */
  backend: StudyBackend;
  /** `--estimator`: race the visitor's estimator in the profile's cells (nothing of the study is written). */
  estimator: { path: string; timeoutS?: number } | null;
}

export type DetectorChoice = 'none' | 'primary' | 'all';

/** The profile with only the detector arms `choice` names (the primary set: those of DETECTOR_PRIMARY). */
export function withDetector(profile: StudyProfile, choice: DetectorChoice): StudyProfile {
  if (choice === 'all') return profile;
  return { ...profile, detector: choice === 'none' ? [] : profile.detector.filter((v) => (DETECTOR_PRIMARY as readonly string[]).includes(v)) };
}

/** Parses the study's arguments; throws UsageError naming the flag. Returns null for --help. */
export function parseStudyFlags(argv: readonly string[]): StudyOptions | null {
  const merge = argv[0] === 'merge';
  const { flags, help } = parseFlags(merge ? argv.slice(1) : argv, FLAGS);
  if (help) return null;
  if (flags.quick && flags['shop-pilot']) throw new UsageError('--quick and --shop-pilot cannot go together (each is a profile of its own)');
  const detector = flags.detector ?? 'all';
  if (flags['shop-pilot'] && detector !== 'all') throw new UsageError('--detector goes with the full study or --quick; the shop pilot has no detector arms');
  if (flags.estimator !== undefined && detector !== 'all') throw new UsageError('--detector chooses study runs; --estimator races your estimator alone');
  const chosen = withDetector(flags.quick ? PROFILES.quick : flags['shop-pilot'] ? PROFILES['shop-pilot'] : PROFILES.full, detector);
  const backend = flags.backend ?? 'wasm';
  if (backend === 'webgpu' && (flags.workers !== undefined || flags.shard !== undefined || flags.estimator !== undefined || merge))
    throw new UsageError("--backend webgpu trains each cell's seeds as one batch in this process: it takes no --workers, --shard, --estimator or merge");
  // A GPU study never writes over the pre-registered (wasm) study's outputs or stored runs.
  const profile = backend === 'webgpu' ? { ...chosen, outDir: `${chosen.outDir}/webgpu` } : chosen;
  const seeds = flags.seeds ?? profile.seeds;
  if (profile.name === 'full' && seeds < 3) throw new UsageError(`--seeds must be an integer in [3, 20] for the full study; got ${seeds}`);
  if (flags.fresh && flags['report-only'])
    throw new UsageError('--fresh and --report-only cannot go together (--fresh forgets the runs --report-only would report)');
  const shard = flags.shard === undefined ? null : parseShard(flags.shard);
  if (flags.shard !== undefined && !shard) throw new UsageError(`--shard must be I/N with integers 1 ≤ I ≤ N ≤ 1000; got ${JSON.stringify(flags.shard)}`);
  if (shard && flags['report-only']) throw new UsageError('--shard and --report-only cannot go together (a shard writes no report; `merge` does)');
  if (merge && (shard || flags.fresh || flags['report-only'] || flags.workers))
    throw new UsageError('merge takes only --seeds, --detector, --quick and --shop-pilot (it trains nothing)');
  if (flags.estimatorTimeout !== undefined && flags.estimator === undefined) throw new UsageError('--estimatorTimeout needs --estimator FILE');
  if (flags.estimator !== undefined && (merge || shard || flags.fresh || flags['report-only']))
    throw new UsageError('--estimator races your estimator alone: it takes only --seeds, --workers, --quick and --estimatorTimeout');
  const envs = flags.envs === undefined ? null : parseEnvList(flags.envs, profile);
  if (envs && (merge || shard || flags['report-only'] || flags.estimator !== undefined))
    throw new UsageError('--envs trains part of the matrix: it goes with --seeds, --workers, --fresh and a profile only');
  const estimator =
    flags.estimator === undefined ? null : { path: flags.estimator, ...(flags.estimatorTimeout === undefined ? {} : { timeoutS: flags.estimatorTimeout }) };
  return {
    merge,
    profile,
    detector,
    seeds,
    workers: backend === 'webgpu' ? 1 : (flags.workers ?? availableParallelism()),
    backend,
    fresh: flags.fresh === true,
    reportOnly: flags['report-only'] === true,
    shard,
    envs,
    estimator,
  };
}

function parseEnvList(text: string, profile: StudyProfile): EnvName[] {
  const names = text.split(',').map((x) => x.trim());
  for (const n of names)
    if (!profile.envs.includes(n as EnvName))
      throw new UsageError(`--envs must list environments of the ${profile.name} profile (${profile.envs.join(', ')}); got ${JSON.stringify(n)}`);
  return names as EnvName[];
}
